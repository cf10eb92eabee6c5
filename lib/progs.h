/*
 * Finding the programs lto-ld runs, and what gcc says about itself.
 * Every lookup skips this very program, under whatever name it was
 * found: lto-ld installed as "ld" must not find itself as the real ld.
 */
#ifndef LTO_LD_PROGS_H
#define LTO_LD_PROGS_H

/* NAME in PATH (or NAME itself when it holds a '/'), never lto-ld; NULL if none. */
char *find_program(const char *name);

/* The first line `CC ARG` prints (CC a path), or NULL when it fails or prints none. */
char *gcc_ask(const char *cc, const char *arg);

/* GCC's liblto_plugin.so as the compiler CC (a path) names it, or NULL. */
char *gcc_lto_plugin(const char *cc);

#endif
