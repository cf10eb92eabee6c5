/* One ld invocation: decide what the link needs, then run the real ld. */
#ifndef LTO_LD_LINK_H
#define LTO_LD_LINK_H

struct toolchain;

/* lto-ld's main job: returns the exit status (or does not return: exec). */
int link_main(int argc, char **argv, struct toolchain *tc);

#endif
