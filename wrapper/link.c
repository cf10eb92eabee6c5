/*
 * lto-ld's decision, top to bottom:
 *   1. parse the ld command line and scan every input for GCC IR;
 *   2. no IR: exec the real ld with the arguments as given;
 *   3. final link with IR: the real ld with the LTO plugin and the
 *      environment lto-wrapper needs;
 *   4. ld -r with IR: a native object carrying the merged IR (fat), a
 *      thin archive, a native object or a merged IR object
 *      (--lto-partial / LTO_LD_PARTIAL).
 * Outputs lto-ld writes itself go to a temporary name and are renamed.
 */
#include "link.h"
#include "cache.h"
#include "post/debuganchors.h"
#include "help.h"
#include "inputs.h"
#include "ldopts.h"
#include "post/lostdefs.h"
#include "progs.h"
#include "post/report.h"
#include "run.h"
#include "scan.h"
#include "settings.h"
#include "strvec.h"
#include "thinar.h"
#include "tmp.h"
#include "toolchain.h"
#include "util.h"
#include "version.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* GCC's lto-min-partition (insns) for a whole-program ld -r */
#define WHOLE_PROGRAM_MIN_PARTITION "2000"

/* -l inputs need their files before they can be scanned. */
static void resolve_libraries(struct ld_cmdline *cmd, struct toolchain *tc)
{
	char **dirs;

	ld_resolve_libraries(cmd, NULL);
	if (!ld_has_unresolved_libraries(cmd) || cmd->nostdlib)
		return;
	dirs = toolchain_default_libdirs(tc, cmd->emulation);
	ld_resolve_libraries(cmd, dirs);
	for (char **d = dirs; *d; d++)
		free(*d);
	free(dirs);
}

/*
 * ld refuses an output that is one of its inputs; lto-ld links to a
 * temporary name and renames it, which would hide that from ld, so it
 * checks first (and the --lto-report file the same way).
 */
static int check_outputs(const struct ld_cmdline *cmd)
{
	const char *report = cmd->report;

	for (size_t i = 0; i < cmd->ninputs; i++) {
		const char *in = cmd->inputs[i].path;

		/* a missing input is ld's to report ("cannot find") */
		if (!in || access(in, F_OK) != 0)
			continue;
		if (same_file(in, cmd->output))
			return error("input file '%s' is the same as output "
				     "file '%s': refusing to replace an input",
				     in, cmd->output);
		if (report && same_file(in, report))
			return error("--lto-report=%s: that is the input file "
				     "'%s': refusing to replace an input",
				     report, in);
	}
	if (report && same_file(report, cmd->output))
		return error("--lto-report=%s: that is the link's output "
			     "'%s'", report, cmd->output);
	return 0;
}

/* ---- building the real ld's command line ---- */

/*
 * The caller's arguments (without -o unless KEEP_OUTPUT), with lto-ld thin
 * archives not already under --whole-archive wrapped so that every member
 * is linked.
 */
static void push_link_args(struct strvec *out, const struct ld_cmdline *cmd,
			   const struct inputs_info *info, bool keep_output)
{
	size_t next_input = 0;

	for (size_t i = 0; i < cmd->args.n; i++) {
		const struct ld_input *in = NULL;

		if (cmd->roles[i] == ROLE_OUTPUT && !keep_output)
			continue;
		/* ld ignores them, and the -o lto-ld adds must not follow "--" */
		if (cmd->roles[i] == ROLE_IGNORED)
			continue;
		while (next_input < cmd->ninputs &&
		       cmd->inputs[next_input].arg < i)
			next_input++;
		if (next_input < cmd->ninputs && cmd->inputs[next_input].arg == i)
			in = &cmd->inputs[next_input];
		if (in && info->file && info->file[next_input].lto_ld_thin &&
		    !in->whole_archive) {
			strvec_push(out, "--push-state");
			strvec_push(out, "--whole-archive");
			strvec_push(out, cmd->args.v[i]);
			/* "-l NAME" is two arguments */
			if (in->is_library && i + 1 < cmd->args.n &&
			    cmd->roles[i + 1] == ROLE_INPUT && in->name == cmd->args.v[i + 1])
				strvec_push(out, cmd->args.v[++i]);
			strvec_push(out, "--pop-state");
			continue;
		}
		strvec_push(out, cmd->args.v[i]);
	}
}

/* ---- the environment of lto-wrapper ---- */

/* FD is open here, and a pipe: a closed jobserver fd may have been reused. */
static bool is_open_pipe(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

/* A usable GNU make jobserver in MAKEFLAGS (its pipe fds open here)? */
static bool have_jobserver(void)
{
	const char *flags = getenv("MAKEFLAGS");
	const char *p;
	int rfd, wfd;

	if (!flags)
		return false;
	p = strstr(flags, "--jobserver-auth=");
	if (!p)
		p = strstr(flags, "--jobserver-fds=");
	if (!p)
		return false;
	p = strchr(p, '=') + 1;
	if (sscanf(p, "%d,%d", &rfd, &wfd) != 2)
		return false;	/* fifo: jobservers are not understood by GCC 12 */
	return is_open_pipe(rfd) && is_open_pipe(wfd);
}

/*
 * MAKEFLAGS without its jobserver, for lto-wrapper's make when lto-ld
 * did not find the jobserver usable (NULL: nothing to take out).  Its
 * fd numbers may name other files here by now: make would read them.
 */
static char *makeflags_without_jobserver(void)
{
	const char *flags = getenv("MAKEFLAGS");
	struct strvec words = STRVEC_INIT;
	char *copy, *word, *save = NULL, *out;
	size_t len = 1;

	if (!flags || (!strstr(flags, "--jobserver-auth=") &&
		       !strstr(flags, "--jobserver-fds=")))
		return NULL;
	copy = xstrdup(flags);
	for (word = strtok_r(copy, " ", &save); word; word = strtok_r(NULL, " ", &save))
		if (!starts_with(word, "--jobserver-auth=") &&
		    !starts_with(word, "--jobserver-fds="))
			strvec_push(&words, word);
	for (size_t i = 0; i < words.n; i++)
		len += strlen(words.v[i]) + 1;
	out = xmalloc(len + strlen("MAKEFLAGS="));
	strcpy(out, "MAKEFLAGS=");
	for (size_t i = 0; i < words.n; i++) {
		strcat(out, i ? " " : "");
		strcat(out, words.v[i]);
	}
	strvec_clear(&words);
	free(copy);
	return out;
}

/* LTRANS's parallelism: LTO_LD_JOBS, else make's jobserver, else a job a CPU. */
static int ltrans_jobs(char **flag)
{
	long jobs = settings.jobs;

	if (settings.jobs_error)
		return error("%s", settings.jobs_error);
	if (!jobs && have_jobserver()) {
		*flag = xstrdup("-flto=jobserver");
		return 0;
	}
	if (!jobs)
		jobs = sysconf(_SC_NPROCESSORS_ONLN);
	*flag = xasprintf("-flto=%ld", jobs < 1 ? 1 : jobs);
	return 0;
}

/* Append 'OPT' in the quoting lto-wrapper expects in COLLECT_GCC_OPTIONS. */
static void add_collect_option(struct strvec *opts, const char *opt)
{
	char *quoted = xmalloc(4 * strlen(opt) + 3), *q = quoted;

	*q++ = '\'';
	for (; *opt; opt++) {
		if (*opt == '\'') {
			memcpy(q, "'\\''", 4);	/* as the gcc driver writes it */
			q += 4;
		} else {
			*q++ = *opt;
		}
	}
	*q++ = '\'';
	*q = '\0';
	strvec_push_nodup(opts, quoted);
}

static char *collect_gcc_options(const struct ld_cmdline *cmd,
				 struct toolchain *tc, const char *jobs_flag,
				 enum link_kind kind)
{
	char *cc_plugin = toolchain_find_cc_plugin(tc, true);
	const char *extra = settings.lto_flags;
	struct strvec opts = STRVEC_INIT, split = STRVEC_INIT;
	size_t len = 0;
	char *joined, *p, *dumpdir, *seed;

	add_collect_option(&opts, jobs_flag);
	/*
	 * WPA's sections get GCC's random seed as a name suffix, and so do
	 * an IR link's: with a fixed seed the same inputs give the same
	 * partitions (the LTRANS cache hits) and the same output.  IR
	 * outputs take it from their name: a plain ld -r of two of them
	 * must not merge their sections.
	 */
	if (kind == LINK_IR_REL)
		seed = xasprintf("-frandom-seed=%s", cmd->output);
	else
		seed = xstrdup("-frandom-seed=lto-ld");
	add_collect_option(&opts, seed);
	free(seed);
	/*
	 * A whole-program ld -r (a kernel's vmlinux.o) is linked again
	 * after every edit, and the LTRANS cache then compiles only the
	 * partition that changed: GCC's 128 partitions rather than the
	 * fewer its 10,000-insn minimum gives make that one smaller
	 * (measured on mps2: the edit's vmlinux.o link 10.6 s -> 9.0 s).
	 * Partitioning options in the LTO flags come later and win.
	 */
	if (kind != LINK_FINAL && cmd->whole_program)
		add_collect_option(&opts, "--param=lto-min-partition=" WHOLE_PROGRAM_MIN_PARTITION);
	/* LTRANS units need it too: it reconciles named sections' flags */
	if (cc_plugin) {
		char *flag = xasprintf("-fplugin=%s", cc_plugin);

		add_collect_option(&opts, flag);
		free(flag);
		free(cc_plugin);
	}
	if (cmd->save_temps) {
		add_collect_option(&opts, "-save-temps");
		add_collect_option(&opts, "-dumpdir");
		dumpdir = xasprintf("%s/", tmp_dir());
		add_collect_option(&opts, dumpdir);
		free(dumpdir);
	}
	if (extra) {
		ld_split_response(extra, &split);
		for (size_t i = 0; i < split.n; i++)
			add_collect_option(&opts, split.v[i]);
		strvec_clear(&split);
	}
	for (size_t i = 0; i < cmd->lto_flags.n; i++)
		add_collect_option(&opts, cmd->lto_flags.v[i]);
	len = strvec_bytes(&opts) + 1;
	joined = xmalloc(len);
	p = joined;
	for (size_t i = 0; i < opts.n; i++)
		p += sprintf(p, "%s%s", i ? " " : "", opts.v[i]);
	*p = '\0';
	strvec_clear(&opts);
	return joined;
}

/* ---- outputs ---- */

/*
 * The name the real tool should write: a temporary file next to OUTPUT,
 * renamed on success, so a failed link leaves nothing behind.  Outputs that
 * are not regular files (/dev/null) are written directly.
 */
static const char *prepare_output(const char *output)
{
	struct stat st;
	char *dir;

	if (stat(output, &st) == 0 && !S_ISREG(st.st_mode))
		return output;
	dir = dir_name(output);
	if (access(dir, W_OK | X_OK) != 0) {
		error("cannot write %s: %s", output, strerror(errno));
		free(dir);
		return NULL;
	}
	free(dir);
	return tmp_output_create(output, NULL);
}

static int finish_output(int rc, const char *output)
{
	if (rc != 0)
		return rc > 0 ? rc : 1;
	return tmp_output_commit(output);
}

/*
 * A link that failed leaves no output, as GNU ld's (its
 * unlink_if_ordinary): not the one from before, which a make would take
 * for this link's.  A device (/dev/null) or FIFO is left alone.
 */
static void remove_failed_output(const char *output)
{
	struct stat st;

	if (lstat(output, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) &&
	    unlink(output) == 0)
		trace("the link failed: %s removed", output);
}

/* ---- the links ---- */

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
 * wrote (OUT): definitions whole-program LTO lost, and debug anchors.
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
	/* (making anchors local changes no name the report looks for) */
	return native ? debug_anchors_localize(out, syms->anchors) : 0;
}

/* The files the plugin reads and writes for one LTO link (each may be NULL). */
struct plugin_files {
	const char *symbols;		/* its side file: every IR symbol */
	const char *exports;		/* the exports to keep (--lto-exports) */
};

/*
 * Run the real ld with the LTO plugin, writing OUT, a link of KIND.
 * The plugin appends its own -flinker-output=rel for -r unless told the
 * output kind is known.  With CACHE_USED, the link's use of the cache is
 * the caller's: it stores the outputs once it has finished them.
 */
static int run_lto(const struct ld_cmdline *cmd, struct toolchain *tc,
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
	if (!res || ltrans_jobs(&jobs_flag))
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
	push_link_args(&argv, cmd, info, false);
	strvec_push(&argv, "-o");
	strvec_push(&argv, out);

	options = collect_gcc_options(cmd, tc, jobs_flag, kind);
	trace("COLLECT_GCC=%s COLLECT_GCC_OPTIONS=%s", tc->cc, options);
	strvec_pushf(&settings, "COLLECT_GCC_OPTIONS=%s", options);
	/* (with a cache, COLLECT_GCC is lto-ld: it runs the LTRANS compiles) */
	if (cache_link_begin(&cache, cmd->cache, tc, tc->cc, &settings))
		goto done;
	if (!cache.dir)
		strvec_pushf(&settings, "COLLECT_GCC=%s", tc->cc);
	if (strcmp(jobs_flag, "-flto=jobserver")) {
		char *makeflags = makeflags_without_jobserver();

		if (makeflags)
			strvec_push_nodup(&settings, makeflags);
	}
	/* lto-wrapper's and LTRANS's temporary files go to our directory. */
	strvec_pushf(&settings, "TMPDIR=%s", tmp_dir());
	/* the compiler plugin drops the other exports in the LTO step */
	strvec_pushf(&settings, "LTO_LD_EXPORTS=%s",
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

/* GCC's struct lto_section: two 16-bit versions, then the slim flag */
#define LTO_HEADER_SLIM_FLAG 4

static int visit_lto_header(const struct scan_object *obj, void *data)
{
	*(off_t *)data = obj->lto_header;
	return 0;
}

/*
 * Clear the "slim" flag of the LTO stream header of the IR object PATH,
 * as GCC writes it for -ffat-lto-objects: binutils reads it, and a slim
 * object linked without the plugin is "plugin needed to handle lto
 * object" even when native code is there.
 */
static int mark_fat(const char *path)
{
	off_t header = -1;
	int fd, rc = 0;

	if (scan_file(path, visit_lto_header, &header, NULL) < 0)
		return 1;
	if (header < 0)
		return error("%s: no LTO stream header", path);
	fd = open(path, O_WRONLY);
	if (fd < 0 || pwrite(fd, "", 1, header + LTO_HEADER_SLIM_FLAG) != 1)
		rc = error("%s: %s", path, strerror(errno));
	if (fd >= 0 && close(fd) != 0 && !rc)
		rc = error("%s: %s", path, strerror(errno));
	return rc;
}

/*
 * A fat ld -r output: OUT gets the native object NATIVE and the merged IR
 * object IR, as -ffat-lto-objects gives one object both.  Tools read the
 * native code; a later LTO link (lto-ld, or gcc -flto) claims the file
 * and reads only its IR.  The IR's slim marks go first (its header flag,
 * the __gnu_lto_slim symbol): ld without the plugin would take the file
 * for IR only.
 */
static int add_ir_part(const struct ld_cmdline *cmd, struct toolchain *tc,
		       const char *native, const char *ir, const char *out)
{
	struct strvec argv = STRVEC_INIT;
	char *objcopy = xasprintf("%sobjcopy", tc->prefix);
	char *fat_ir = tmp_file("ir-fat.o");
	int rc = 1;

	strvec_push_nodup(&argv, find_program(objcopy));
	if (!argv.v[0]) {
		rc = error("cannot find '%s' (needed to write the fat ld -r "
			   "output %s)", objcopy, cmd->output);
		goto done;
	}
	/* its early debug excluded from links without LTO, as in GCC's */
	strvec_pushl(&argv, "--strip-symbol=__gnu_lto_slim",
		     "--set-section-flags=.gnu.debuglto_*=contents,readonly,exclude",
		     "--set-section-flags=.gnu.debuglto_*str=contents,readonly,"
		     "exclude,merge,strings", ir, fat_ir, NULL);
	if (run_wait(argv.v, NULL) || mark_fat(fat_ir))
		goto done;
	strvec_clear(&argv);
	strvec_pushl(&argv, tc->real_tool, "-r", NULL);
	if (cmd->emulation)
		strvec_pushl(&argv, "-m", cmd->emulation, NULL);
	strvec_pushl(&argv, "-o", out, native, fat_ir, NULL);
	rc = run_wait(argv.v, NULL);
done:
	free(objcopy);
	strvec_clear(&argv);
	return rc;
}

/*
 * An LTO link of CMD, of KIND.  IR_PART: for a
 * fat ld -r, the merged IR object to add to the native one.  With
 * --lto-report the report is written under a temporary name and renamed
 * just before the output: a failed link or report leaves neither.
 */
static int plugin_link(const struct ld_cmdline *cmd, struct toolchain *tc,
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

	out = prepare_output(cmd->output);
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
		report_to = report_prepare(cmd);
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
	rc = run_lto(cmd, tc, info, kind, lto_out, &files, &cache);
	if (rc == 0 && kind != LINK_FINAL)
		rc = finish_partial(cmd, info, lto_out, kind,
				    whole ? symbols : NULL, &syms);
	/* the outputs as finished: a hit needs no tidying again */
	if (rc == 0) {
		cache_link_store(&cache);
		cache_link_end(&cache);
	}
	if (rc == 0 && ir_part)
		rc = add_ir_part(cmd, tc, native, ir_part, out);
	if (rc == 0 && report_to)
		rc = report_write(cmd, info, lto_out, kind, symbols,
				  syms.read ? &syms : NULL, &cache, report_to);
	if (rc == 0 && report_to) {
		rc = tmp_output_commit(cmd->report);
		report_done = rc == 0;
	}
	rc = finish_output(rc, cmd->output);
	/* no output: no report of it (one written in place cannot be taken back) */
	if (rc != 0 && report_done && report_to != cmd->report)
		unlink(cmd->report);
done:
	output_syms_clear(&syms);
	cache_link_free(&cache);
	free(exports);
	return rc;
}

/* Options a thin archive cannot carry: they take effect at the final link. */
static bool harmless_in_thin(const char *opt)
{
	static const char *const ok[] = {
		"-r", "-i", "--relocatable", "-relocatable", "-m", "-EL", "-EB",
		"--whole-archive", "-whole-archive", "--no-whole-archive",
		"-no-whole-archive", "--push-state", "--pop-state",
		"--start-group", "--end-group", "-(", "-)", "-L",
		"--library-path", "-plugin", "--plugin", "--sysroot",
		"-nostdlib", "-Bstatic", "-Bdynamic", "-static", "-dn", "-dy",
		"-g", "-O", "-flto", "-fuse-ld", "-s", "-S", "--strip",
		"-x", "-X", "--discard",
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (starts_with(opt, ok[i]))
			return true;
	return false;
}

/* An input that is neither an object nor an archive (NULL: none). */
static char *non_object_input(const struct ld_cmdline *cmd,
			      const struct inputs_info *info)
{
	for (size_t i = 0; i < cmd->ninputs; i++) {
		if (cmd->inputs[i].raw)
			return xasprintf("%s is raw data (-b)",
					 cmd->inputs[i].name);
		if (cmd->inputs[i].path && info->file[i].kind == FILE_OTHER)
			return xasprintf("%s is not an object or archive",
					 cmd->inputs[i].path);
	}
	return NULL;
}

/* Why thin mode cannot represent this ld -r (NULL when it can). */
static char *thin_blocker(const struct ld_cmdline *cmd,
			  const struct inputs_info *info)
{
	if (info->library_archive)
		return xasprintf("%s is an archive linked on demand",
				 info->library_archive);
	return non_object_input(cmd, info);
}

static int thin_link(const struct ld_cmdline *cmd, struct toolchain *tc)
{
	struct strvec members = STRVEC_INIT;
	const char *out = prepare_output(cmd->output);
	int rc;

	if (!out)
		return 1;
	for (size_t i = 0; i < cmd->args.n; i++)
		if (cmd->roles[i] == ROLE_OPTION && !harmless_in_thin(cmd->args.v[i]))
			warning("--lto-partial=thin: '%s' does not apply to the "
				"thin archive %s (it takes effect when the "
				"archive is linked)", cmd->args.v[i], cmd->output);
	for (size_t i = 0; i < cmd->ninputs; i++)
		if (cmd->inputs[i].path)
			strvec_push(&members, cmd->inputs[i].path);
	if (!members.n) {
		strvec_clear(&members);
		return error("no input files");
	}
	rc = finish_output(thinar_write(tc, out, members.v), cmd->output);
	strvec_clear(&members);
	return rc;
}

/* --lto-partial, else LTO_LD_PARTIAL, else fat. */
static int partial_mode(const struct ld_cmdline *cmd, enum partial_mode *mode)
{
	*mode = cmd->partial;
	if (*mode == PARTIAL_UNSET && settings.partial_error)
		return error("%s", settings.partial_error);
	if (*mode == PARTIAL_UNSET)
		*mode = settings.partial;
	if (*mode == PARTIAL_UNSET)
		*mode = PARTIAL_FAT;
	return 0;
}

/*
 * Why a fat output cannot carry this ld -r (NULL when it can): a later
 * LTO link claims a file with IR whole, so native code that is not also
 * in the IR would be lost there.
 */
static char *fat_blocker(const struct ld_cmdline *cmd,
			 const struct inputs_info *info)
{
	if (info->ir.first_native)
		return xasprintf("%s holds no GCC IR", info->ir.first_native);
	return non_object_input(cmd, info);
}

/* Fat mode: the merged IR first, then the native object that carries it. */
static int fat_link(const struct ld_cmdline *cmd, struct toolchain *tc,
		    const struct inputs_info *info)
{
	struct plugin_files none = { NULL, NULL };
	char *ir = tmp_file("ir.o");

	if (!ir || run_lto(cmd, tc, info, LINK_IR_REL, ir, &none, NULL))
		return 1;
	return plugin_link(cmd, tc, info, LINK_NATIVE_REL, ir);
}

static int partial_link(const struct ld_cmdline *cmd, struct toolchain *tc,
			const struct inputs_info *info)
{
	enum partial_mode mode;
	char *blocker;

	if (partial_mode(cmd, &mode))
		return 1;
	trace("ld -r with GCC IR: %s mode", partial_mode_name(mode));
	switch (mode) {
	case PARTIAL_THIN:
		blocker = thin_blocker(cmd, info);
		if (!blocker) {
			if (cmd->report)
				warning("%s: no LTO report for a thin ld -r "
					"output (LTO runs when it is linked); "
					"%s not written", cmd->output, cmd->report);
			return thin_link(cmd, tc);
		}
		warning("%s: thin ld -r output is not possible (%s); "
			"running LTO now instead (--lto-partial=native)",
			cmd->output, blocker);
		free(blocker);
		break;
	case PARTIAL_FAT:
		/* whole-program: what it made internal is for no later link */
		if (cmd->whole_program) {
			trace("--lto-whole-program: a native object, no IR");
			break;
		}
		blocker = fat_blocker(cmd, info);
		if (!blocker)
			return fat_link(cmd, tc, info);
		warning("%s: the output cannot carry GCC IR (%s); a later "
			"link sees native code only (--lto-partial=native)",
			cmd->output, blocker);
		free(blocker);
		break;
	case PARTIAL_IR:
		if (info->ir.first_native)
			return error("%s: holds no GCC IR; --lto-partial=ir "
				     "writes one merged IR object, which cannot "
				     "carry native code (use --lto-partial="
				     "native or thin)", info->ir.first_native);
		return plugin_link(cmd, tc, info, LINK_IR_REL, NULL);
	case PARTIAL_NATIVE:
	case PARTIAL_UNSET:
		break;
	}
	return plugin_link(cmd, tc, info, LINK_NATIVE_REL, NULL);
}

/*
 * Become the real tool (ARGV).  Arguments too long for exec go to a
 * response file; then lto-ld waits for ld instead, to remove the file.
 */
static int run_real_tool(struct strvec *argv)
{
	int rc;

	if (strvec_bytes(argv) <= ARGV_INLINE_MAX) {
		run_exec(argv->v, NULL);
		return 1;
	}
	rc = run_fit_argv(argv, 1, "ld-args.rsp");
	if (rc == 0)
		rc = run_wait(argv->v, NULL);
	return rc < 0 ? 1 : rc;
}

/* Append 'OPT' to the gcc driver's COLLECT_GCC_OPTIONS (gcc -B route). */
static int driver_add_option(const char *opt)
{
	const char *opts = getenv("COLLECT_GCC_OPTIONS");
	char *more;
	int rc;

	more = xasprintf("%s%s'%s'", opts, *opts ? " " : "", opt);
	trace("COLLECT_GCC_OPTIONS+='%s'", opt);
	rc = setenv("COLLECT_GCC_OPTIONS", more, 1) ? error("setenv: %s", strerror(errno)) : 0;
	free(more);
	return rc;
}

/*
 * The gcc driver's LTO link (gcc -B route): unless its options already
 * choose (-flto=N, jobserver, auto), LTRANS runs in parallel, as in
 * lto-ld's own links; GCC 12 would compile the partitions one by one.
 * With a cache, the partitions are named as in lto-ld's own links.
 */
static int driver_lto_options(const struct ld_cmdline *cmd)
{
	const char *opts = getenv("COLLECT_GCC_OPTIONS");
	char *jobs_flag;
	int rc = 0;

	if (!opts)
		return 0;
	if (!strstr(opts, "'-flto=")) {
		if (ltrans_jobs(&jobs_flag))
			return 1;
		rc = driver_add_option(jobs_flag);
		free(jobs_flag);
	}
	if (rc == 0 && cmd->cache && !strstr(getenv("COLLECT_GCC_OPTIONS"), "'-frandom-seed="))
		rc = driver_add_option("-frandom-seed=lto-ld");
	return rc;
}

/*
 * The gcc driver's LTO link with a cache: lto-wrapper runs the LTRANS
 * compiles through lto-ld, as in lto-ld's own links.
 */
static int driver_cached_link(const struct ld_cmdline *cmd, struct toolchain *tc,
			      struct strvec *argv)
{
	struct strvec env = STRVEC_INIT, settings = STRVEC_INIT;
	struct cache_link cache = { 0 };
	int rc = 1;

	if (toolchain_find_lto(tc) ||
	    cache_link_begin(&cache, cmd->cache, tc, tc->cc, &settings) ||
	    run_fit_argv(argv, 1, "ld-args.rsp"))
		goto done;
	env_with(&env, settings.v);
	rc = run_wait(argv->v, env.v);
	if (rc == 0)
		cache_link_end(&cache);
done:
	cache_link_free(&cache);
	strvec_clear(&env);
	strvec_clear(&settings);
	return rc < 0 ? 1 : rc;
}

/* Run the real ld with CMD's arguments (lto-ld thin archives wrapped). */
static int plain_link(const struct ld_cmdline *cmd, struct toolchain *tc,
		      const struct inputs_info *info)
{
	struct strvec argv = STRVEC_INIT;
	bool driver_lto = cmd->caller_plugin && info->ir.any_ir;
	int rc;

	if (driver_lto) {
		trace("the caller loaded the LTO plugin: it runs LTO");
		/* (the report is read from lto-ld's plugin, not in this chain) */
		if (cmd->report)
			warning("%s: LTO report not written: in the gcc -B route "
				"the gcc driver's LTO plugin runs LTO, not lto-ld; "
				"lto-ld reports the links it runs LTO for (lto-ld "
				"called directly, ld -r included)", cmd->report);
		if (driver_lto_options(cmd))
			return 1;
	}
	strvec_push(&argv, tc->real_tool);
	push_link_args(&argv, cmd, info, true);
	if (driver_lto && cmd->cache)
		rc = driver_cached_link(cmd, tc, &argv);
	else
		rc = run_real_tool(&argv);
	strvec_clear(&argv);
	return rc;
}

/* No IR: the real ld gets exactly what we got (lto-ld's own options removed). */
static int passthrough(int argc, char **argv, const struct ld_cmdline *cmd,
		       struct toolchain *tc)
{
	struct strvec args = STRVEC_INIT;
	int rc;

	strvec_push(&args, tc->real_tool);
	if (cmd->had_own_options)
		strvec_pushv(&args, cmd->args.v);
	else
		for (int i = 1; i < argc; i++)
			strvec_push(&args, argv[i]);
	rc = run_real_tool(&args);
	strvec_clear(&args);
	return rc;
}

/* --print-cc-plugin: the path for gcc's -fplugin=, or an error. */
static int print_cc_plugin(struct toolchain *tc)
{
	char *path = toolchain_find_cc_plugin(tc, false);

	if (!path)
		return 1;
	printf("%s\n", path);
	free(path);
	return 0;
}

static int version_or_help(const struct ld_cmdline *cmd, struct toolchain *tc)
{
	struct strvec args = STRVEC_INIT;
	int rc;

	/* lto-ld's own options are not ld's: kbuild's ld-option probes with -v */
	if (cmd->help)
		help_print(stdout);
	strvec_push(&args, tc->real_tool);
	strvec_pushv(&args, cmd->args.v);
	fflush(stdout);
	rc = run_wait(args.v, NULL);
	strvec_clear(&args);
	fputs(LTO_LD_VERSION_LINE, stdout);
	return rc;
}

int link_main(int argc, char **argv, struct toolchain *tc)
{
	struct ld_cmdline cmd;
	struct inputs_info info;
	int rc;

	memset(&info, 0, sizeof(info));
	if (ld_parse(argc, argv, &cmd))
		return 1;
	settings_apply(&cmd);
	tmp_keep(cmd.save_temps);
	if (cmd.print_cc_plugin) {
		rc = print_cc_plugin(tc);
		goto out;
	}
	if (cmd.version || cmd.help) {
		rc = version_or_help(&cmd, tc);
		goto out;
	}
	if (cmd.missing_argument) {
		/* an invalid command line: ld's own message says what is wrong */
		trace("%s lacks its argument: running %s unchanged",
		      cmd.missing_argument, tc->real_tool);
		rc = passthrough(argc, argv, &cmd, tc);
		goto out;
	}
	resolve_libraries(&cmd, tc);
	/* (an output that is an input is refused, and left alone) */
	if (check_outputs(&cmd)) {
		rc = 1;
		goto out;
	}
	rc = inputs_scan(&cmd, &info);
	if (rc)
		goto failed;
	if (!info.ir.any_ir && !info.any_lto_ld_thin) {
		trace("no GCC IR in the inputs: running %s unchanged",
		      tc->real_tool);
		rc = passthrough(argc, argv, &cmd, tc);
	} else if (!info.ir.any_ir || cmd.caller_plugin) {
		/* The gcc driver already loaded the plugin (gcc -B route). */
		rc = plain_link(&cmd, tc, &info);
	} else if (toolchain_find_lto(tc) || inputs_check_ir_machines(&info, tc) ||
		   inputs_check_ir_versions(&info, tc)) {
		rc = 1;
	} else if (cmd.relocatable) {
		rc = partial_link(&cmd, tc, &info);
	} else {
		rc = plugin_link(&cmd, tc, &info, LINK_FINAL, NULL);
	}
failed:
	if (rc != 0)
		remove_failed_output(cmd.output);
out:
	inputs_free(&info);
	ld_cmdline_free(&cmd);
	return rc;
}
