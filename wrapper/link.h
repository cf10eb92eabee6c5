/* One ld invocation: decide what the link needs, then run the real ld. */
#ifndef LTO_LD_LINK_H
#define LTO_LD_LINK_H

struct toolchain;

/* What a link with LTO writes (GCC's -flinker-output). */
enum link_kind {
	LINK_FINAL,		/* an executable or shared library */
	LINK_NATIVE_REL,	/* ld -r: native code (nolto-rel) */
	LINK_IR_REL,		/* ld -r: one merged IR object (rel) */
};

/* lto-ld's main job: returns the exit status (or does not return: exec). */
int link_main(int argc, char **argv, struct toolchain *tc);

#endif
