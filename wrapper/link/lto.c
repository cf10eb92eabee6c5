/* A link with LTO, from the output prepared to the output renamed. */
#include "lto.h"
#include "fat.h"
#include "ldargs.h"
#include "ltoenv.h"
#include "../outputs.h"
#include "../cache/linkcache.h"
#include "../inputs.h"
#include "../ldopts.h"
#include "../post/debuganchors.h"
#include "../post/lostdefs.h"
#include "../post/ltonames.h"
#include "../post/report.h"
#include "../toolchain.h"
#include "run.h"
#include "strvec.h"
#include "tmp.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The plugin: lto-ld's own in front of GCC's when it is there, with the
 * link policy as its options; else GCC's (policy options are then an error).
 * SYMBOLS: its side file, where it lists every IR symbol and what became
 * of it (post/sidefile.h), or NULL.
 */
static int push_plugin(struct strvec *argv, const struct ld_cmdline *cmd,
		       const struct toolchain *tc, const char *symbols)
{
	bool policy = cmd->whole_program || cmd->keep_files.n ||
		      cmd->keep_symbols.n;

	for (size_t i = 0; i < cmd->keep_files.n; i++)
		if (!is_regular_file(cmd->keep_files.v[i]))
			return error("%s: keep file not found (--lto-keep)",
				     cmd->keep_files.v[i]);

	if (!tc->proxy) {
		if (policy)
			return error("--lto-whole-program and --lto-keep need "
				     "lto-ld-plugin.so, which was not found "
				     "(not built, or LTO_LD_PLUGIN is set)");
		if (symbols)
			return error("--lto-report (LTO_LD_REPORT) needs "
				     "lto-ld-plugin.so, which was not found "
				     "(not built, or LTO_LD_PLUGIN is set)");
		strvec_push(argv, "-plugin");
		strvec_push(argv, tc->plugin);
		return 0;
	}
	strvec_push(argv, "-plugin");
	strvec_push(argv, tc->proxy);
	strvec_pushf(argv, "-plugin-opt=lto-ld:gcc-plugin=%s", tc->gcc_plugin);
	if (cmd->whole_program)
		strvec_push(argv, "-plugin-opt=lto-ld:whole-program");
	if (cmd->whole_program && cmd->final_weak)
		strvec_push(argv, "-plugin-opt=lto-ld:final-weak");
	for (size_t i = 0; i < cmd->keep_files.n; i++)
		strvec_pushf(argv, "-plugin-opt=lto-ld:keep-file=%s", cmd->keep_files.v[i]);
	for (size_t i = 0; i < cmd->keep_symbols.n; i++)
		strvec_pushf(argv, "-plugin-opt=lto-ld:keep=%s", cmd->keep_symbols.v[i]);
	if (symbols)
		strvec_pushf(argv, "-plugin-opt=lto-ld:symbols=%s", symbols);
	return 0;
}

/*
 * What lto-ld checks and tidies in the object an ld -r with LTO just
 * wrote (OUT): definitions whole-program LTO lost, debug anchors, and
 * the names GCC's LTO gave statics.
 * The one read of OUT's symbols goes into SYMS, for the report too.
 */
static int finish_partial(const struct ld_cmdline *cmd,
			  const struct inputs_info *info, const char *out,
			  enum link_kind kind, const char *symbols,
			  struct output_syms *syms)
{
	/* A native object from LTO: its debug anchors are local from now on. */
	bool native = kind == LINK_NATIVE_REL;

	/* (an output that is not a regular file, /dev/null, has nothing to see) */
	if ((!native && !symbols) || !is_regular_file(out))
		return 0;
	if (output_symbols(out, syms))
		return 1;
	if (symbols && lost_definitions(cmd, info, &syms->undefined, symbols))
		return 1;
	if (!native)
		return 0;
	/* (the report takes GCC's names and the source's for the same) */
	return debug_anchors_localize(out, syms->anchors) ||
	       lto_names_restore(out);
}

/*
 * Run the real ld with the LTO plugin, writing OUT, a link of KIND.
 * The plugin appends its own -flinker-output=rel for -r unless told the
 * output kind is known.  With CACHE_USED, the link's use of the cache is
 * the caller's: it stores the outputs once it has finished them.
 */
int lto_run(const struct ld_cmdline *cmd, struct toolchain *tc,
	    const struct inputs_info *info, enum link_kind kind,
	    const char *out, const struct plugin_files *files,
	    struct cache_link *cache_used)
{
	struct strvec argv = STRVEC_INIT, env = STRVEC_INIT, settings = STRVEC_INIT;
	struct strvec outputs = STRVEC_INIT;
	char *res = tmp_file("link.res"), *jobs_flag = NULL, *options;
	struct cache_link cache;
	int rc = 1;

	memset(&cache, 0, sizeof(cache));
	if (!res || ltoenv_jobs(&jobs_flag))
		goto done;
	strvec_push(&argv, tc->real_tool);
	if (push_plugin(&argv, cmd, tc, files->symbols))
		goto done;
	if (files->exports)
		strvec_pushf(&argv, "-plugin-opt=lto-ld:exports=%s", files->exports);
	strvec_pushf(&argv, "-plugin-opt=%s", tc->lto_wrapper);
	strvec_pushf(&argv, "-plugin-opt=-fresolution=%s", res);
	if (kind != LINK_FINAL) {
		strvec_push(&argv, "-plugin-opt=-linker-output-known");
		strvec_pushf(&argv, "-plugin-opt=-flinker-output=%s",
			     kind == LINK_IR_REL ? "rel" : "nolto-rel");
	}
	ldargs_push(&argv, cmd, info, false);
	strvec_push(&argv, "-o");
	strvec_push(&argv, out);

	options = ltoenv_collect_gcc_options(cmd, tc, info, jobs_flag, kind);
	trace("COLLECT_GCC=%s COLLECT_GCC_OPTIONS=%s", tc->cc, options);
	strvec_pushf(&settings, "COLLECT_GCC_OPTIONS=%s", options);
	/* (with a cache, COLLECT_GCC is lto-ld: it runs the LTRANS compiles) */
	if (cache_link_begin(&cache, cmd->cache, tc, tc->cc, &settings))
		goto done;
	if (!cache.dir)
		strvec_pushf(&settings, "COLLECT_GCC=%s", tc->cc);
	if (strcmp(jobs_flag, "-flto=jobserver")) {
		char *makeflags = ltoenv_makeflags_without_jobserver();

		if (makeflags)
			strvec_push_nodup(&settings, makeflags);
	}
	/* lto-wrapper's and LTRANS's temporary files go to our directory. */
	strvec_pushf(&settings, "TMPDIR=%s", tmp_dir());
	/* the compiler plugin drops the other exports in the LTO step */
	strvec_pushf(&settings, EXPORTS_CHANNEL "=%s",
		     files->exports ? files->exports : "");
	free(options);
	/* the link cache: the same inputs as a cached link, its outputs */
	strvec_push(&outputs, out);
	if (files->symbols)
		strvec_push(&outputs, files->symbols);
	if (cache_link_fetch(&cache, argv.v, settings.v, outputs.v)) {
		rc = 0;
		goto cached;
	}
	if (run_fit_argv(&argv, 1, "ld-args.rsp"))
		goto done;
	env_with(&env, settings.v);
	rc = run_wait(argv.v, env.v);
cached:
	if (cache_used) {
		*cache_used = cache;	/* (theirs to store, end and free) */
		memset(&cache, 0, sizeof(cache));
	} else if (rc == 0) {
		cache_link_store(&cache);
		cache_link_end(&cache);
	}
done:
	cache_link_free(&cache);
	strvec_clear(&outputs);
	free(jobs_flag);
	strvec_clear(&argv);
	strvec_clear(&env);
	strvec_clear(&settings);
	return rc;
}

/*
 * An LTO link of CMD, of KIND.  IR_PART: for a
 * fat ld -r, the merged IR object to add to the native one.  With
 * --lto-report the report is written under a temporary name and renamed
 * just before the output: a failed link or report leaves neither.
 */
int lto_link(const struct ld_cmdline *cmd, struct toolchain *tc,
	     const struct inputs_info *info, enum link_kind kind,
	     const char *ir_part)
{
	struct plugin_files files = { NULL, NULL };
	struct cache_link cache = { 0 };
	struct output_syms syms = OUTPUT_SYMS_INIT;
	const char *out, *lto_out, *report_to = NULL;
	char *symbols = NULL, *exports = NULL;
	char *cc_plugin = NULL, *native = NULL;	/* (tmp_file()s are not freed) */
	/* whole-program ld -r: what the plugin made internal is checked after */
	bool whole = kind != LINK_FINAL && cmd->whole_program && tc->proxy;
	bool report_done = false;
	int rc;

	out = output_prepare(cmd->output, "");
	if (!out)
		return 1;
	/* a fat output is written from the native one and the IR */
	lto_out = out;
	if (ir_part && !(lto_out = native = tmp_file("native.o")))
		return 1;
	/* an absolute path: lto1 reads it too, from lto-wrapper's directory */
	if (whole && cmd->exports &&
	    (!(exports = realpath(cmd->exports, NULL)) || access(exports, R_OK))) {
		rc = error("%s: cannot read the list of exports (--lto-exports): %s",
			   cmd->exports, strerror(errno));
		goto done;
	}
	/* the compiler plugin cuts the other entries out of the asm text */
	if (exports && !(cc_plugin = toolchain_find_cc_plugin(tc, false))) {
		rc = error("--lto-exports needs lto-ld's compiler plugin");
		goto done;
	}
	free(cc_plugin);
	if (cmd->report) {
		report_to = output_prepare(cmd->report, "the report ");
		if (!report_to) {
			rc = 1;
			goto done;
		}
	}
	/* one side file for the report and the check of what was made internal */
	if ((whole || report_to) && !(symbols = tmp_file("ir-symbols.txt"))) {
		rc = 1;
		goto done;
	}
	files.symbols = symbols;
	files.exports = exports;
	rc = lto_run(cmd, tc, info, kind, lto_out, &files, &cache);
	if (rc == 0 && kind != LINK_FINAL)
		rc = finish_partial(cmd, info, lto_out, kind,
				    whole ? symbols : NULL, &syms);
	/* the outputs as finished: a hit needs no tidying again */
	if (rc == 0) {
		cache_link_store(&cache);
		cache_link_end(&cache);
	}
	if (rc == 0 && ir_part)
		rc = fat_add_ir_part(cmd, tc, native, ir_part, out);
	if (rc == 0 && report_to)
		rc = report_write(cmd, info, lto_out, kind, symbols,
				  syms.read ? &syms : NULL, &cache, report_to);
	if (rc == 0 && report_to) {
		rc = tmp_output_commit(cmd->report);
		report_done = rc == 0;
	}
	rc = output_finish(rc, cmd->output);
	/* no output: no report of it (one written in place cannot be taken back) */
	if (rc != 0 && report_done && report_to != cmd->report)
		unlink(cmd->report);
done:
	output_syms_clear(&syms);
	cache_link_free(&cache);
	free(exports);
	return rc;
}
