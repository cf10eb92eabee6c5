/*
 * Finding GCC IR without loading whole files: ELF headers, section headers
 * and section names of objects; member headers of archives; members of
 * thin archives (paths relative to the archive), nested archives included.
 */
#ifndef LTO_LD_SCAN_H
#define LTO_LD_SCAN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define SCAN_MAX_NESTING 16
/*
 * Members thin archives may name in all, nested ones included, for one
 * input: depth alone does not bound the work (seven levels naming the
 * next ten times are 10^7 files).  A whole kernel has some 40,000.
 */
#define SCAN_MAX_MEMBERS 200000

enum file_kind {
	FILE_OTHER,	/* linker script, shared-library script, data... */
	FILE_ELF,
	FILE_ARCHIVE,
	FILE_THIN_ARCHIVE,
};

/* One object found by the scanner. */
struct scan_object {
	const char *path;	/* the object's own file, or its archive's */
	const char *member;	/* member name inside an archive, or NULL */
	bool in_thin_archive;	/* PATH is a real file named by a thin archive */
	bool ir;		/* holds .gnu.lto_.symtab sections (slim or fat) */
	bool fat;		/* IR plus native code */
	int lto_major;		/* LTO stream major version (GCC major), 0 unknown */
	off_t lto_header;	/* where in PATH the LTO stream header is, or -1 */
	off_t lto_opts;		/* where in PATH its option record (optrecord.h) is, or -1 */
	uint64_t lto_opts_size;
	int machine;		/* e_machine (EM_ARM...), 0 when not ELF */
	off_t offset;		/* where in PATH a member's data starts, or 0 */
};

/* Called for each object; a non-zero return stops the scan and is returned. */
typedef int (*scan_visit_fn)(const struct scan_object *obj, void *data);

struct scan_file_info {
	enum file_kind kind;
	bool lto_ld_thin;	/* thin archive carrying LTO_LD_THIN_MARKER (ar.h) */
};

/*
 * Scan PATH: an object is visited once; archive members one by one, thin
 * archive members through their own files.  Returns 0, a visitor's
 * non-zero value, or -1 after printing an error naming the file and the
 * reason (missing, truncated, corrupt).  INFO may be NULL.
 */
int scan_file(const char *path, scan_visit_fn visit, void *data,
	      struct scan_file_info *info);

/*
 * The name of the member of the regular archive PATH whose data starts
 * at DATA_OFFSET (what the linker plugin API gives as an archive member's
 * offset); newly allocated, or NULL when there is none.
 */
char *scan_member_name(const char *path, off_t data_offset);

/*
 * Every member of the regular archive PATH in order (the symbol index and
 * the long-name table excepted): VISIT gets the offset of its data and
 * its name (NULL when the header names none); a non-zero return stops
 * the walk and is returned.  -1 when PATH is not a readable archive.
 */
typedef int (*scan_member_fn)(off_t data_offset, const char *name, void *data);
int scan_archive_members(const char *path, scan_member_fn visit, void *data);

/* One section of an ELF object, as scan_sections() gives it. */
struct scan_section {
	const char *name;
	uint32_t type;		/* sh_type */
	uint64_t flags;		/* sh_flags */
	uint64_t offset;	/* where its bytes are in the file */
	uint64_t size;
};

/*
 * Every section of the relocatable ELF object PATH (a file, not an
 * archive), section 1 on, in order.  VISIT returns 0 to go on, or a
 * negative value that stops the walk and is returned.  -1 after printing
 * an error naming the file and the reason.
 */
typedef int (*scan_section_fn)(const struct scan_section *sec, void *data);
int scan_sections(const char *path, scan_section_fn visit, void *data);

/* Only the kind of PATH and the marker, from its first bytes. */
int scan_file_kind(const char *path, struct scan_file_info *info);

#endif
