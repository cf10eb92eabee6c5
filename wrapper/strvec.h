/* A growable, NULL-terminated array of owned strings: argv and envp builder. */
#ifndef LTO_LD_STRVEC_H
#define LTO_LD_STRVEC_H

#include <stddef.h>

struct strvec {
	char **v;	/* always NULL-terminated once anything was pushed */
	size_t n;
	size_t alloc;
};

#define STRVEC_INIT { NULL, 0, 0 }

void strvec_push(struct strvec *sv, const char *s);
void strvec_push_nodup(struct strvec *sv, char *s);
void strvec_pushf(struct strvec *sv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strvec_pushv(struct strvec *sv, char *const *v);
/* Push each string up to a NULL. */
void strvec_pushl(struct strvec *sv, ...) __attribute__((sentinel));
void strvec_clear(struct strvec *sv);
/* Total bytes of all strings including their terminators. */
size_t strvec_bytes(const struct strvec *sv);

#endif
