/* Small helpers shared by every part of lto-ld: messages, memory, paths. */
#ifndef LTO_LD_UTIL_H
#define LTO_LD_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Name used in messages ("lto-ld", "arm-linux-gnueabihf-lto-ld", ...). */
extern const char *progname;

/* Print "progname: error: ..." and return 1, so callers can `return error(...)`. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the error and exit(1), which runs the exit hooks. */
_Noreturn void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Verbose trace (LTO_LD_VERBOSE=1, env_flag). */
extern bool verbose;
void trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Cleanup that must happen however the run ends.  HOOK runs at exit()
 * (fatal() included) and from exit_hooks_run(), so it must be safe to run
 * twice; SIGNAL_HOOK, async-signal-safe, runs from a signal handler.  The
 * module that owns what is cleaned registers itself (as tmp.c does on
 * first use), so nothing here depends on it.
 */
void exit_hook_add(void (*hook)(void), void (*signal_hook)(void));
void exit_hooks_run(void);
void exit_hooks_run_from_signal(void);

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *ptr, size_t size);
/*
 * Make room in V, an array of *ALLOC elements of SIZE bytes, for index N:
 * it doubles (from 16), and the new elements are zeroed.  ALLOC_GROW is
 * the usual call: ALLOC_GROW(v, n, alloc) before v[n] is written.
 */
void *grow_array(void *v, size_t *alloc, size_t n, size_t size);
#define ALLOC_GROW(v, n, alloc) ((v) = grow_array((v), &(alloc), (n), sizeof(*(v))))
/*
 * The lower bound of KEY in BASE, N sorted elements of SIZE bytes: the
 * first index whose element is not below KEY (CMP(KEY, ELEMENT) <= 0,
 * as for bsearch), or N.
 */
size_t lower_bound(const void *key, const void *base, size_t n, size_t size,
		   int (*cmp)(const void *key, const void *element));
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/*
 * The one rule for what "set" means for an environment variable: set to
 * "" is unset (env_value gives NULL), and a flag is on when set to
 * anything but "0".
 */
const char *env_value(const char *name);
bool env_flag(const char *name);

bool starts_with(const char *s, const char *prefix);
bool ends_with(const char *s, const char *suffix);
/* Directory part of PATH ("." when it has none); newly allocated. */
char *dir_name(const char *path);
/* Last component of PATH; points into PATH. */
const char *base_name(const char *path);
/* DIR/NAME, or NAME itself when it is absolute or DIR is "." */
char *path_join(const char *dir, const char *name);
/* A regular file's whole contents, NUL-terminated; NULL with errno set. */
char *read_file(const char *path, size_t *len);
/*
 * A text file's contents (read_file), refused with an error naming PATH
 * and the line when it holds a NUL byte, which would end it early.
 * NULL after printing why.
 */
char *read_text_file(const char *path, size_t *len);
/* 0, or 1 after an error "PATH:LINE: NUL byte in WHAT" when TEXT holds one. */
int check_no_nul(const char *path, const char *text, size_t len,
		 const char *what);
bool is_regular_file(const char *path);
/*
 * Do A and B name the same file (device and inode, through symlinks)?
 * Two names of files that do not exist yet match when their directories
 * are the same and their last components are equal ("./out" and "out").
 */
bool same_file(const char *a, const char *b);
bool is_executable(const char *path);

#endif
