/*
 * --lto-report=FILE (LTO_LD_REPORT=FILE): for every IR object of a link
 * the plugin ran for, the IR symbols it defined and what became of each
 * (kept and why, inlined everywhere, removed, not prevailing), and totals.
 * Text, or JSON when FILE ends in ".json".  The plugin lists resolutions
 * (-plugin-opt=lto-ld:symbols=FILE); what is in the output comes from the
 * output's symbol table, read after the link.
 */
#ifndef LTO_LD_REPORT_H
#define LTO_LD_REPORT_H

#include "../outputs.h"

struct cache_link;
struct output_syms;
struct inputs_info;
struct ld_cmdline;

/*
 * After the link wrote OUT: join SYMBOLS (the plugin's list) with OUT's
 * symbol table and write the report to WHERE, with what the LTRANS
 * CACHE did (its dir NULL: none), for a link of KIND.  OUT_SYMS: what a
 * read of OUT already gave (NULL: OUT is read here).  0, or 1 after an
 * error naming CMD->report.
 */
int report_write(const struct ld_cmdline *cmd, const struct inputs_info *info,
		 const char *out, enum link_kind kind, const char *symbols,
		 const struct output_syms *out_syms, const struct cache_link *cache,
		 const char *where);

#endif
