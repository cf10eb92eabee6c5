#include "ar.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tables read into memory are bounded: no sane archive comes near. */
#define AR_TABLE_MAX ((off_t)64 << 20)

__attribute__((format(printf, 2, 3)))
static int fail(struct ar *ar, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ar->why, sizeof(ar->why), fmt, ap);
	va_end(ap);
	return -1;
}

int ar_open(struct ar *ar, ar_read_fn read, void *src, off_t size,
	    const char *path)
{
	char magic[AR_MAGIC_SIZE];

	memset(ar, 0, sizeof(*ar));
	ar->read = read;
	ar->src = src;
	ar->size = size;
	ar->path = path;
	ar->next = AR_MAGIC_SIZE;
	if (size < AR_MAGIC_SIZE || !read(src, magic, sizeof(magic), 0))
		return 0;
	ar->thin = !memcmp(magic, AR_THIN_MAGIC, AR_MAGIC_SIZE);
	return ar->thin || !memcmp(magic, AR_MAGIC, AR_MAGIC_SIZE);
}

/* A decimal header field of WIDTH characters, space-padded. */
static bool parse_decimal(const char *field, size_t width, off_t *out)
{
	off_t v = 0;
	size_t i = 0;

	while (i < width && field[i] == ' ')
		i++;
	if (i == width || field[i] < '0' || field[i] > '9')
		return false;
	for (; i < width && field[i] >= '0' && field[i] <= '9'; i++) {
		if (v > (off_t)1 << 50)
			return false;
		v = v * 10 + (field[i] - '0');
	}
	for (; i < width; i++)
		if (field[i] != ' ')
			return false;
	*out = v;
	return true;
}

/* Is HDR a member header?  Its size into *SIZE. */
static bool header_ok(const char *hdr, off_t *size)
{
	return !memcmp(hdr + 58, "`\n", 2) && parse_decimal(hdr + 48, 10, size);
}

/*
 * A member's name from its header, following "/N" into the long-name
 * table as binutils does: the number ends at the first non-digit, and in
 * a thin archive "/N:OFFSET" names the member at OFFSET of the regular
 * archive N (*ORIGIN, else 0).
 */
static char *member_name(const struct ar *ar, const char *hdr, off_t *origin)
{
	size_t len;

	*origin = 0;
	if (hdr[0] == '/' && hdr[1] >= '0' && hdr[1] <= '9') {
		off_t off = 0;
		const char *start, *end, *p = hdr + 1;

		while (p < hdr + 16 && *p >= '0' && *p <= '9' && off < ((off_t)1 << 40))
			off = off * 10 + (*p++ - '0');
		if (p < hdr + 16 && *p == ':')
			for (p++; p < hdr + 16 && *p >= '0' && *p <= '9' &&
				  *origin < ((off_t)1 << 50); p++)
				*origin = *origin * 10 + (*p - '0');
		if (!ar->longnames || off >= ar->longnames_size)
			return NULL;
		start = ar->longnames + off;
		end = memchr(start, '\n', (size_t)(ar->longnames_size - off));
		if (!end)
			return NULL;
		len = (size_t)(end - start);
		if (len && start[len - 1] == '/')
			len--;
		return strndup(start, len);
	}
	for (len = 0; len < 16 && hdr[len] != '/' && hdr[len] != ' '; len++)
		;
	return strndup(hdr, len);
}

static bool is_index(const char *hdr)
{
	return !memcmp(hdr, "/               ", 16) ||
	       !memcmp(hdr, "/SYM64/         ", 16);
}

static bool is_longnames(const char *hdr)
{
	return !memcmp(hdr, "//              ", 16);
}

static int read_longnames(struct ar *ar, off_t data, off_t size)
{
	if (size > AR_TABLE_MAX)
		return fail(ar, "%s: long-name table too large", ar->path);
	free(ar->longnames);
	ar->longnames = malloc((size_t)size + 1);
	ar->longnames_size = size;
	if (!ar->longnames)
		return fail(ar, "%s: out of memory", ar->path);
	if (!ar->read(ar->src, ar->longnames, (size_t)size, data))
		return fail(ar, "%s: truncated archive long-name table", ar->path);
	return 0;
}

int ar_next(struct ar *ar, struct ar_member *m)
{
	char hdr[AR_HDR_SIZE];

	memset(m, 0, sizeof(*m));
	for (;;) {
		off_t off = ar->next, data = off + AR_HDR_SIZE, size;

		if (off >= ar->size)
			return 0;
		if (!ar->read(ar->src, hdr, AR_HDR_SIZE, off))
			return fail(ar, "%s: truncated archive member header", ar->path);
		if (!header_ok(hdr, &size))
			return fail(ar, "%s: corrupt archive member header at offset %lld",
				    ar->path, (long long)off);
		/* tables are read (members: below) before anything trusts their size */
		if ((is_index(hdr) || is_longnames(hdr)) && size > ar->size - data)
			return fail(ar, "%s: truncated: archive table extends "
				    "beyond end of archive", ar->path);
		ar->next = data + size + ((data + size) & 1);
		if (is_longnames(hdr)) {
			if (read_longnames(ar, data, size))
				return -1;
			continue;
		}
		m->header = off;
		m->data = data;
		m->size = size;
		m->index = is_index(hdr);
		if (m->index)
			return 1;
		m->name = member_name(ar, hdr, &m->origin);
		if (ar->thin) {
			ar->next = data;	/* thin members have no data here */
		} else if (size > ar->size - data) {
			fail(ar, "%s(%s): truncated: member extends beyond end "
			     "of archive", ar->path, m->name ? m->name : "?");
			free(m->name);
			m->name = NULL;
			return -1;
		}
		return 1;
	}
}

int ar_member_at(struct ar *ar, off_t header, struct ar_member *m)
{
	char hdr[AR_HDR_SIZE];
	off_t size;

	memset(m, 0, sizeof(*m));
	if (header < AR_MAGIC_SIZE || header > ar->size - AR_HDR_SIZE ||
	    !ar->read(ar->src, hdr, AR_HDR_SIZE, header) || !header_ok(hdr, &size) ||
	    size > ar->size - header - AR_HDR_SIZE)
		return fail(ar, "%s: no archive member at offset %lld", ar->path,
			    (long long)header);
	m->header = header;
	m->data = header + AR_HDR_SIZE;
	m->size = size;
	return 1;
}

bool ar_index_names(struct ar *ar, off_t off, off_t size, const char *symbol)
{
	size_t len = strlen(symbol) + 1;	/* with its terminator */
	char *map;
	bool found = false;

	if (size <= 0 || size > AR_TABLE_MAX || !(map = malloc((size_t)size + 1)))
		return false;
	if (ar->read(ar->src, map, (size_t)size, off)) {
		map[size] = '\0';
		for (off_t i = 0; i + (off_t)len <= size + 1 && !found; i++)
			found = map[i] == symbol[0] && !memcmp(map + i, symbol, len);
	}
	free(map);
	return found;
}

void ar_close(struct ar *ar)
{
	free(ar->longnames);
	ar->longnames = NULL;
}
