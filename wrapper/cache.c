/*
 * The LTRANS cache.  An entry is one LTRANS object, filed under the
 * SHA-256 of what the compile read:
 *   - the partition, section by section (names, types, flags, contents),
 *     with the temporary paths of its option record taken out: GCC 12
 *     writes WPA's own -fltrans-output-list there;
 *   - the options, but for the input, -o, -dumpbase and -dumpdir and
 *     anything naming lto-ld's temporary directory;
 *   - the contents of every file an option names (-fplugin=...);
 *   - the working directory (debug information names it);
 *   - the compiler: its version, and the path, size and time of gcc,
 *     lto-wrapper and lto1 (and of lto-ld), and the variables gcc reads
 *     that may change the code (GCC_EXEC_PREFIX, COMPILER_PATH...), read
 *     once per link by the lto-ld that links.
 * What the assembler reads besides (.incbin, .include: the IR only names
 * those files) cannot be known before the compile: the entry keeps the
 * list the assembler wrote (asmdeps.h), and is a hit only while every
 * file on it holds what it held.
 * The entry file is a header (magic, key, the lengths of the list and of
 * the object, the SHA-256 of both), the list and the object.  It is
 * written to a temporary file and renamed, so that links sharing a cache
 * only see whole entries; one that is truncated, corrupt or not ours is
 * removed and compiled again.
 */
#include "cache.h"
#include "asmdeps.h"
#include "io.h"
#include "ldopts.h"
#include "progs.h"
#include "run.h"
#include "scan.h"
#include "settings.h"
#include "sha256.h"
#include "strvec.h"
#include "tmp.h"
#include "toolchain.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Set by the linking lto-ld for what lto-wrapper runs as COLLECT_GCC. */
#define ENV_CC "LTO_LD_LTRANS_CC"		/* the real gcc */
#define ENV_DIR "LTO_LD_LTRANS_CACHE"		/* the cache */
#define ENV_COMPILER "LTO_LD_LTRANS_COMPILER"	/* the compiler's identity */
#define ENV_LOG "LTO_LD_LTRANS_LOG"		/* where each compile says what it did */

#define ENTRY_MAGIC "lto-ld\2\0"
/* magic, key, the lengths of the file list and of the object, their SHA-256 */
#define ENTRY_HEADER (8 + SHA256_LEN + 8 + 8 + SHA256_LEN)
/* More than this in an entry's list of the assembler's files: not ours. */
#define DEPS_MAX ((uint64_t)1 << 24)
#define DEFAULT_SIZE ((uint64_t)1 << 30)
/* A temporary entry this old was left by a killed compile. */
#define STALE_TEMP_SECONDS 3600

/* ---- the key ---- */

static void hash_text(struct sha256 *h, const char *s)
{
	sha256_update(h, s, strlen(s) + 1);
}

static void hash_number(struct sha256 *h, uint64_t v)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	sha256_update(h, b, sizeof(b));
}

/*
 * How many of the options from ARGS[I] on name this link's temporary
 * files rather than say how to compile (0: none): -o, -dumpbase and
 * -dumpdir with their arguments, WPA's -fltrans-output-list and
 * -fresolution, and anything in TMPDIR.
 */
static int temporary_names(char *const *args, size_t n, size_t i,
			   const char *tmpdir)
{
	const char *a = args[i];

	if (!strcmp(a, "-o") || !strcmp(a, "-dumpbase") || !strcmp(a, "-dumpdir"))
		return i + 1 < n ? 2 : 1;
	if (starts_with(a, "-fltrans-output-list=") || starts_with(a, "-fresolution=") ||
	    (tmpdir && strstr(a, tmpdir)))
		return 1;
	return 0;
}

/*
 * GCC's option record ('-O2' '-fplugin=...' ...) as the options it
 * holds, quotes removed, those naming temporary files left out.
 */
static void hash_options_record(struct sha256 *h, const char *text, size_t len,
				const char *tmpdir)
{
	struct strvec opts = STRVEC_INIT;
	size_t start = 0;
	bool quoted = false;

	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] == '\'')
			quoted = !quoted;
		if (i < len && (quoted || text[i] != ' '))
			continue;
		if (i > start) {
			size_t from = start, to = i;

			if (to - from >= 2 && text[from] == '\'' && text[to - 1] == '\'') {
				from++;
				to--;
			}
			strvec_push_nodup(&opts, xstrndup(text + from, to - from));
		}
		start = i + 1;
	}
	for (size_t i = 0; i < opts.n;) {
		int skip = temporary_names(opts.v, opts.n, i, tmpdir);

		if (!skip)
			hash_text(h, opts.v[i]);
		i += skip ? (size_t)skip : 1;
	}
	strvec_clear(&opts);
}

struct partition_hash {
	struct sha256 *h;
	int fd;
	const char *tmpdir;
};

#define OPTIONS_SECTION ".gnu.lto_.opts"
#define OPTIONS_MAX (1 << 20)

/*
 * GCC names IR sections with a random number (the seed) after a dot:
 * the same IR compiled twice differs only there, so it is left out.
 */
static void hash_section_name(struct sha256 *h, const char *name)
{
	const char *dot = strrchr(name, '.');
	size_t len = strlen(name);

	if (starts_with(name, ".gnu.lto_") && dot && dot[1] &&
	    strspn(dot + 1, "0123456789abcdef") == strlen(dot + 1))
		len = (size_t)(dot - name);
	sha256_update(h, name, len);
	sha256_update(h, "", 1);
}

static int hash_section(const struct scan_section *sec, void *data)
{
	struct partition_hash *p = data;
	char *text;
	bool got;

	hash_section_name(p->h, sec->name);
	hash_number(p->h, sec->type);
	hash_number(p->h, sec->flags);
	/* (the section names themselves: each is hashed above, as it reads) */
	if (!strcmp(sec->name, ".shstrtab"))
		return 0;
	if (sec->type == 8)	/* SHT_NOBITS: a size, no bytes */
		return hash_number(p->h, sec->size), 0;
	if (strcmp(sec->name, OPTIONS_SECTION) || sec->size > OPTIONS_MAX) {
		hash_number(p->h, sec->size);
		return sha256_update_fd(p->h, p->fd, sec->offset, sec->size);
	}
	text = xmalloc((size_t)sec->size + 1);
	got = pread_full(p->fd, text, (size_t)sec->size, (off_t)sec->offset);
	if (got)
		hash_options_record(p->h, text, strnlen(text, (size_t)sec->size),
				    p->tmpdir);
	free(text);
	return got ? 0 : -1;
}

/* An ELF object by its sections (see hash_section). */
static int hash_object(struct sha256 *h, const char *path, const char *tmpdir)
{
	struct partition_hash p = { h, open(path, O_RDONLY | O_CLOEXEC), tmpdir };
	int rc;

	if (p.fd < 0)
		return -1;
	rc = scan_sections(path, hash_section, &p);
	close(p.fd);
	return rc;
}

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

/*
 * The file an option names after its last '=' (-fplugin=P, a plugin's
 * argument), by its contents: the compile may read it.  -1 when a
 * plugin cannot be read.
 */
static int hash_option_file(struct sha256 *h, const char *option)
{
	const char *eq = strrchr(option, '=');
	struct stat st;

	if (!eq || stat(eq + 1, &st) != 0 || !S_ISREG(st.st_mode))
		return starts_with(option, "-fplugin=") ? -1 : 0;
	return sha256_update_file(h, eq + 1);
}

static int ltrans_key(int argc, char **argv, const struct ltrans_cmd *cmd,
		      unsigned char key[SHA256_LEN])
{
	const char *tmpdir = getenv("TMPDIR"), *compiler = getenv(ENV_COMPILER);
	char cwd[PATH_MAX];
	struct sha256 h;

	if (tmpdir && !*tmpdir)
		tmpdir = NULL;
	if (!getcwd(cwd, sizeof(cwd)))
		return -1;
	sha256_init(&h);
	hash_text(&h, "lto-ld LTRANS 2");
	hash_text(&h, compiler ? compiler : "");
	hash_text(&h, cwd);
	for (int i = 1; i < argc; i++) {
		int skip = temporary_names(argv, (size_t)argc, (size_t)i, tmpdir);

		if (skip) {
			i += skip - 1;
			continue;
		}
		if (i == cmd->input)
			continue;
		hash_text(&h, argv[i]);
		if (hash_option_file(&h, argv[i]))
			return -1;
	}
	if (hash_object(&h, argv[cmd->input], tmpdir))
		return -1;
	sha256_final(&h, key);
	return 0;
}

/* ---- entries ---- */

static void put_u64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static bool write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t done = write(fd, p, len);

		if (done < 0 && errno == EINTR)
			continue;
		if (done <= 0)
			return false;
		p += done;
		len -= (size_t)done;
	}
	return true;
}

/*
 * Copy LEN bytes from IN (at its position) to OUT, hashing them into H.
 * False on a read or write error (errno set) or a short file.
 */
static bool copy_hashed(int in, int out, uint64_t len, struct sha256 *h)
{
	unsigned char buf[65536];

	while (len > 0) {
		size_t want = len < sizeof(buf) ? (size_t)len : sizeof(buf);
		ssize_t got = read(in, buf, want);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got == 0)
				errno = EIO;
			return false;
		}
		if (!write_all(out, buf, (size_t)got))
			return false;
		sha256_update(h, buf, (size_t)got);
		len -= (uint64_t)got;
	}
	return true;
}

enum fetch { FETCH_MISS, FETCH_HIT, FETCH_CORRUPT, FETCH_STALE };

/*
 * The entry's list of the files the assembler read (asmdeps.h), LEN
 * bytes at IN's position, hashed into H, into *DEPS; false when they
 * are not all there.
 */
static bool read_deps(int in, uint64_t len, struct sha256 *h, char **deps)
{
	*deps = xmalloc((size_t)len + 1);
	if (!pread_full(in, *deps, (size_t)len, ENTRY_HEADER)) {
		free(*deps);
		*deps = NULL;
		return false;
	}
	(*deps)[len] = '\0';
	sha256_update(h, *deps, (size_t)len);
	return lseek(in, (off_t)(ENTRY_HEADER + len), SEEK_SET) >= 0;
}

/*
 * Write the object of ENTRY (under KEY) to OUTPUT, checking it on the
 * way, when the files the assembler read for it still hold what they
 * held.  *DEPS gets their list on a hit (malloc'd), *WHY (malloc'd) the
 * file that changed for FETCH_STALE.
 */
static enum fetch fetch_entry(const char *entry, const unsigned char *key,
			      const char *output, char **deps, char **why)
{
	unsigned char header[ENTRY_HEADER], digest[SHA256_LEN];
	uint64_t deps_len = 0, object_len = 0;
	struct sha256 h;
	struct stat st;
	int in = open(entry, O_RDONLY | O_CLOEXEC), out;
	bool ok;

	*deps = NULL;
	*why = NULL;
	if (in < 0)
		return FETCH_MISS;
	ok = fstat(in, &st) == 0 && st.st_size >= ENTRY_HEADER &&
	     pread_full(in, header, sizeof(header), 0) &&
	     !memcmp(header, ENTRY_MAGIC, 8) &&
	     !memcmp(header + 8, key, SHA256_LEN);
	if (ok) {
		deps_len = get_u64(header + 8 + SHA256_LEN);
		object_len = get_u64(header + 16 + SHA256_LEN);
		ok = deps_len <= DEPS_MAX &&
		     object_len == (uint64_t)st.st_size - ENTRY_HEADER - deps_len;
	}
	sha256_init(&h);
	if (!ok || !read_deps(in, deps_len, &h, deps)) {
		close(in);
		unlink(entry);
		return FETCH_CORRUPT;
	}
	*why = asmdeps_check(*deps, (size_t)deps_len);
	if (*why) {
		close(in);
		free(*deps);
		*deps = NULL;
		return FETCH_STALE;	/* (the next store replaces it) */
	}
	out = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	ok = out >= 0 && copy_hashed(in, out, object_len, &h);
	sha256_final(&h, digest);
	ok = ok && !memcmp(digest, header + ENTRY_HEADER - SHA256_LEN, SHA256_LEN) &&
	     fchmod(out, st.st_mode & 0777) == 0;
	close(in);
	if (out >= 0 && close(out) != 0)
		ok = false;
	if (!ok) {
		unlink(output);
		unlink(entry);
		free(*deps);
		*deps = NULL;
		return FETCH_CORRUPT;
	}
	utimensat(AT_FDCWD, entry, NULL, 0);	/* used now: evicted last */
	return FETCH_HIT;
}

/*
 * An entry's mode: its object's (an executable stays one), within the
 * umask, never world-writable.
 */
static mode_t entry_mode(mode_t object_mode)
{
	mode_t mask = umask(0);

	umask(mask);
	return object_mode & 0777 & ~mask & ~(mode_t)S_IWOTH;
}

/*
 * Store OBJECT as ENTRY, with DEPS, the list of the files the assembler
 * read for it.  0, or -1 with errno set.
 */
static int store_entry(const char *entry, const unsigned char *key,
		       const char *deps, const char *object)
{
	unsigned char header[ENTRY_HEADER] = { 0 }, digest[SHA256_LEN];
	char *dir = dir_name(entry), *temp = xasprintf("%s.tmp-XXXXXX", entry);
	size_t deps_len = strlen(deps);
	struct sha256 h;
	struct stat st;
	int in = -1, out = -1, saved, rc = -1;

	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		goto done;
	in = open(object, O_RDONLY | O_CLOEXEC);
	if (in < 0 || fstat(in, &st) != 0)
		goto done;
	out = mkstemp(temp);
	if (out < 0)
		goto done;
	memcpy(header, ENTRY_MAGIC, 8);
	memcpy(header + 8, key, SHA256_LEN);
	put_u64(header + 8 + SHA256_LEN, (uint64_t)deps_len);
	put_u64(header + 16 + SHA256_LEN, (uint64_t)st.st_size);
	sha256_init(&h);
	sha256_update(&h, deps, deps_len);
	if (fchmod(out, entry_mode(st.st_mode)) != 0 ||
	    !write_all(out, header, sizeof(header)) ||
	    !write_all(out, deps, deps_len) ||
	    !copy_hashed(in, out, (uint64_t)st.st_size, &h))
		goto done;
	sha256_final(&h, digest);
	if (pwrite(out, digest, SHA256_LEN, ENTRY_HEADER - SHA256_LEN) != SHA256_LEN)
		goto done;
	if (close(out) != 0) {
		out = -1;
		goto done;
	}
	out = -1;
	if (rename(temp, entry) == 0)
		rc = 0;
done:
	saved = errno;
	if (out >= 0)
		close(out);
	if (in >= 0)
		close(in);
	if (rc != 0)
		unlink(temp);
	free(temp);
	free(dir);
	errno = saved;
	return rc;
}

static char *entry_path(const char *dir, const unsigned char key[SHA256_LEN])
{
	char hex[SHA256_HEX_LEN + 1];

	sha256_hex(key, hex);
	return xasprintf("%s/%.2s/%s", dir, hex, hex + 2);
}

/* Lines for the link's log (O_APPEND: compiles run side by side). */
static void log_text(const char *text)
{
	const char *path = getenv(ENV_LOG);
	int fd;

	if (!path || !*path)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	(void)write_all(fd, text, strlen(text));	/* a lost line loses a count */
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
	char *text = xstrdup(""), *more;

	for (const char *p = deps, *nl; (nl = strchr(p, '\n')); p = nl + 1) {
		more = xasprintf("%sdep %.*s\n", text, (int)(nl - p), p);
		free(text);
		text = more;
	}
	log_text(text);
	free(text);
}

/* ---- what lto-wrapper runs ---- */

bool cache_ltrans_requested(void)
{
	const char *cc = getenv(ENV_CC);

	return cc && *cc;
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
		if (asmdeps_read(depfile, own_tmp, dirs.v, &read, &absent) != 0)
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
	const char *dir = getenv(ENV_DIR);
	char *cc = xstrdup(getenv(ENV_CC)), *entry, *deps, *why;
	unsigned char key[SHA256_LEN];
	struct ltrans_cmd cmd;
	int rc;

	argv[0] = cc;
	/* (gcc and what it runs are not lto-ld's LTRANS steps) */
	unsetenv(ENV_CC);
	if (!dir || !*dir || !parse_ltrans(argc, argv, &cmd)) {
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
	switch (fetch_entry(entry, key, cmd.output, &deps, &why)) {
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
		else if (store_entry(entry, key, deps, cmd.output) != 0)
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

/* ---- the linking lto-ld ---- */

/* Path, size and time of PATH, or that it is missing. */
static void hash_program(struct sha256 *h, const char *path)
{
	struct stat st;

	hash_text(h, path ? path : "");
	if (!path || stat(path, &st) != 0)
		return;
	hash_number(h, (uint64_t)st.st_size);
	hash_number(h, (uint64_t)st.st_mtim.tv_sec);
	hash_number(h, (uint64_t)st.st_mtim.tv_nsec);
}

static const char *const gcc_environment[] = {
	"GCC_EXEC_PREFIX", "COMPILER_PATH", "LIBRARY_PATH", "GCC_COMPARE_DEBUG",
	"SOURCE_DATE_EPOCH",
};

/*
 * The identity of the compiler LTRANS runs (and its environment) and of
 * lto-ld itself (SELF), as hex.
 */
static char *compiler_identity(struct toolchain *tc, const char *cc,
			       const char *self)
{
	char *lto1 = NULL, *wrapper_dir, hex[SHA256_HEX_LEN + 1];
	unsigned char digest[SHA256_LEN];
	struct sha256 h;

	sha256_init(&h);
	hash_number(&h, (uint64_t)toolchain_gcc_major(tc));
	hash_text(&h, toolchain_machine(tc) ? toolchain_machine(tc) : "");
	hash_program(&h, self);
	hash_program(&h, cc);
	hash_program(&h, tc->lto_wrapper);
	if (tc->lto_wrapper) {
		/* lto1 sits beside lto-wrapper */
		wrapper_dir = dir_name(tc->lto_wrapper);
		lto1 = path_join(wrapper_dir, "lto1");
		free(wrapper_dir);
	}
	hash_program(&h, lto1);
	free(lto1);
	/* what gcc itself reads from the environment and may change the code */
	for (size_t i = 0; i < sizeof(gcc_environment) / sizeof(gcc_environment[0]); i++) {
		const char *value = getenv(gcc_environment[i]);

		hash_text(&h, gcc_environment[i]);
		hash_text(&h, value ? value : "\x01unset");
	}
	sha256_final(&h, digest);
	sha256_hex(digest, hex);
	return xstrdup(hex);
}

static int make_dirs(const char *path)
{
	char *copy = xstrdup(path);
	int rc = 0;

	for (char *p = copy + 1; *p && rc == 0; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0777) != 0 && errno != EEXIST)
			rc = -1;
		*p = '/';
	}
	if (rc == 0 && mkdir(copy, 0777) != 0 && errno != EEXIST)
		rc = -1;
	free(copy);
	return rc;
}

/* DIR takes new files: create one and remove it.  0, or -1 with errno. */
static int check_writable(const char *dir)
{
	char *probe = xasprintf("%s/.probe-XXXXXX", dir);
	int fd, rc = -1;

	if (make_dirs(dir) == 0 && (fd = mkstemp(probe)) >= 0) {
		close(fd);
		unlink(probe);
		rc = 0;
	}
	free(probe);
	return rc;
}

static int create_empty(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		return error("%s: %s", path, strerror(errno));
	close(fd);
	return 0;
}

static char *self_path(void)
{
	char buf[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (len <= 0)
		return NULL;
	buf[len] = '\0';
	return xstrdup(buf);
}

int cache_link_begin(struct cache_link *link, const char *dir,
		     struct toolchain *tc, const char *cc,
		     struct strvec *settings)
{
	char *self, *real_cc, *identity, *log;

	memset(link, 0, sizeof(*link));
	if (!dir || !*dir)
		return 0;
	if (check_writable(dir) != 0) {
		warning("LTO cache %s: %s: linking without the cache", dir,
			strerror(errno));
		return 0;
	}
	self = self_path();
	real_cc = find_program(cc);
	if (!self || !real_cc) {
		warning("LTO cache %s: %s not found: linking without the cache",
			dir, self ? cc : "lto-ld itself");
		free(self);
		free(real_cc);
		return 0;
	}
	log = tmp_file("ltrans-cache.log");
	if (!log || create_empty(log) != 0) {
		free(self);
		free(real_cc);
		return 1;
	}
	identity = compiler_identity(tc, real_cc, self);
	link->dir = xstrdup(dir);
	link->log = log;
	link->compiler = xstrdup(identity);
	strvec_pushf(settings, "COLLECT_GCC=%s", self);
	strvec_pushf(settings, ENV_CC "=%s", real_cc);
	strvec_pushf(settings, ENV_DIR "=%s", dir);
	strvec_pushf(settings, ENV_COMPILER "=%s", identity);
	strvec_pushf(settings, ENV_LOG "=%s", log);
	free(identity);
	free(real_cc);
	free(self);
	return 0;
}

/* ---- keeping the cache within its size ---- */

struct cached_file {
	char *path;
	off_t size;
	struct timespec used;	/* its time: written, or last hit */
};

static int by_use(const void *a, const void *b)
{
	const struct timespec *x = &((const struct cached_file *)a)->used;
	const struct timespec *y = &((const struct cached_file *)b)->used;

	if (x->tv_sec != y->tv_sec)
		return x->tv_sec < y->tv_sec ? -1 : 1;
	return (x->tv_nsec > y->tv_nsec) - (x->tv_nsec < y->tv_nsec);
}

static uint64_t size_limit(void)
{
	if (settings.cache_size_error) {
		warning("%s: using 1G", settings.cache_size_error);
		return DEFAULT_SIZE;
	}
	return settings.cache_size ? settings.cache_size : DEFAULT_SIZE;
}

/* Every entry under DIR (the two-digit folders), temporary ones left by killed compiles removed. */
static void list_entries(const char *dir, struct cached_file **files, size_t *n,
			 uint64_t *total)
{
	DIR *top = opendir(dir), *sub;
	struct dirent *d, *e;
	size_t cap = 0;
	time_t now = time(NULL);

	while (top && (d = readdir(top))) {
		char *subdir;

		if (strlen(d->d_name) != 2 || d->d_name[0] == '.')
			continue;
		subdir = path_join(dir, d->d_name);
		sub = opendir(subdir);
		while (sub && (e = readdir(sub))) {
			char *path = path_join(subdir, e->d_name);
			struct stat st;

			if (e->d_name[0] == '.' || lstat(path, &st) != 0 ||
			    !S_ISREG(st.st_mode)) {
				free(path);
				continue;
			}
			if (strstr(e->d_name, ".tmp-")) {
				if (now - st.st_mtime > STALE_TEMP_SECONDS)
					unlink(path);
				free(path);
				continue;
			}
			ALLOC_GROW(*files, *n, cap);
			(*files)[(*n)++] = (struct cached_file){ path, st.st_size, st.st_mtim };
			*total += (uint64_t)st.st_size;
		}
		if (sub)
			closedir(sub);
		free(subdir);
	}
	if (top)
		closedir(top);
}

static void trim(const char *dir)
{
	uint64_t limit = size_limit(), total = 0;
	struct cached_file *files = NULL;
	size_t n = 0, removed = 0;

	list_entries(dir, &files, &n, &total);
	if (total > limit) {
		qsort(files, n, sizeof(*files), by_use);
		for (size_t i = 0; i < n && total > limit; i++) {
			if (unlink(files[i].path) == 0) {
				total -= (uint64_t)files[i].size;
				removed++;
			}
		}
		trace("LTO cache %s: %zu entries removed, %llu bytes kept", dir,
		      removed, (unsigned long long)total);
	}
	for (size_t i = 0; i < n; i++)
		free(files[i].path);
	free(files);
}

/* Sort "SUM PATH" lines by path, then sum. */
static int by_path(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int c = strcmp(x + SHA256_HEX_LEN + 1, y + SHA256_HEX_LEN + 1);

	return c ? c : strcmp(x, y);
}

/*
 * The link's list of the files the assembler read (asmdeps.h): every
 * LTRANS step's, each file once, into LINK->deps; or why it cannot be
 * had into LINK->deps_unknown: a file two steps saw with different
 * contents (it changed during the link).
 */
static void join_deps(struct cache_link *link, struct strvec *lines)
{
	char *text = xstrdup(""), *more;

	qsort(lines->v, lines->n, sizeof(*lines->v), by_path);
	for (size_t i = 0; i < lines->n; i++) {
		const char *line = lines->v[i];

		if (strlen(line) < SHA256_HEX_LEN + 2 || line[SHA256_HEX_LEN] != ' ') {
			link->deps_unknown = xstrdup("a malformed line in the LTRANS log");
			break;
		}
		if (i > 0 && !by_path(&lines->v[i - 1], &lines->v[i]))
			continue;
		if (i > 0 && !strcmp(lines->v[i - 1] + SHA256_HEX_LEN + 1,
				     line + SHA256_HEX_LEN + 1)) {
			link->deps_unknown = xasprintf("%s changed during the link",
						       line + SHA256_HEX_LEN + 1);
			break;
		}
		more = xasprintf("%s%s\n", text, line);
		free(text);
		text = more;
	}
	if (link->deps_unknown)
		free(text);
	else
		link->deps = text;
}

/*
 * What the LTRANS steps of the link did, from its log: the counts, the
 * reasons entries were stale (traced), the files the assembler read.
 */
static void read_log(struct cache_link *link)
{
	char *text, *line, *save = NULL, *unstored = NULL;
	struct strvec deps = STRVEC_INIT;

	if (link->log_read)
		return;
	link->log_read = true;
	text = read_text_file(link->log, NULL);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, "hit"))
			link->hits++;
		else if (!strcmp(line, "miss"))
			link->misses++;
		else if (starts_with(line, "corrupt "))
			link->corrupt++;
		else if (starts_with(line, "dep "))
			strvec_push(&deps, line + strlen("dep "));
		else if (starts_with(line, "stale "))
			link->stale++;
		else if (starts_with(line, "uncached ") && !link->deps_unknown) {
			link->deps_unknown = xstrdup(line + strlen("uncached "));
		} else if (starts_with(line, "unstored ")) {
			link->stores_failed++;
			if (!unstored)
				unstored = xstrdup(line + strlen("unstored "));
		}
	}
	free(text);
	if (!link->deps_unknown)
		join_deps(link, &deps);
	strvec_clear(&deps);
	if (unstored)
		warning("LTO cache %s: %u LTRANS objects not stored: %s",
			link->dir, link->stores_failed, unstored);
	free(unstored);
}

void cache_link_end(struct cache_link *link)
{
	if (!link->dir)
		return;
	read_log(link);
	/* (a link whose IR all stayed out has no LTRANS step) */
	if (link->hits || link->misses || link->corrupt)
		trace("LTO cache %s: %u hits, %u misses (%u corrupt entries "
		      "replaced), %u of the misses for files the assembler "
		      "reads", link->dir, link->hits, link->misses,
		      link->corrupt, link->stale);
	trim(link->dir);
}

void cache_link_free(struct cache_link *link)
{
	free(link->dir);	/* (the log is the tmp module's) */
	free(link->compiler);
	free(link->deps);
	free(link->deps_unknown);
	strvec_clear(&link->outputs);
	memset(link, 0, sizeof(*link));
}

/* ---- the link cache ---- */

struct link_hash {
	struct sha256 *h;
	const char *tmpdir;
};

/* A relocatable ELF object (by its first bytes)? */
static bool is_relocatable(const char *path)
{
	unsigned char head[18];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool rel;

	if (fd < 0)
		return false;
	/* e_type ET_REL (1), in the file's byte order */
	rel = read(fd, head, sizeof(head)) == (ssize_t)sizeof(head) &&
	      !memcmp(head, "\177ELF", 4) &&
	      (head[5] == 2 ? head[16] == 0 && head[17] == 1
			    : head[16] == 1 && head[17] == 0);
	close(fd);
	return rel;
}

/*
 * A thin archive's member: its path and its sections.  A member of a
 * regular archive named by a thin one is not keyed (-1: no cache).
 */
static int hash_member(const struct scan_object *obj, void *data)
{
	struct link_hash *lh = data;

	if (!obj->in_thin_archive || obj->member)
		return -1;
	hash_text(lh->h, obj->path);
	return hash_object(lh->h, obj->path, lh->tmpdir) ? -1 : 0;
}

/* Linker script words that read other files. */
static bool names_other_files(const char *path)
{
	static const char *const words[] = { "INCLUDE", "INPUT", "GROUP", "SEARCH_DIR" };
	size_t len;
	char *text = read_file(path, &len);
	bool found = !text;

	for (size_t i = 0; text && i < sizeof(words) / sizeof(words[0]) && !found; i++)
		found = memmem(text, len, words[i], strlen(words[i])) != NULL;
	free(text);
	return found;
}

/*
 * The file TOKEN names (itself, or what follows its last '='), if any:
 * objects by their sections, thin archives by their members too, other
 * files byte by byte.  -1 when the link cannot be keyed.
 */
static int hash_named_file(struct sha256 *h, const char *token, const char *tmpdir)
{
	const char *eq = strrchr(token, '='), *path = eq ? eq + 1 : token;
	struct scan_file_info info;
	struct link_hash lh = { h, tmpdir };
	struct stat st;

	if (!*path || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	if (is_relocatable(path))
		return hash_object(h, path, tmpdir);
	if (scan_file_kind(path, &info) != 0)
		return -1;
	/*
	 * A thin archive by the files it names, not by its bytes: its headers
	 * hold each member's size, and GCC's random section names vary in
	 * length, so the same IR compiled again changes the size.
	 */
	if (info.kind == FILE_THIN_ARCHIVE)
		return scan_file(path, hash_member, &lh, NULL) ? -1 : 0;
	if (info.kind == FILE_OTHER && names_other_files(path))
		return -1;
	return sha256_update_file(h, path);
}

static int link_key(struct cache_link *link, char *const *argv,
		    char *const *settings)
{
	const char *tmpdir = tmp_dir();
	char cwd[PATH_MAX];
	struct sha256 h;

	if (!tmpdir || !getcwd(cwd, sizeof(cwd)))
		return -1;
	sha256_init(&h);
	hash_text(&h, "lto-ld link 2");
	hash_text(&h, link->compiler);
	hash_text(&h, cwd);
	for (size_t i = 0; argv[i]; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-o") && argv[i + 1]) {
			i++;
			continue;
		}
		if (strstr(a, tmpdir))
			continue;
		if ((a[0] == '-' && a[1] == 'l') || starts_with(a, "--library") || a[0] == '@')
			return -1;	/* a library search: not followed here */
		hash_text(&h, a);
		if (hash_named_file(&h, a, tmpdir))
			return -1;
	}
	for (size_t i = 0; settings[i]; i++) {
		const char *s = settings[i];

		if (starts_with(s, "MAKEFLAGS=") || starts_with(s, "TMPDIR=") ||
		    strstr(s, tmpdir))
			continue;
		hash_text(&h, s);
		if (hash_named_file(&h, s, tmpdir))
			return -1;
	}
	sha256_final(&h, link->key);
	return 0;
}

/* The key of output I of the link. */
static void output_key(const struct cache_link *link, size_t i,
		       unsigned char key[SHA256_LEN])
{
	struct sha256 h;

	sha256_init(&h);
	sha256_update(&h, link->key, SHA256_LEN);
	hash_number(&h, i);
	sha256_final(&h, key);
}

bool cache_link_fetch(struct cache_link *link, char *const *argv,
		      char *const *settings, char *const *outputs)
{
	bool hit = true;

	if (!link->dir)
		return false;
	for (size_t i = 0; outputs[i]; i++)
		strvec_push(&link->outputs, outputs[i]);
	link->keyed = link_key(link, argv, settings) == 0;
	if (!link->keyed) {
		trace("LTO cache %s: this link is not cached (it searches "
		      "libraries, its script names other files, or a thin "
		      "archive names a regular archive's member)", link->dir);
		return false;
	}
	for (size_t i = 0; outputs[i] && hit; i++) {
		unsigned char key[SHA256_LEN];
		char *entry, *deps, *why;

		output_key(link, i, key);
		entry = entry_path(link->dir, key);
		hit = fetch_entry(entry, key, outputs[i], &deps, &why) == FETCH_HIT;
		if (why)
			trace("LTO cache %s: %s: the cached link is stale",
			      link->dir, why);
		free(deps);
		free(why);
		free(entry);
	}
	link->link_hit = hit;
	trace("LTO cache %s: the link's inputs %s", link->dir,
	      hit ? "are those of a cached link: WPA and LTRANS skipped"
		  : "are new");
	return hit;
}

void cache_link_store(struct cache_link *link)
{
	char *const *outputs = link->outputs.v;
	struct stat st;

	if (!link->dir || !link->keyed || link->link_hit)
		return;
	/*
	 * A link that compiled no partition (its IR all stayed out: the
	 * kernel's kallsyms links) costs what a plain one does: its output,
	 * often a large program, would only push LTRANS objects out.
	 */
	if (stat(link->log, &st) != 0 || st.st_size == 0)
		return;
	/* (what the assembler read is the link's input too) */
	read_log(link);
	if (link->deps_unknown) {
		trace("LTO cache %s: the link's outputs not stored: %s",
		      link->dir, link->deps_unknown);
		return;
	}
	/* (a side file the plugin did not write: nothing to replay) */
	for (size_t i = 0; outputs[i]; i++)
		if (access(outputs[i], R_OK) != 0)
			return;
	for (size_t i = 0; outputs[i]; i++) {
		unsigned char key[SHA256_LEN];
		char *entry;

		output_key(link, i, key);
		entry = entry_path(link->dir, key);
		if (store_entry(entry, key, link->deps, outputs[i]) != 0 &&
		    !link->stores_failed++)
			warning("LTO cache %s: the link's outputs not stored: %s",
				link->dir, strerror(errno));
		free(entry);
	}
}
