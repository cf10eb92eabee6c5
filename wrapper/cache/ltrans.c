/* The LTRANS compiles lto-wrapper runs through lto-ld, and their log. */
#include "ltrans.h"
#include "key.h"
#include "store.h"
#include "../asmdeps.h"
#include "../ldopts.h"
#include "io.h"
#include "run.h"
#include "strvec.h"
#include "tmp.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The parts of one LTRANS command line the key needs. */
struct ltrans_cmd {
	const char *output;	/* -o */
	int input;		/* the partition: argv[input] */
};

/* An LTRANS compile: -fltrans, one -o, the partition last, no @file. */
static bool parse_ltrans(int argc, char **argv, struct ltrans_cmd *cmd)
{
	bool ltrans = false;

	cmd->output = NULL;
	cmd->input = argc - 1;
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '@')
			return false;
		if (!strcmp(argv[i], "-fltrans"))
			ltrans = true;
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			cmd->output = argv[++i];
	}
	return ltrans && cmd->output && argc > 2 && argv[cmd->input][0] != '-' &&
	       argv[cmd->input] != cmd->output;
}

static int ltrans_key(int argc, char **argv, const struct ltrans_cmd *cmd,
		      unsigned char key[SHA256_LEN])
{
	const char *tmpdir = env_value("TMPDIR"), *compiler = env_value(ENV_COMPILER);
	char cwd[PATH_MAX];
	struct sha256 h;

	if (!getcwd(cwd, sizeof(cwd)))
		return -1;
	sha256_init(&h);
	key_text(&h, "lto-ld LTRANS 2");
	key_text(&h, compiler ? compiler : "");
	key_text(&h, cwd);
	for (int i = 1; i < argc; i++) {
		int skip = key_temporary_names(argv, (size_t)argc, (size_t)i, tmpdir);

		if (skip) {
			i += skip - 1;
			continue;
		}
		if (i == cmd->input)
			continue;
		key_text(&h, argv[i]);
		if (key_option_file(&h, argv[i]))
			return -1;
	}
	if (key_object(&h, argv[cmd->input], tmpdir))
		return -1;
	sha256_final(&h, key);
	return 0;
}

/* Lines for the link's log (O_APPEND: compiles run side by side). */
static void log_text(const char *text)
{
	const char *path = env_value(ENV_LOG);
	int fd;

	if (!path)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	(void)write_full(fd, text, strlen(text));	/* a lost line loses a count */
	close(fd);
}

/* One line in the link's log: WHAT, then DETAIL (NULL: none). */
static void log_line(const char *what, const char *detail)
{
	char *line = xasprintf("%s%s%s\n", what, detail ? " " : "", detail ? detail : "");

	/* (one line each: a newline in DETAIL would start another) */
	for (char *p = line; p[1]; p++)
		if (*p == '\n')
			*p = ' ';
	log_text(line);
	free(line);
}

/*
 * The files the assembler read for this LTRANS object, DEPS (asmdeps.h),
 * for the link: its cache keeps them with the link's outputs.
 */
static void log_deps(const char *deps)
{
	for (const char *p = deps, *nl; (nl = strchr(p, '\n')); p = nl + 1) {
		char *line = xstrndup(p, (size_t)(nl - p));

		log_line("dep", line);
		free(line);
	}
}

void ltrans_log_read(const char *path, struct ltrans_log *log)
{
	char *text = read_text_file(path, NULL), *line, *save = NULL;

	memset(log, 0, sizeof(*log));
	strvec_init(&log->deps);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, "hit"))
			log->hits++;
		else if (!strcmp(line, "miss"))
			log->misses++;
		else if (starts_with(line, "corrupt "))
			log->corrupt++;
		else if (starts_with(line, "dep "))
			strvec_push(&log->deps, line + strlen("dep "));
		else if (starts_with(line, "stale "))
			log->stale++;
		else if (starts_with(line, "uncached ") && !log->uncached)
			log->uncached = xstrdup(line + strlen("uncached "));
		/* (each counted, the first one's reason kept) */
		else if (starts_with(line, "unstored ") && !log->stores_failed++)
			log->unstored = xstrdup(line + strlen("unstored "));
	}
	free(text);
}

void ltrans_log_free(struct ltrans_log *log)
{
	strvec_clear(&log->deps);
	free(log->uncached);
	free(log->unstored);
	memset(log, 0, sizeof(*log));
}

/* ---- what lto-wrapper runs ---- */

bool cache_ltrans_requested(void)
{
	return env_value(ENV_CC) != NULL;
}

/* -fwpa, or -fwpa=N (WPA streams its partitions out in N processes) */
static bool is_wpa_option(const char *arg)
{
	return !strcmp(arg, "-fwpa") || starts_with(arg, "-fwpa=");
}

/* Is ARGV (lto-wrapper puts it in an @file) a WPA step? */
static bool is_wpa(int argc, char **argv)
{
	bool wpa = false;

	for (int i = 1; i < argc && !wpa; i++) {
		struct strvec args = STRVEC_INIT;
		char *text;

		wpa = is_wpa_option(argv[i]);
		if (argv[i][0] != '@' || !(text = read_file(argv[i] + 1, NULL)))
			continue;
		ld_split_response(text, &args);
		for (size_t j = 0; j < args.n && !wpa; j++)
			wpa = is_wpa_option(args.v[j]);
		strvec_clear(&args);
		free(text);
	}
	return wpa;
}

/*
 * Run the LTRANS compile ARGV (the partition at INPUT) with the
 * assembler listing the files it read, and record them (*DEPS,
 * asmdeps.h).  The exit status; *DEPS is NULL after a failure, and when
 * the list cannot be had (*WHY says why: the object must not be kept).
 */
static int compile_listing_deps(int argc, char **argv, int input,
				char **deps, char **why)
{
	const char *own_tmp = tmp_dir();
	char *depfile = own_tmp ? tmp_file("as-deps.d") : NULL;
	struct strvec args = STRVEC_INIT, settings = STRVEC_INIT, env = STRVEC_INIT;
	struct strvec dirs = STRVEC_INIT, read = STRVEC_INIT, absent = STRVEC_INIT;
	/* temporary files, the assembler's input among them: not part of the list */
	const char *skip[] = { own_tmp, env_value(ENV_TMP), NULL };
	struct timespec start;
	int rc;

	*deps = NULL;
	*why = NULL;
	if (!depfile || strchr(depfile, ',')) {
		*why = xstrdup("no temporary file for the assembler's list of files");
		return run_wait(argv, NULL);
	}
	for (int i = 0; i < argc; i++) {
		if (i == input)
			strvec_pushf(&args, "-Wa,--MD,%s", depfile);
		strvec_push(&args, argv[i]);
	}
	/* the driver's own files (the assembler's input) go where the list leaves them out */
	strvec_pushf(&settings, "TMPDIR=%s", own_tmp);
	env_with(&env, settings.v);
	asmdeps_now(&start);
	rc = run_wait(args.v, env.v);
	if (rc == 0) {
		asmdeps_include_dirs(argv, &dirs);
		if (asmdeps_read(depfile, (char *const *)skip, dirs.v, &read, &absent) != 0)
			*why = xasprintf("%s: the assembler's list of the files it "
					 "read: %s", depfile, strerror(errno));
		else
			asmdeps_record(read.v, absent.v, &start, deps, why);
	}
	strvec_clear(&args);
	strvec_clear(&settings);
	strvec_clear(&env);
	strvec_clear(&dirs);
	strvec_clear(&read);
	strvec_clear(&absent);
	return rc;
}

int cache_ltrans_main(int argc, char **argv)
{
	const char *dir = env_value(ENV_DIR);
	char *cc = xstrdup(env_value(ENV_CC)), *entry, *deps, *why;
	unsigned char key[SHA256_LEN];
	struct ltrans_cmd cmd;
	int rc;

	argv[0] = cc;
	/* (gcc and what it runs are not lto-ld's LTRANS steps) */
	unsetenv(ENV_CC);
	if (!dir || !parse_ltrans(argc, argv, &cmd)) {
		/* WPA reads IR only; another compile may read any file */
		if (!is_wpa(argc, argv))
			log_line("uncached", "an LTO compile that is not an LTRANS step");
		run_exec(argv, NULL);
		return 1;
	}
	if (ltrans_key(argc, argv, &cmd, key) != 0) {
		log_line("uncached", argv[cmd.input]);
		run_exec(argv, NULL);
		return 1;
	}
	entry = entry_path(dir, key);
	switch (entry_fetch(entry, key, cmd.output, &deps, &why)) {
	case FETCH_HIT:
		log_deps(deps);
		log_line("hit", NULL);
		free(deps);
		free(entry);
		return 0;
	case FETCH_STALE:
		/* (said here, where it happens: also when the link then fails) */
		trace("LTO cache %s: %s: compiling the partition again", dir, why);
		log_line("stale", why);
		free(why);
		break;
	case FETCH_CORRUPT:
		log_line("corrupt", entry);
		break;
	case FETCH_MISS:
		break;
	}
	rc = compile_listing_deps(argc, argv, cmd.input, &deps, &why);
	if (rc == 0) {
		log_line("miss", NULL);
		if (!deps)
			log_line("uncached", why);
		else if (entry_store(entry, key, deps, cmd.output) != 0)
			log_line("unstored", strerror(errno));
		if (deps)
			log_deps(deps);
	}
	free(deps);
	free(why);
	free(entry);
	tmp_cleanup();
	return rc < 0 ? 1 : rc;
}
