/*
 * The one archive walker: regular ("!<arch>") and thin ("!<thin>")
 * archives, header by header.  It follows the long-name table ("//",
 * names "/N"), binutils' nested thin members ("/N:OFFSET": the member at
 * OFFSET of the regular archive N names), and tells the symbol index
 * ("/", "/SYM64/") from members.  Member data is never read: the caller
 * reads what it needs where the walker says it is.
 *
 * Bytes come through a read function, so the caller's own view of the
 * file (a page already read, a thin archive held in memory) is used.
 * Like lib/elf.c it prints nothing: a failure leaves a message naming
 * the archive in ar.why.
 */
#ifndef LTO_LD_AR_H
#define LTO_LD_AR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define AR_MAGIC "!<arch>\n"
#define AR_THIN_MAGIC "!<thin>\n"
#define AR_MAGIC_SIZE 8
#define AR_HDR_SIZE 60

/* Index symbol that marks a thin archive written by lto-ld's `ld -r`. */
#define LTO_LD_THIN_MARKER "__lto_ld_thin_archive"

/* Read exactly LEN bytes at OFF of SRC; false when they are not there. */
typedef bool (*ar_read_fn)(void *src, void *buf, size_t len, off_t off);

struct ar {
	ar_read_fn read;
	void *src;
	off_t size;		/* the archive's size */
	const char *path;	/* for messages */
	bool thin;
	char *longnames;	/* the "//" table, once met */
	off_t longnames_size;
	off_t next;		/* the next header */
	char why[512];		/* after a failure: "PATH...: what is wrong" */
};

/* One entry of the archive: a member or the symbol index. */
struct ar_member {
	off_t header;		/* where its header is */
	off_t data;		/* where its data is (in a thin archive: none) */
	off_t size;		/* its size, as the header says */
	char *name;		/* malloc'd; NULL when the header names none */
	off_t origin;		/* "/N:OFFSET" in a thin archive: OFFSET, else 0 */
	bool index;		/* the symbol index, not a member */
};

/*
 * Start walking the archive of SIZE bytes READ gives (PATH for
 * messages): 1 for an archive (ar.thin tells which kind), 0 when it is
 * not one.
 */
int ar_open(struct ar *ar, ar_read_fn read, void *src, off_t size,
	    const char *path);

/*
 * The next entry into *M (the long-name table is read, not returned):
 * 1, 0 at the end, -1 when the archive is corrupt or truncated (ar.why).
 * A regular archive's member must lie within the archive.  M->name is
 * the caller's to free.
 */
int ar_next(struct ar *ar, struct ar_member *m);

/*
 * The member whose header is at HEADER of the regular archive AR (a
 * nested thin member's origin): 1, or -1 when there is none (ar.why).
 */
int ar_member_at(struct ar *ar, off_t header, struct ar_member *m);

/* Does the symbol index of SIZE bytes at OFF name SYMBOL? */
bool ar_index_names(struct ar *ar, off_t off, off_t size, const char *symbol);

void ar_close(struct ar *ar);

#endif
