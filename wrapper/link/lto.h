/*
 * A link with LTO: the real ld with lto-ld's plugin in front of GCC's,
 * the environment lto-wrapper needs, then what lto-ld checks and adds
 * to the output (post/, the fat IR part, the report).
 */
#ifndef LTO_LD_LINK_LTO_H
#define LTO_LD_LINK_LTO_H

#include "../outputs.h"

struct cache_link;
struct inputs_info;
struct ld_cmdline;
struct toolchain;

/* The files the plugin reads and writes for one LTO link (each may be NULL). */
struct plugin_files {
	const char *symbols;		/* its side file: every IR symbol */
	const char *exports;		/* the exports to keep (--lto-exports) */
};

/*
 * Run the real ld with the LTO plugin, writing OUT, a link of KIND.
 * With CACHE_USED, the link's use of the cache is the caller's: it
 * stores the outputs once it has finished them.
 */
int lto_run(const struct ld_cmdline *cmd, struct toolchain *tc,
	    const struct inputs_info *info, enum link_kind kind,
	    const char *out, const struct plugin_files *files,
	    struct cache_link *cache_used);

/*
 * An LTO link of CMD, of KIND, to its output.  IR_PART: for a fat
 * ld -r, the merged IR object to add to the native one.
 */
int lto_link(const struct ld_cmdline *cmd, struct toolchain *tc,
	     const struct inputs_info *info, enum link_kind kind,
	     const char *ir_part);

#endif
