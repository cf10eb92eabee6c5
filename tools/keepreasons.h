/*
 * Why the bytes of an LTO image are there: its sized symbols, by the
 * keep reason lto-ld's report gives the IR definition of their name.
 */
#ifndef LTO_SIZEDIFF_KEEPREASONS_H
#define LTO_SIZEDIFF_KEEPREASONS_H

#include "ltoreport.h"
#include "sizediff.h"
#include "strmap.h"

/*
 * Fill *OUT from the report REP and NEW's rows (ROWS, by the index of
 * NAMES; NEW is the file NEWFILE).  1 after an error naming the report
 * when it is not of the link that made NEW (see the rule in
 * keepreasons.c).  *OUT points into REP, which must outlive it.
 */
int reasons_join(const struct lto_report *rep, const struct strmap *names,
		 const struct row *rows, const char *newfile, struct reasons *out);
void reasons_free(struct reasons *out);

#endif
