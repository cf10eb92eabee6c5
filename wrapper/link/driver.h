/*
 * The gcc -B route: the gcc driver loaded GCC's LTO plugin and runs LTO
 * itself, lto-ld is its "ld".  lto-ld adds what its own links have:
 * parallel LTRANS, and the cache.
 */
#ifndef LTO_LD_LINK_DRIVER_H
#define LTO_LD_LINK_DRIVER_H

struct ld_cmdline;
struct strvec;
struct toolchain;

/*
 * The driver's LTO options (COLLECT_GCC_OPTIONS), and a warning for what
 * only lto-ld's own LTO does.  0, or 1 after an error.
 */
int driver_lto_options(const struct ld_cmdline *cmd);

/* Run ARGV, the real ld, with the driver's LTRANS compiles through the cache. */
int driver_cached_link(const struct ld_cmdline *cmd, struct toolchain *tc,
		       struct strvec *argv);

#endif
