/* Minimal TAP output for the C unit tests (Automake's tap-driver reads it). */
#ifndef LTO_LD_TAP_H
#define LTO_LD_TAP_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count, tap_failed;

#define ok(cond, ...)                                                    \
	do {                                                             \
		int c_ = !!(cond);                                       \
		tap_count++;                                             \
		if (c_) {                                                \
			printf("ok %d - ", tap_count);                   \
		} else {                                                 \
			tap_failed++;                                    \
			printf("not ok %d - ", tap_count);               \
		}                                                        \
		printf(__VA_ARGS__);                                     \
		printf("\n");                                            \
		if (!c_)                                                 \
			printf("#   failed at %s:%d: %s\n", __FILE__,     \
			       __LINE__, #cond);                         \
	} while (0)

#define is_str(got, want, ...)                                           \
	do {                                                             \
		const char *g_ = (got), *w_ = (want);                    \
		int same_ = g_ && w_ ? !strcmp(g_, w_) : g_ == w_;       \
		ok(same_, __VA_ARGS__);                                  \
		if (!same_)                                              \
			printf("#   got '%s', want '%s'\n",               \
			       g_ ? g_ : "(null)", w_ ? w_ : "(null)");  \
	} while (0)

/*
 * A test that cannot set itself up (no temporary directory) stops the
 * whole program, loudly: the harness counts "Bail out!" as an error, where
 * a silent return would only lose assertions.
 */
static inline void tap_bail_out(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(99);
}

/* A check that cannot run here: counted as a skip, with its reason. */
static inline void tap_skip(const char *reason)
{
	printf("ok %d # SKIP %s\n", ++tap_count, reason);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
