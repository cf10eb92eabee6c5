/* The cache's entries on disk (store.h): fetched, stored, trimmed. */
#include "store.h"
#include "../asmdeps.h"
#include "../settings.h"
#include "io.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ENTRY_MAGIC "lto-ld\2\0"
/* magic, key, the lengths of the file list and of the object, their SHA-256 */
#define ENTRY_HEADER (8 + SHA256_LEN + 8 + 8 + SHA256_LEN)
/* More than this in an entry's list of the assembler's files: not ours. */
#define DEPS_MAX ((uint64_t)1 << 24)
#define DEFAULT_SIZE ((uint64_t)1 << 30)
/* A temporary entry this old was left by a killed compile. */
#define STALE_TEMP_SECONDS 3600

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
		if (!write_full(out, buf, (size_t)got))
			return false;
		sha256_update(h, buf, (size_t)got);
		len -= (uint64_t)got;
	}
	return true;
}

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
enum fetch entry_fetch(const char *entry, const unsigned char *key,
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
int entry_store(const char *entry, const unsigned char *key,
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
	    !write_full(out, header, sizeof(header)) ||
	    !write_full(out, deps, deps_len) ||
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

char *entry_path(const char *dir, const unsigned char key[SHA256_LEN])
{
	char hex[SHA256_HEX_LEN + 1];

	sha256_hex(key, hex);
	return xasprintf("%s/%.2s/%s", dir, hex, hex + 2);
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

void store_trim(const char *dir)
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
