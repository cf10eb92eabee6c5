/*
 * A growable, NULL-terminated array of owned strings: argv and envp
 * builder.  An empty vector is a valid array, { NULL }, never NULL: .v
 * can always be passed where a char ** list is expected.
 */
#ifndef LTO_LD_STRVEC_H
#define LTO_LD_STRVEC_H

#include <stddef.h>

/* The shared { NULL } of every empty vector; never written or freed. */
extern char *strvec_empty[1];

struct strvec {
	char **v;	/* NULL-terminated */
	size_t n;
	size_t alloc;	/* 0 while v is strvec_empty */
};

#define STRVEC_INIT { strvec_empty, 0, 0 }

/* Make SV empty without freeing anything (for zeroed structures). */
void strvec_init(struct strvec *sv);
void strvec_push(struct strvec *sv, const char *s);
void strvec_push_nodup(struct strvec *sv, char *s);
void strvec_pushf(struct strvec *sv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strvec_pushv(struct strvec *sv, char *const *v);
/* Push each string up to a NULL. */
void strvec_pushl(struct strvec *sv, ...) __attribute__((sentinel));
void strvec_clear(struct strvec *sv);
/*
 * The array, now the caller's to free (strings, then the array: always
 * malloc'd, even when empty); SV is left empty.
 */
char **strvec_detach(struct strvec *sv);
/* Total bytes of all strings including their terminators. */
size_t strvec_bytes(const struct strvec *sv);
/* The strings, each followed by AFTER, as one malloc'd string ("" when empty). */
char *strvec_join(const struct strvec *sv, const char *after);

#endif
