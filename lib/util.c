#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *progname = "lto-ld";
bool verbose;

static void vmessage(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", progname, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("error: ", fmt, ap);
	va_end(ap);
	return 1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("warning: ", fmt, ap);
	va_end(ap);
}

void fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("error: ", fmt, ap);
	va_end(ap);
	exit(1);
}

void trace(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
}

/* Few modules own something to clean: tmp.c is the one so far. */
#define MAX_EXIT_HOOKS 4

static struct {
	void (*hook)(void);
	void (*signal_hook)(void);
} exit_hooks[MAX_EXIT_HOOKS];
static volatile int nexit_hooks;

void exit_hook_add(void (*hook)(void), void (*signal_hook)(void))
{
	if (nexit_hooks == MAX_EXIT_HOOKS)
		abort();	/* a programming error, not an input's */
	if (nexit_hooks == 0)
		atexit(exit_hooks_run);
	exit_hooks[nexit_hooks].hook = hook;
	exit_hooks[nexit_hooks].signal_hook = signal_hook;
	nexit_hooks++;
}

void exit_hooks_run(void)
{
	for (int i = nexit_hooks - 1; i >= 0; i--)
		exit_hooks[i].hook();
}

void exit_hooks_run_from_signal(void)
{
	for (int i = nexit_hooks - 1; i >= 0; i--)
		exit_hooks[i].signal_hook();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		fatal("out of memory");
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		fatal("out of memory");
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		fatal("out of memory");
	return p;
}

void *grow_array(void *v, size_t *alloc, size_t n, size_t size)
{
	size_t old = *alloc, want = old ? old : 16;

	if (n < old)
		return v;
	while (want <= n)
		want *= 2;
	if (want > SIZE_MAX / size)
		fatal("out of memory");
	v = xrealloc(v, want * size);
	memset((char *)v + old * size, 0, (want - old) * size);
	*alloc = want;
	return v;
}

size_t lower_bound(const void *key, const void *base, size_t n, size_t size,
		   int (*cmp)(const void *key, const void *element))
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp(key, (const char *)base + mid * size) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	va_list copy;
	int len;
	char *buf;

	va_copy(copy, ap);
	len = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (len < 0)
		fatal("formatting failed");
	buf = xmalloc((size_t)len + 1);
	vsnprintf(buf, (size_t)len + 1, fmt, ap);
	return buf;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *buf;

	va_start(ap, fmt);
	buf = xvasprintf(fmt, ap);
	va_end(ap);
	return buf;
}

const char *env_value(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

bool env_flag(const char *name)
{
	const char *v = env_value(name);

	return v && strcmp(v, "0") != 0;
}

bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

char *dir_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

char *path_join(const char *dir, const char *name)
{
	if (name[0] == '/' || strcmp(dir, ".") == 0)
		return xstrdup(name);
	if (ends_with(dir, "/"))
		return xasprintf("%s%s", dir, name);
	return xasprintf("%s/%s", dir, name);
}

char *read_file(const char *path, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t done = 0;
	char *buf;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (errno == 0 || S_ISDIR(st.st_mode))
			errno = EISDIR;
		close(fd);
		return NULL;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (done < (size_t)st.st_size) {
		ssize_t got = read(fd, buf + done, (size_t)st.st_size - done);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got == 0)
				errno = EIO;	/* the file shrank under us */
			free(buf);
			close(fd);
			return NULL;
		}
		done += (size_t)got;
	}
	close(fd);
	buf[done] = '\0';
	if (len)
		*len = done;
	return buf;
}

int check_no_nul(const char *path, const char *text, size_t len,
		 const char *what)
{
	const char *nul = memchr(text, '\0', len);
	size_t line = 1;

	if (!nul)
		return 0;
	for (const char *p = text; p < nul; p++)
		line += *p == '\n';
	return error("%s:%zu: NUL byte in %s", path, line, what);
}

char *read_text_file(const char *path, size_t *len)
{
	size_t n;
	char *text = read_file(path, &n);

	if (!text) {
		error("%s: %s", path, strerror(errno));
		return NULL;
	}
	if (check_no_nul(path, text, n, "a text file")) {
		free(text);
		return NULL;
	}
	if (len)
		*len = n;
	return text;
}

bool is_regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	bool a_exists = stat(a, &sa) == 0, b_exists = stat(b, &sb) == 0;
	char *dir_a, *dir_b;
	bool same;

	if (a_exists || b_exists)
		return a_exists && b_exists && same_inode(&sa, &sb);
	if (strcmp(base_name(a), base_name(b)) != 0)
		return false;
	dir_a = dir_name(a);
	dir_b = dir_name(b);
	same = stat(dir_a, &sa) == 0 && stat(dir_b, &sb) == 0 &&
	       same_inode(&sa, &sb);
	free(dir_a);
	free(dir_b);
	return same;
}

bool is_executable(const char *path)
{
	return is_regular_file(path) && access(path, X_OK) == 0;
}
