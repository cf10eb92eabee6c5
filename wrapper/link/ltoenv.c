/* lto-wrapper's environment: COLLECT_GCC_OPTIONS, LTRANS jobs, jobserver. */
#include "ltoenv.h"
#include "../inputs.h"
#include "../ldopts.h"
#include "../settings.h"
#include "../toolchain.h"
#include "strvec.h"
#include "tmp.h"
#include "util.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* GCC's lto-min-partition (insns) for a whole-program ld -r */
#define WHOLE_PROGRAM_MIN_PARTITION "2000"

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
char *ltoenv_makeflags_without_jobserver(void)
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
int ltoenv_jobs(char **flag)
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

/*
 * -pg is not an option lto-wrapper takes from its inputs (neither a
 * target nor an optimization option): GCC 12 compiles the LTRANS code
 * of objects built with -pg without it, so they call no __fentry__ or
 * mcount (an LTO kernel has no ftrace).  So -pg goes to the LTO step
 * when an IR input was compiled with it (cc1 is given -p for the
 * driver's -pg, and the record says -p).  Units compiled without it
 * stay uninstrumented: GCC marks their functions no_instrument_function
 * as it compiles them, and the IR keeps the mark.
 */
static bool inputs_profiled(const struct inputs_info *info)
{
	static const char *const profiling[] = { "-p", "-pg", NULL };

	return inputs_ir_compiled_with(info, profiling);
}

/*
 * All the IR is for x86, whose calls and jumps take a 32-bit displacement:
 * they reach across any kernel, wherever its code lands.
 */
static bool ir_branches_reach_anywhere(const struct inputs_info *info)
{
	for (int i = 0; i < info->ir.n_ir_machines; i++)
		if (info->ir.ir_machine[i] != EM_386 &&
		    info->ir.ir_machine[i] != EM_X86_64)
			return false;
	return info->ir.n_ir_machines > 0;
}

char *ltoenv_collect_gcc_options(const struct ld_cmdline *cmd,
				 struct toolchain *tc,
				 const struct inputs_info *info,
				 const char *jobs_flag, enum link_kind kind)
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
	/*
	 * A whole-program ld -r puts the code of all its IR in the place of
	 * one input, ahead of the native code around it (a kernel's asm):
	 * branches between native objects then cross all of it.  A section
	 * per LTRANS function keeps the native code together in .text, ahead
	 * of the functions, as the final link places it (a Thumb-2 kernel's
	 * conditional branches reach +-1 MiB).  x86's branches reach, and
	 * there the 100,000 sections a kernel's vmlinux.o would get cost
	 * objtool twice the time and memory (measured on x86_64_defconfig:
	 * 12.0 s, 2,063 MiB against 6.4 s, 827 MiB).  -fno-function-sections
	 * in the LTO flags comes later and wins.
	 */
	if (kind == LINK_NATIVE_REL && cmd->whole_program &&
	    !ir_branches_reach_anywhere(info))
		add_collect_option(&opts, "-ffunction-sections");
	if (inputs_profiled(info)) {
		trace("an IR input was compiled with -pg: so is its LTRANS code");
		add_collect_option(&opts, "-pg");
	}
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
