/*
 * The files the assembler read for an LTRANS compile (asmdeps.h): as
 * --MD lists them in make's syntax, the cache keeps them as
 * "SHA-256 PATH" lines and checks those lines on every hit.
 */
#include "asmdeps.h"
#include "sha256.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* WORD (N bytes so far) ends: push it when it has any. */
static void end_word(struct strvec *words, char *word, size_t *n)
{
	if (*n)
		strvec_push_nodup(words, xstrndup(word, *n));
	*n = 0;
}

/*
 * The words of TEXT as make reads a dependency line: "\ " is a space
 * in a name (2N+1 backslashes before a space: N of them and the space;
 * 2N: N of them, then the name ends), "$$" is "$", and a backslash
 * before the end of a line continues it.  Those are the quotes GNU as
 * writes.
 */
static void make_words(const char *text, size_t len, struct strvec *words)
{
	char *word = xmalloc(len + 1);
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		char c = text[i];

		if (c == '\\') {
			size_t k = 0;
			char next;

			while (i + k < len && text[i + k] == '\\')
				k++;
			next = i + k < len ? text[i + k] : '\0';
			if (next == '\n' && k == 1) {
				end_word(words, word, &n);
				i++;
				continue;
			}
			if (next != ' ' && next != '\t') {
				memset(word + n, '\\', k);
				n += k;
				i += k - 1;
				continue;
			}
			memset(word + n, '\\', k / 2);
			n += k / 2;
			i += k;		/* at the space */
			if (k % 2)
				word[n++] = next;
			else
				end_word(words, word, &n);
			continue;
		}
		if (c == '$' && i + 1 < len && text[i + 1] == '$') {
			word[n++] = '$';
			i++;
		} else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			end_word(words, word, &n);
		} else {
			word[n++] = c;
		}
	}
	end_word(words, word, &n);
	free(word);
}

static bool below(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	return len && !strncmp(path, dir, len) && path[len] == '/';
}

void asmdeps_include_dirs(char *const *argv, struct strvec *dirs)
{
	struct strvec as_args = STRVEC_INIT;

	/* the assembler's own arguments, in order */
	for (size_t i = 0; argv[i]; i++) {
		if (!strcmp(argv[i], "-Xassembler") && argv[i + 1]) {
			strvec_push(&as_args, argv[++i]);
		} else if (starts_with(argv[i], "-Wa,")) {
			const char *p = argv[i] + strlen("-Wa,");

			for (const char *comma; (comma = strchr(p, ',')); p = comma + 1)
				strvec_push_nodup(&as_args, xstrndup(p, (size_t)(comma - p)));
			strvec_push(&as_args, p);
		}
	}
	for (size_t i = 0; i < as_args.n; i++) {
		if (!strcmp(as_args.v[i], "-I") && i + 1 < as_args.n)
			strvec_push(dirs, as_args.v[++i]);
		else if (starts_with(as_args.v[i], "-I") && as_args.v[i][2])
			strvec_push(dirs, as_args.v[i] + 2);
	}
	strvec_clear(&as_args);
}

static bool listed(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return true;
	return false;
}

/* CANDIDATE (relative to CWD) into ABSENT when no file has that name. */
static void add_absent(const char *cwd, const char *candidate, struct strvec *absent)
{
	char *path = path_join(cwd, candidate);
	struct stat st;

	if (lstat(path, &st) != 0 && errno == ENOENT && !listed(absent, path))
		strvec_push_nodup(absent, path);
	else
		free(path);
}

/* The name FOUND had in DIR, when it is in DIR, into NAMES. */
static void name_in(struct strvec *names, const char *found, const char *dir)
{
	size_t len = strlen(dir);

	if (below(found, dir) && found[len + 1])
		strvec_push(names, found + len + 1);
}

/*
 * The names the assembler tried before (or instead of) FOUND, a file
 * it read: FOUND may be a name it was given, found in the working
 * directory ("." too) or in one of DIRS; that name in each other place
 * would have been read instead, had it existed.
 */
static void add_searched(const char *cwd, const char *found, char *const *dirs,
			 struct strvec *absent)
{
	struct strvec names = STRVEC_INIT;

	strvec_push(&names, found);
	name_in(&names, found, ".");
	for (size_t i = 0; dirs[i]; i++)
		name_in(&names, found, dirs[i]);
	for (size_t n = 0; n < names.n; n++) {
		if (names.v[n][0] == '/')
			continue;	/* an absolute name: no search */
		add_absent(cwd, names.v[n], absent);
		for (size_t i = 0; dirs[i]; i++) {
			char *candidate = xasprintf("%s/%s", dirs[i], names.v[n]);

			add_absent(cwd, candidate, absent);
			free(candidate);
		}
	}
	strvec_clear(&names);
}

/* Is PATH below one of DIRS (a NULL ends them)? */
static bool below_any(const char *path, char *const *dirs)
{
	for (size_t i = 0; dirs[i]; i++)
		if (below(path, dirs[i]))
			return true;
	return false;
}

int asmdeps_read(const char *depfile, char *const *skip_dirs, char *const *dirs,
		 struct strvec *read, struct strvec *absent)
{
	struct strvec words = STRVEC_INIT;
	char cwd[PATH_MAX], *text;
	size_t len, i = 0;
	struct stat st;

	if (!getcwd(cwd, sizeof(cwd)) || !(text = read_file(depfile, &len)))
		return -1;
	make_words(text, len, &words);
	free(text);
	/* the targets (the object), up to the word that ends in ':' */
	while (i < words.n && !ends_with(words.v[i], ":"))
		i++;
	if (i == words.n) {
		strvec_clear(&words);
		errno = EINVAL;
		return -1;
	}
	for (i++; i < words.n; i++) {
		char *path = path_join(cwd, words.v[i]);

		if (below_any(path, skip_dirs)) {
			free(path);
			continue;
		}
		/*
		 * A name that is no file is one that .file gave (as lists
		 * those too: "<artificial>"), or one no longer there: it
		 * must stay absent.
		 */
		if (lstat(path, &st) != 0 && errno == ENOENT) {
			if (!listed(absent, path))
				strvec_push(absent, path);
		} else if (!listed(read, path)) {
			strvec_push(read, path);
		}
		free(path);
		add_searched(cwd, words.v[i], dirs, absent);
	}
	strvec_clear(&words);
	return 0;
}

static bool at_or_after(const struct timespec *t, const struct timespec *since)
{
	return t->tv_sec > since->tv_sec ||
	       (t->tv_sec == since->tv_sec && t->tv_nsec >= since->tv_nsec);
}

/* The SHA-256 of PATH's contents, as hex.  0, or -1 with errno set. */
static int file_sum(const char *path, char hex[SHA256_HEX_LEN + 1])
{
	unsigned char digest[SHA256_LEN];
	struct sha256 h;

	sha256_init(&h);
	if (sha256_update_file(&h, path))
		return -1;
	sha256_final(&h, digest);
	sha256_hex(digest, hex);
	return 0;
}

#define ABSENT_SUM "----------------------------------------------------------------"

int asmdeps_record(char *const *read, char *const *absent,
		   const struct timespec *since, char **list, char **why)
{
	struct strvec lines = STRVEC_INIT;
	char hex[SHA256_HEX_LEN + 1];
	struct stat st;

	*why = NULL;
	for (size_t i = 0; read[i] && !*why; i++) {
		const char *path = read[i];

		if (strchr(path, '\n'))
			*why = xasprintf("%s: a newline in the name", path);
		else if (stat(path, &st) != 0 || file_sum(path, hex) != 0)
			*why = xasprintf("%s: %s", path, strerror(errno));
		else if (at_or_after(&st.st_mtim, since) || at_or_after(&st.st_ctim, since))
			*why = xasprintf("%s changed while the compile ran", path);
		else
			strvec_pushf(&lines, "%s %s", hex, path);
	}
	for (size_t i = 0; absent[i] && !*why; i++) {
		if (strchr(absent[i], '\n'))
			*why = xasprintf("%s: a newline in the name", absent[i]);
		else if (lstat(absent[i], &st) == 0)
			*why = xasprintf("%s appeared while the compile ran", absent[i]);
		else
			strvec_pushf(&lines, "%s %s", ABSENT_SUM, absent[i]);
	}
	*list = *why ? NULL : strvec_join(&lines, "\n");
	strvec_clear(&lines);
	return *why ? -1 : 0;
}

char *asmdeps_check(const char *list, size_t len)
{
	const char *p = list, *end = list + len;
	char hex[SHA256_HEX_LEN + 1];

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char *path, *why = NULL;

		if (!nl || nl - p < SHA256_HEX_LEN + 2 || p[SHA256_HEX_LEN] != ' ')
			return xstrdup("a malformed list of the files the assembler read");
		path = xstrndup(p + SHA256_HEX_LEN + 1, (size_t)(nl - p) - SHA256_HEX_LEN - 1);
		if (!memcmp(p, ABSENT_SUM, SHA256_HEX_LEN)) {
			struct stat st;

			if (lstat(path, &st) == 0 || errno != ENOENT)
				why = xasprintf("%s now exists (the assembler would read it)", path);
		} else if (file_sum(path, hex) != 0)
			why = xasprintf("%s: %s", path, strerror(errno));
		else if (memcmp(hex, p, SHA256_HEX_LEN))
			why = xasprintf("%s changed", path);
		free(path);
		if (why)
			return why;
		p = nl + 1;
	}
	return NULL;
}

void asmdeps_now(struct timespec *now)
{
#ifdef CLOCK_REALTIME_COARSE
	/* the clock the kernel stamps changes with: never after one */
	if (clock_gettime(CLOCK_REALTIME_COARSE, now) == 0)
		return;
#endif
	clock_gettime(CLOCK_REALTIME, now);
}
