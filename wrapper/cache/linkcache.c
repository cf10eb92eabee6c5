/* One link's use of the cache: set up, the link cache, the count after. */
#include "linkcache.h"
#include "key.h"
#include "ltrans.h"
#include "store.h"
#include "../scan.h"
#include "../toolchain.h"
#include "progs.h"
#include "strvec.h"
#include "tmp.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the linking lto-ld ---- */

/* Path, size and time of PATH, or that it is missing. */
static void hash_program(struct sha256 *h, const char *path)
{
	struct stat st;

	key_text(h, path ? path : "");
	if (!path || stat(path, &st) != 0)
		return;
	key_number(h, (uint64_t)st.st_size);
	key_number(h, (uint64_t)st.st_mtim.tv_sec);
	key_number(h, (uint64_t)st.st_mtim.tv_nsec);
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
	key_number(&h, (uint64_t)toolchain_gcc_major(tc));
	key_text(&h, toolchain_machine(tc) ? toolchain_machine(tc) : "");
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

		key_text(&h, gcc_environment[i]);
		key_text(&h, value ? value : "\x01unset");
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
	/* (-save-temps puts the assembler's input there) */
	strvec_pushf(settings, ENV_TMP "=%s", tmp_dir());
	free(identity);
	free(real_cc);
	free(self);
	return 0;
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
	struct strvec kept = STRVEC_INIT;

	qsort(lines->v, lines->n, sizeof(*lines->v), by_path);
	for (size_t i = 0; i < lines->n && !link->deps_unknown; i++) {
		const char *line = lines->v[i];

		if (strlen(line) < SHA256_HEX_LEN + 2 || line[SHA256_HEX_LEN] != ' ')
			link->deps_unknown = xstrdup("a malformed line in the LTRANS log");
		else if (i > 0 && !by_path(&lines->v[i - 1], &lines->v[i]))
			continue;
		else if (i > 0 && !strcmp(lines->v[i - 1] + SHA256_HEX_LEN + 1,
					  line + SHA256_HEX_LEN + 1))
			link->deps_unknown = xasprintf("%s changed during the link",
						       line + SHA256_HEX_LEN + 1);
		else
			strvec_push(&kept, line);
	}
	if (!link->deps_unknown)
		link->deps = strvec_join(&kept, "\n");
	strvec_clear(&kept);
}

/*
 * What the LTRANS steps of the link did, from its log: the counts, the
 * files the assembler read, once.
 */
static void read_log(struct cache_link *link)
{
	struct ltrans_log log;

	if (link->log_read)
		return;
	link->log_read = true;
	ltrans_log_read(link->log, &log);
	link->hits = log.hits;
	link->misses = log.misses;
	link->corrupt = log.corrupt;
	link->stale = log.stale;
	link->stores_failed = log.stores_failed;
	if (log.uncached)
		link->deps_unknown = xstrdup(log.uncached);
	else
		join_deps(link, &log.deps);
	if (log.unstored)
		warning("LTO cache %s: %u LTRANS objects not stored: %s",
			link->dir, link->stores_failed, log.unstored);
	ltrans_log_free(&log);
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
	store_trim(link->dir);
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
	key_text(lh->h, obj->path);
	return key_object(lh->h, obj->path, lh->tmpdir) ? -1 : 0;
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
		return key_object(h, path, tmpdir);
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
	key_text(&h, "lto-ld link 2");
	key_text(&h, link->compiler);
	key_text(&h, cwd);
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
		key_text(&h, a);
		if (hash_named_file(&h, a, tmpdir))
			return -1;
	}
	for (size_t i = 0; settings[i]; i++) {
		const char *s = settings[i];

		if (starts_with(s, "MAKEFLAGS=") || starts_with(s, "TMPDIR=") ||
		    strstr(s, tmpdir))
			continue;
		key_text(&h, s);
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
	key_number(&h, i);
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
		hit = entry_fetch(entry, key, outputs[i], &deps, &why) == FETCH_HIT;
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
		if (entry_store(entry, key, link->deps, outputs[i]) != 0 &&
		    !link->stores_failed++)
			warning("LTO cache %s: the link's outputs not stored: %s",
				link->dir, strerror(errno));
		free(entry);
	}
}
