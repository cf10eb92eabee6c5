/*
 * lto-ld's JSON report (--lto-report=FILE.json, wrapper/report.c) as
 * lto-sizediff joins it with an image: each IR definition's fate and,
 * when kept, its reason, by the name the image would show; and the names
 * the link's native objects define.
 */
#ifndef LTO_SIZEDIFF_LTOREPORT_H
#define LTO_SIZEDIFF_LTOREPORT_H

#include "jsonread.h"
#include "sizediff.h"
#include "strmap.h"

struct lto_report {
	const char *file;
	struct json doc;
	const char *output, *mode;	/* point into doc */
	size_t definitions;		/* symbol entries */
	/* the definitions' names, GCC's suffixes removed (symname.h) ... */
	struct strmap names;
	/* ... and by their index, the fate and reason (NULL unless kept)
	 * of the definition that speaks for the name: a kept one, else the
	 * first listed (the others of a name did not prevail) */
	const char **fate, **reason;
	size_t kept;			/* names whose definition is kept */
	/* the names the link's native objects define (suffixes removed),
	 * its "native_objects"; none in a report that predates them */
	struct strmap native;
	struct tally *fates;		/* definitions by fate, first met first */
	size_t nfates, fates_alloc;
};

/*
 * Read FILE into *R; 1 after an error naming FILE and what is wrong with
 * it (unreadable, not JSON, lto-ld's text form, JSON of another shape).
 */
int lto_report_read(const char *file, struct lto_report *r);
void lto_report_free(struct lto_report *r);

#endif
