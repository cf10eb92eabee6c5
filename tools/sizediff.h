/* lto-sizediff's results, as the analysis leaves them for the output. */
#ifndef LTO_SIZEDIFF_H
#define LTO_SIZEDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { OLD, NEW };

/* One normalized name, or one directory: its sizes in OLD and NEW. */
struct row {
	const char *name;
	uint64_t size[2];
	unsigned count[2];	/* symbols summed; unused for directories */
	int64_t diff;		/* size[NEW] - size[OLD] */
};

/* Rows in the order printed, and the bytes the list stands for. */
struct list {
	const struct row **v;
	size_t n, alloc;
	uint64_t bytes;
};

struct image {
	const char *file;
	size_t symbols;		/* sized symbols counted */
	size_t aliases;		/* of them, at the address and size of one before */
	size_t names;		/* distinct normalized names among them */
	uint64_t size;
};

/* How the sizes were given to directories (--objects). */
struct attribution {
	bool on;
	size_t files;		/* --objects arguments */
	size_t objects;		/* objects and archive members read */
	size_t names;		/* distinct normalized names they define */
	size_t ambiguous;	/* image names defined in several directories */
	uint64_t ambiguous_size[2];
	size_t unknown;		/* image names defined in no object */
	uint64_t unknown_size[2];
};

/* A line of the keep-reason table: what it counts in the NEW image. */
struct bucket {
	const char *name;	/* a keep reason of the report, or why unexplained */
	bool kept;		/* a keep reason, not an unexplained line */
	size_t names, symbols;
	uint64_t bytes;
};

/* A count of one kind of thing, by its name. */
struct tally {
	const char *name;
	size_t n;
};

/* NEW's sized symbols by the keep reason lto-ld's report gives (--report). */
struct reasons {
	bool on;
	const char *file;		/* the report */
	const char *output, *mode;	/* the link it is of, as it says */
	size_t definitions;		/* IR definitions it lists */
	const struct tally *fates;	/* how many definitions got each fate */
	size_t nfates;
	size_t kept_names, kept_in_new;	/* names it keeps; of them defined in NEW */
	struct bucket *b;		/* kept ones first, in the order printed */
	size_t n, alloc;
	struct bucket total;		/* what the buckets add up to: NEW */
};

/*
 * A leaf of the HTML treemap: a name's bytes in one directory (a name
 * split between directories has one cell in each), or in the image as a
 * whole without --objects (DIR NULL).  The cells add up to the images.
 */
struct cell {
	const char *dir;
	const char *name;
	uint64_t size[2];
};

struct cells {
	struct cell *v;
	size_t n, alloc;
};

struct report {
	struct image image[2];
	size_t common;		/* names in both */
	struct list decreases, increases, vanished, appeared;
	struct list dirs;
	struct attribution attr;
	struct reasons reasons;
	size_t top;		/* rows printed per list; 0: all */
	struct cells cells;	/* for --html only */
};

/* The line of the keep-reason table for names the report does not list. */
#define NOT_IN_REPORT "not in the report"
/* ... and for those a native object of the link defines: not LTO's */
#define NATIVE_CODE "native code (assembler, objects without IR)"

/* The directory that holds what no object defines. */
#define UNKNOWN_DIR "(unknown)"

void report_text(FILE *f, const struct report *r);
void report_json(FILE *f, const struct report *r);
/*
 * The HTML page (--html=FILE), written under a temporary name and renamed:
 * 0, or 1 after an error naming FILE, and then FILE is left as it was.
 */
int report_html(const char *file, const struct report *r);

#endif
