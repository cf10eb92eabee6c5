#include "scan.h"
#include "optrecord.h"
#include "ar.h"
#include "elf.h"
#include "io.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdio.h>
#include <unistd.h>


/*
 * What is read when a file is opened: one page.  Small objects have their
 * section headers in it, so one read answers; larger ones need one more.
 */
#define HEAD_SIZE 4096

/* Where an object's bytes are: a whole file, or a slice of an archive. */
struct region {
	int fd;
	off_t base;
	off_t size;
	const char *path;
	const char *member;
	const unsigned char *mem;	/* the bytes already in memory, or NULL */
	unsigned char head[HEAD_SIZE];	/* the first bytes, read when opened */
	size_t head_len;
};

/* Size of a file not measured yet: reads past its end just come up short. */
#define SIZE_UNKNOWN ((off_t)1 << 62)

static const char *where(const struct region *r)
{
	static char buf[4096];

	if (!r->member)
		return r->path;
	snprintf(buf, sizeof(buf), "%s(%s)", r->path, r->member);
	return buf;
}

/* Read exactly LEN bytes at OFF within R; false when they are not there. */
static bool read_at(const struct region *r, void *buf, size_t len, off_t off)
{
	if (off < 0 || off > r->size || (off_t)len > r->size - off)
		return false;
	if (r->mem) {
		memcpy(buf, r->mem + r->base + off, len);
		return true;
	}
	if ((size_t)off + len <= r->head_len) {
		memcpy(buf, r->head + off, len);
		return true;
	}
	return pread_full(r->fd, buf, len, r->base + off);
}

static int open_region(const char *path, struct region *r, const char *archive);
static int measure_region(struct region *r);

/* ---- ELF ---- */

#define LTO_HEADER_PREFIX ".gnu.lto_.lto."

static int corrupt(const struct region *r, const char *why)
{
	error("%s: %s", where(r), why);
	return -1;
}

/* The LTO stream header's major version (an int16 in the compiler's byte order). */
static int lto_major_at(const struct region *r, const Elf64_Shdr *sh)
{
	unsigned char v[2];
	int major;

	if (sh->sh_size < 2 || !read_at(r, v, 2, (off_t)sh->sh_offset))
		return 0;
	major = v[0] | (v[1] << 8);
	if (major > 255)
		major = v[1] | (v[0] << 8);
	return major;
}

/*
 * Walk the section headers of the relocatable ELF object in R, section 1
 * on, handing each to VISIT with its name.  Returns 1 for an ELF file
 * (also one with no sections to walk, or not relocatable: then *TYPE
 * tells), 0 when R is not ELF, -1 on a corrupt file (error printed), or
 * VISIT's non-zero value.
 */
typedef int (*shdr_visit_fn)(const struct region *r, const char *name,
			     const Elf64_Shdr *sh, void *data);

static int walk_elf(const struct region *r, unsigned *type, int *machine,
		    shdr_visit_fn visit, void *data)
{
	struct elf_in in = { r->fd, r->base, (uint64_t)r->size, r->head,
			     r->head_len };
	struct elf e;
	Elf64_Shdr sh;
	int rc = elf_open(&e, &in);

	if (rc <= 0)
		return rc < 0 ? corrupt(r, e.why) : 0;
	*type = e.type;
	*machine = e.machine;
	if (e.type != ET_REL)
		return 1;	/* executables and shared libraries never carry IR */
	if (elf_read_sections(&e) != 0)
		rc = corrupt(r, e.why);
	for (uint32_t i = 1; i < e.shnum && rc == 1; i++) {
		const char *name;

		elf_section(&e, i, &sh);
		name = elf_section_name(&e, &sh);
		if (!name)
			rc = corrupt(r, "section name outside the name table");
		else if ((rc = visit(r, name, &sh, data)) == 0)
			rc = 1;
	}
	elf_close(&e);
	return rc;
}

/* Are SH's bytes inside R (an archive member's section not in the next member)? */
static bool within(const struct region *r, const Elf64_Shdr *sh)
{
	return sh->sh_offset <= (uint64_t)r->size &&
	       sh->sh_size <= (uint64_t)r->size - sh->sh_offset;
}

struct ir_seen {
	struct scan_object *obj;
	bool has_text;
};

static int see_ir_section(const struct region *r, const char *name,
			  const Elf64_Shdr *sh, void *data)
{
	struct ir_seen *seen = data;

	if (starts_with(name, GCC_IR_SYMTAB_PREFIX)) {
		seen->obj->ir = true;
	} else if (starts_with(name, LTO_HEADER_PREFIX) && !seen->obj->lto_major) {
		seen->obj->lto_major = lto_major_at(r, sh);
		seen->obj->lto_header = r->base + (off_t)sh->sh_offset;
	} else if (!strcmp(name, OPTRECORD_SECTION) && within(r, sh)) {
		seen->obj->lto_opts = r->base + (off_t)sh->sh_offset;
		seen->obj->lto_opts_size = sh->sh_size;
	} else if (starts_with(name, ".text") && sh->sh_size > 0) {
		seen->has_text = true;
	}
	return 0;
}

/* What OBJ holds of an LTO stream: nothing (yet). */
static void no_lto_stream(struct scan_object *obj)
{
	obj->lto_major = 0;
	obj->lto_header = -1;
	obj->lto_opts = -1;
	obj->lto_opts_size = 0;
}

/*
 * Look at the ELF object in R.  Fills OBJ->ir/fat/lto_major and where its
 * LTO header and option record are.  Returns 1 for an ELF file, 0 when R
 * is not ELF, -1 on a corrupt file (error printed).
 */
static int scan_elf(const struct region *r, struct scan_object *obj)
{
	struct ir_seen seen = { obj, false };
	unsigned type;
	int rc;

	obj->ir = obj->fat = false;
	no_lto_stream(obj);
	rc = walk_elf(r, &type, &obj->machine, see_ir_section, &seen);
	obj->fat = obj->ir && seen.has_text;
	if (!obj->ir)
		no_lto_stream(obj);
	return rc;
}

/* ---- one object's sections, for lto-ld's own readers ---- */

struct section_walk {
	scan_section_fn visit;
	void *data;
};

static int pass_section(const struct region *r, const char *name,
			const Elf64_Shdr *sh, void *data)
{
	struct section_walk *walk = data;
	struct scan_section sec = { name, sh->sh_type, sh->sh_flags,
				    sh->sh_offset, sh->sh_size };

	(void)r;
	return walk->visit(&sec, walk->data);
}

int scan_sections(const char *path, scan_section_fn visit, void *data)
{
	struct section_walk walk = { visit, data };
	struct region r;
	unsigned type = 0;
	int machine, rc;

	if (open_region(path, &r, NULL) != 0)
		return -1;
	if (r.size == SIZE_UNKNOWN && measure_region(&r) != 0) {
		close(r.fd);
		return -1;
	}
	rc = walk_elf(&r, &type, &machine, pass_section, &walk);
	if (rc == 0 || (rc == 1 && type != ET_REL))
		rc = corrupt(&r, "not a relocatable ELF object");
	close(r.fd);
	return rc == 1 ? 0 : rc;
}

/* ---- archives ---- */

struct archive_ctx {
	scan_visit_fn visit;
	void *data;
	int depth;
	unsigned long members;	/* thin members followed, for SCAN_MAX_MEMBERS */
};

static int scan_path(const char *path, struct archive_ctx *ctx,
		     struct scan_file_info *info, const char *archive);

static bool ar_read_region(void *src, void *buf, size_t len, off_t off)
{
	return read_at(src, buf, len, off);
}

/* The member at ORIGIN of the regular archive PATH, named by a thin archive. */
static int scan_nested_member(const char *path, off_t origin,
			      struct archive_ctx *ctx, const char *thin)
{
	struct region r, m;
	struct scan_object obj = { .path = path };
	struct ar ar;
	struct ar_member member;
	int rc;

	if (open_region(path, &r, thin) != 0)
		return -1;
	if (measure_region(&r) != 0 ||
	    ar_open(&ar, ar_read_region, &r, r.size, path) != 1 ||
	    ar_member_at(&ar, origin, &member) != 1) {
		error("%s: no archive member at offset %lld (named by %s)", path,
		      (long long)origin, thin);
		close(r.fd);
		return -1;
	}
	m = r;
	m.base = obj.offset = member.data;
	m.size = member.size;
	m.head_len = 0;
	obj.member = xasprintf("@%lld", (long long)origin);
	m.member = obj.member;
	rc = scan_elf(&m, &obj);
	if (rc > 0)
		rc = ctx->visit(&obj, ctx->data);
	free((char *)obj.member);
	close(r.fd);
	return rc < 0 ? -1 : rc;
}

/* A member of a thin archive: its own file, or a member of a regular archive. */
static int scan_thin_member(const struct region *r, const struct ar_member *m,
			    struct archive_ctx *ctx)
{
	char *dir = dir_name(r->path), *member_path = path_join(dir, m->name);
	int rc;

	ctx->depth++;
	if (ctx->depth > SCAN_MAX_NESTING)
		rc = corrupt(r, "thin archives nested too deeply");
	else if (++ctx->members > SCAN_MAX_MEMBERS)
		rc = error("%s: thin archives name more than %d members in all "
			   "(one named over and over?)", r->path,
			   SCAN_MAX_MEMBERS) ? -1 : 0;
	else if (m->origin)
		rc = scan_nested_member(member_path, m->origin, ctx, r->path);
	else
		rc = scan_path(member_path, ctx, NULL, r->path);
	ctx->depth--;
	free(member_path);
	free(dir);
	return rc;
}

static int scan_member(const struct region *r, const struct ar_member *m,
		       struct archive_ctx *ctx)
{
	struct region mr = { r->fd, r->base + m->data, m->size, r->path,
			     m->name, NULL, { 0 }, 0 };
	struct scan_object obj = { .path = r->path, .member = m->name,
				   .offset = r->base + m->data };
	int elf = scan_elf(&mr, &obj);

	if (elf < 0)
		return -1;
	return elf > 0 ? ctx->visit(&obj, ctx->data) : 0;
}

static int scan_archive(const struct region *r, struct archive_ctx *ctx,
			struct scan_file_info *info)
{
	struct ar ar;
	struct ar_member m;
	int rc = 0, more;

	ar_open(&ar, ar_read_region, (void *)r, r->size, r->path);
	while (rc == 0 && (more = ar_next(&ar, &m)) != 0) {
		if (more < 0)
			rc = error("%s", ar.why) ? -1 : 0;
		else if (m.index && info && ar.thin)
			info->lto_ld_thin = ar_index_names(&ar, m.data, m.size,
							   LTO_LD_THIN_MARKER);
		else if (!m.index && !m.name)
			rc = error("%s: corrupt archive member name at offset %lld",
				   r->path, (long long)m.header) ? -1 : 0;
		else if (!m.index)
			rc = ar.thin ? scan_thin_member(r, &m, ctx)
				     : scan_member(r, &m, ctx);
		free(m.name);
	}
	ar_close(&ar);
	return rc;
}

/*
 * Open PATH and read its first bytes; ARCHIVE names the thin archive that
 * refers to it, if any.  This runs once per input object: keep it cheap.
 */
static int open_region(const char *path, struct region *r, const char *archive)
{
	ssize_t got;

	memset(r, 0, sizeof(*r));
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		if (archive)
			error("%s: member %s is missing (%s)", archive, path,
			      strerror(errno));
		else
			error("%s: %s", path, strerror(errno));
		return -1;
	}
	do
		got = pread(r->fd, r->head, sizeof(r->head), 0);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		if (archive)
			error("%s: member %s cannot be read (%s)", archive,
			      path, strerror(errno));
		else
			error("%s: %s", path, strerror(errno));
		close(r->fd);
		return -1;
	}
	r->head_len = (size_t)got;
	r->size = got < (ssize_t)sizeof(r->head) ? got : SIZE_UNKNOWN;
	r->path = path;
	return 0;
}

/* Archives are walked member by member up to their real end. */
static int measure_region(struct region *r)
{
	struct stat st;

	if (fstat(r->fd, &st) != 0)
		return error("%s: %s", r->path, strerror(errno)), -1;
	r->size = st.st_size;
	return 0;
}

static enum file_kind kind_of(const struct region *r)
{
	char magic[8];

	if (!read_at(r, magic, sizeof(magic), 0))
		return read_at(r, magic, 4, 0) && !memcmp(magic, "\177ELF", 4)
			       ? FILE_ELF : FILE_OTHER;
	if (!memcmp(magic, AR_MAGIC, 8))
		return FILE_ARCHIVE;
	if (!memcmp(magic, AR_THIN_MAGIC, 8))
		return FILE_THIN_ARCHIVE;
	if (!memcmp(magic, "\177ELF", 4))
		return FILE_ELF;
	return FILE_OTHER;
}

/* A thin archive is only headers and names: read it whole, once. */
#define THIN_IN_MEMORY_MAX (64 << 20)

static int scan_path(const char *path, struct archive_ctx *ctx,
		     struct scan_file_info *info, const char *archive)
{
	struct region r;
	struct scan_object obj = { .path = path, .in_thin_archive = ctx->depth > 0 };
	enum file_kind kind;
	unsigned char *mem = NULL;
	int rc = 0;

	if (open_region(path, &r, archive) != 0)
		return -1;
	kind = kind_of(&r);
	if (info)
		info->kind = kind;
	switch (kind) {
	case FILE_ELF:
		/* counts and offsets in the headers are checked against the real size */
		if (r.size == SIZE_UNKNOWN && measure_region(&r) != 0) {
			rc = -1;
			break;
		}
		rc = scan_elf(&r, &obj);
		rc = rc < 0 ? -1 : ctx->visit(&obj, ctx->data);
		break;
	case FILE_THIN_ARCHIVE:
		if (measure_region(&r) != 0) {
			rc = -1;
			break;
		}
		if (r.size <= THIN_IN_MEMORY_MAX) {
			mem = xmalloc((size_t)r.size + 1);
			if (read_at(&r, mem, (size_t)r.size, 0))
				r.mem = mem;
		}
		rc = scan_archive(&r, ctx, info);
		break;
	case FILE_ARCHIVE:
		rc = measure_region(&r) ? -1 : scan_archive(&r, ctx, info);
		break;
	case FILE_OTHER:
		break;
	}
	free(mem);
	close(r.fd);
	return rc;
}

int scan_file(const char *path, scan_visit_fn visit, void *data,
	      struct scan_file_info *info)
{
	struct archive_ctx ctx = { visit, data, 0, 0 };

	if (info)
		memset(info, 0, sizeof(*info));
	return scan_path(path, &ctx, info, NULL);
}

int scan_archive_members(const char *path, scan_member_fn visit, void *data)
{
	struct region r;
	struct ar ar;
	struct ar_member m;
	int rc = 0;

	if (open_region(path, &r, NULL) != 0)
		return -1;
	if (measure_region(&r) != 0 ||
	    ar_open(&ar, ar_read_region, &r, r.size, path) != 1 || ar.thin) {
		close(r.fd);
		return -1;
	}
	/* what precedes a corrupt or truncated entry is still named */
	while (!rc && ar_next(&ar, &m) > 0) {
		if (!m.index)
			rc = visit(m.data, m.name, data);
		free(m.name);
	}
	ar_close(&ar);
	close(r.fd);
	return rc;
}

struct member_at {
	off_t data_offset;
	char *name;
};

static int member_at(off_t data_offset, const char *name, void *data)
{
	struct member_at *m = data;

	if (data_offset < m->data_offset)
		return 0;
	if (data_offset == m->data_offset && name)
		m->name = xstrdup(name);
	return 1;	/* found, or past it */
}

char *scan_member_name(const char *path, off_t data_offset)
{
	struct member_at m = { data_offset, NULL };

	scan_archive_members(path, member_at, &m);
	return m.name;
}

int scan_file_kind(const char *path, struct scan_file_info *info)
{
	struct region r;
	struct ar ar;
	struct ar_member m;

	memset(info, 0, sizeof(*info));
	if (open_region(path, &r, NULL) != 0)
		return -1;
	info->kind = kind_of(&r);
	/* the marker is in the index, which ar writes first */
	if (info->kind == FILE_THIN_ARCHIVE && measure_region(&r) == 0 &&
	    ar_open(&ar, ar_read_region, &r, r.size, path) == 1) {
		if (ar_next(&ar, &m) > 0 && m.index)
			info->lto_ld_thin = ar_index_names(&ar, m.data, m.size,
							   LTO_LD_THIN_MARKER);
		free(m.name);
		ar_close(&ar);
	}
	close(r.fd);
	return 0;
}
