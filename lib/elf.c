#include "elf.h"
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How much before the section headers is read with them, for the names. */
#define NAMES_WINDOW 4096

static uint64_t get(const struct elf *e, const unsigned char *p, int size)
{
	uint64_t v = 0;

	for (int i = 0; i < size; i++)
		v = (v << 8) | p[e->big_endian ? i : size - 1 - i];
	return v;
}

static void put(const struct elf *e, unsigned char *p, int size, uint64_t v)
{
	for (int i = 0; i < size; i++)
		p[e->big_endian ? size - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* An address-sized field: 8 bytes at OFF64 in ELF64, 4 at OFF32 in ELF32. */
static uint64_t word(const struct elf *e, const unsigned char *p, int off32,
		     int off64)
{
	return e->is64 ? get(e, p + off64, 8) : get(e, p + off32, 4);
}

static int fail(struct elf *e, const char *why)
{
	e->why = why;
	return -1;
}

bool elf_pread(const struct elf *e, void *buf, size_t len, uint64_t off)
{
	if (off > e->in.size || len > e->in.size - off)
		return false;
	if (len == 0)
		return true;	/* an empty section: nothing to read, maybe no buffer */
	if (e->in.head && off + len <= e->in.head_len) {
		memcpy(buf, e->in.head + off, len);
		return true;
	}
	return pread_full(e->in.fd, buf, len, e->in.base + (off_t)off);
}

int elf_open(struct elf *e, const struct elf_in *in)
{
	unsigned char h[64];
	size_t head = in->size < 64 ? (size_t)in->size : 64;

	memset(e, 0, sizeof(*e));
	e->in = *in;
	if (head < 4 || !elf_pread(e, h, head, 0) || memcmp(h, ELFMAG, SELFMAG))
		return 0;
	if (head < sizeof(Elf32_Ehdr))
		return fail(e, "truncated ELF header");
	if ((h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64) ||
	    (h[EI_DATA] != ELFDATA2LSB && h[EI_DATA] != ELFDATA2MSB))
		return fail(e, "unknown ELF class or byte order");
	e->is64 = h[EI_CLASS] == ELFCLASS64;
	e->big_endian = h[EI_DATA] == ELFDATA2MSB;
	if (e->is64 && head < sizeof(Elf64_Ehdr))
		return fail(e, "truncated ELF header");
	e->type = (uint16_t)get(e, h + 16, 2);
	e->machine = (uint16_t)get(e, h + 18, 2);
	e->shoff = word(e, h, 32, 40);
	e->shentsize = (unsigned)get(e, h + (e->is64 ? 58 : 46), 2);
	e->shnum = (uint32_t)get(e, h + (e->is64 ? 60 : 48), 2);
	e->shstrndx = (uint32_t)get(e, h + (e->is64 ? 62 : 50), 2);
	return 1;
}

/* elf_open_path(), opened with FLAGS (O_RDONLY or O_RDWR). */
static int open_path(struct elf *e, const char *path, int flags)
{
	struct elf_in in = { -1, 0, 0, NULL, 0 };
	struct stat st;
	int rc;

	memset(e, 0, sizeof(*e));
	e->in.fd = -1;
	in.fd = open(path, flags | O_CLOEXEC);
	if (in.fd < 0 || fstat(in.fd, &st) != 0) {
		e->why = strerror(errno);
		if (in.fd >= 0)
			close(in.fd);
		return -1;
	}
	in.size = (uint64_t)st.st_size;
	rc = elf_open(e, &in);
	e->in.fd = in.fd;
	e->owns_fd = true;	/* closed by elf_close() */
	return rc;
}

int elf_open_path(struct elf *e, const char *path)
{
	return open_path(e, path, O_RDONLY);
}

int elf_open_path_rw(struct elf *e, const char *path)
{
	return open_path(e, path, O_RDWR);
}

void elf_section(const struct elf *e, uint32_t i, Elf64_Shdr *sh)
{
	const unsigned char *p = e->shdrs + (size_t)i * e->shentsize;

	sh->sh_name = (uint32_t)get(e, p, 4);
	sh->sh_type = (uint32_t)get(e, p + 4, 4);
	sh->sh_flags = word(e, p, 8, 8);
	sh->sh_addr = word(e, p, 12, 16);
	sh->sh_offset = word(e, p, 16, 24);
	sh->sh_size = word(e, p, 20, 32);
	sh->sh_link = (uint32_t)get(e, p + (e->is64 ? 40 : 24), 4);
	sh->sh_info = (uint32_t)get(e, p + (e->is64 ? 44 : 28), 4);
	sh->sh_addralign = word(e, p, 32, 48);
	sh->sh_entsize = word(e, p, 36, 56);
}

/* e_shnum == 0, e_shstrndx == SHN_XINDEX: the real values are in section 0. */
static int extended_numbering(struct elf *e)
{
	unsigned char first[sizeof(Elf64_Shdr)];
	unsigned char *saved = e->shdrs;
	Elf64_Shdr sh;

	if (!elf_pread(e, first, e->shentsize, e->shoff))
		return fail(e, "truncated: section headers beyond end of file");
	e->shdrs = first;
	elf_section(e, 0, &sh);
	e->shdrs = saved;
	if (e->shnum == 0)
		e->shnum = sh.sh_size > UINT32_MAX ? UINT32_MAX : (uint32_t)sh.sh_size;
	if (e->shstrndx == SHN_XINDEX)
		e->shstrndx = sh.sh_link;
	return 0;
}

int elf_read_sections(struct elf *e)
{
	uint64_t window, table;
	Elf64_Shdr strtab;
	unsigned char *buf;

	if (e->shoff == 0) {
		e->shnum = 0;
		return 0;
	}
	if (e->shentsize != (e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)))
		return fail(e, "bad section header size");
	if ((e->shnum == 0 || e->shstrndx == SHN_XINDEX) && extended_numbering(e))
		return -1;
	if (e->shstrndx >= e->shnum || e->shnum > ELF_MAX_SECTIONS)
		return fail(e, "bad section count or name table index");
	table = (uint64_t)e->shnum * e->shentsize;
	if (table > e->in.size || e->shoff > e->in.size - table)
		return fail(e, "truncated: section headers beyond end of file");
	/* The name table usually sits just before the headers: one read for both. */
	window = e->shoff < NAMES_WINDOW ? e->shoff : NAMES_WINDOW;
	buf = malloc(window + table);
	if (!buf)
		return fail(e, "out of memory");
	e->buf = buf;
	if (!elf_pread(e, buf, window + table, e->shoff - window))
		return fail(e, "truncated: section headers beyond end of file");
	e->shdrs = buf + window;
	elf_section(e, e->shstrndx, &strtab);
	if (strtab.sh_size > e->in.size || strtab.sh_size > ELF_MAX_NAMES_SIZE)
		return fail(e, "truncated: section names beyond end of file");
	e->names = malloc(strtab.sh_size + 1);
	if (!e->names)
		return fail(e, "out of memory");
	if (strtab.sh_offset >= e->shoff - window && strtab.sh_offset <= e->shoff &&
	    strtab.sh_size <= e->shoff - strtab.sh_offset)
		memcpy(e->names, buf + (strtab.sh_offset - (e->shoff - window)),
		       strtab.sh_size);
	else if (!elf_pread(e, e->names, strtab.sh_size, strtab.sh_offset))
		return fail(e, "truncated: section names beyond end of file");
	e->names[strtab.sh_size] = '\0';
	e->names_size = strtab.sh_size;
	return 0;
}

const char *elf_section_name(const struct elf *e, const Elf64_Shdr *sh)
{
	return sh->sh_name < e->names_size ? e->names + sh->sh_name : NULL;
}

void *elf_load(struct elf *e, uint64_t off, uint64_t size)
{
	unsigned char *p;

	if (size > e->in.size || off > e->in.size - size) {
		e->why = "truncated: section beyond end of file";
		return NULL;
	}
	p = malloc(size + 1);
	if (!p) {
		e->why = "out of memory";
		return NULL;
	}
	if (!elf_pread(e, p, size, off)) {
		free(p);
		e->why = "cannot read a section";
		return NULL;
	}
	p[size] = '\0';
	return p;
}

void *elf_load_section(struct elf *e, const char *name, size_t *len)
{
	Elf64_Shdr sh;

	for (uint32_t i = 1; i < e->shnum; i++) {
		const char *n;

		elf_section(e, i, &sh);
		n = elf_section_name(e, &sh);
		if (n && !strcmp(n, name)) {
			*len = sh.sh_size;
			return elf_load(e, sh.sh_offset, sh.sh_size);
		}
	}
	return NULL;
}

/* The SHT_SYMTAB_SHNDX section that goes with SYMTAB, loaded; NULL if none. */
static uint32_t *load_shndx(struct elf *e, uint32_t symtab, uint64_t count,
			    bool *bad)
{
	Elf64_Shdr sh;

	*bad = false;
	for (uint32_t i = 1; i < e->shnum; i++) {
		elf_section(e, i, &sh);
		if (sh.sh_type != SHT_SYMTAB_SHNDX || sh.sh_link != symtab)
			continue;
		if (sh.sh_size / 4 < count) {
			*bad = true;
			e->why = "bad extended section index table";
			return NULL;
		}
		return elf_load(e, sh.sh_offset, count * 4);
	}
	return NULL;
}

struct symtab {
	unsigned char *syms;
	char *strs;
	uint32_t *shndx;
	uint64_t count, entsize, strsize;
};

static int load_symtab(struct elf *e, uint32_t index, struct symtab *t)
{
	Elf64_Shdr sh, str;
	size_t min = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	bool bad;

	elf_section(e, index, &sh);
	if (sh.sh_entsize < min || sh.sh_link >= e->shnum)
		return fail(e, "bad symbol table");
	elf_section(e, sh.sh_link, &str);
	t->entsize = sh.sh_entsize;
	t->count = sh.sh_size / sh.sh_entsize;
	t->strsize = str.sh_size;
	if (!(t->syms = elf_load(e, sh.sh_offset, sh.sh_size)) ||
	    !(t->strs = elf_load(e, str.sh_offset, str.sh_size)))
		return -1;
	if (t->strsize && t->strs[t->strsize - 1] != '\0')
		return fail(e, "bad symbol table");
	t->shndx = load_shndx(e, index, t->count, &bad);
	return bad ? -1 : 0;
}

static void get_symbol(const struct elf *e, const struct symtab *t, uint64_t i,
		       struct elf_symbol *s)
{
	const unsigned char *p = t->syms + i * t->entsize;
	uint32_t name = (uint32_t)get(e, p, 4);
	unsigned info = p[e->is64 ? 4 : 12], other = p[e->is64 ? 5 : 13];

	s->name = name < t->strsize ? t->strs + name : NULL;
	s->value = word(e, p, 4, 8);
	s->size = e->is64 ? get(e, p + 16, 8) : get(e, p + 8, 4);
	s->bind = (unsigned char)ELF64_ST_BIND(info);
	s->type = (unsigned char)ELF64_ST_TYPE(info);
	s->visibility = (unsigned char)ELF64_ST_VISIBILITY(other);
	s->shndx = (uint32_t)get(e, p + (e->is64 ? 6 : 14), 2);
	s->in_section = s->shndx != SHN_UNDEF && s->shndx < SHN_LORESERVE;
	if (s->shndx == SHN_XINDEX && t->shndx) {
		s->shndx = (uint32_t)get(e, (const unsigned char *)&t->shndx[i], 4);
		s->in_section = true;
	}
}

int elf_symbols(struct elf *e, uint32_t symtab, elf_symbol_fn visit, void *data)
{
	struct symtab t = { NULL, NULL, NULL, 0, 0, 0 };
	int rc = symtab < e->shnum ? load_symtab(e, symtab, &t)
				   : fail(e, "bad symbol table");

	for (uint64_t i = 0; rc == 0 && i < t.count; i++) {
		struct elf_symbol s;

		get_symbol(e, &t, i, &s);
		rc = visit(&s, data);
	}
	free(t.syms);
	free(t.strs);
	free(t.shndx);
	return rc;
}

/* LEN bytes of BUF to OFF of the object, which must already hold that many. */
static int elf_pwrite(struct elf *e, const void *buf, uint64_t len, uint64_t off)
{
	if (off > e->in.size || len > e->in.size - off)
		return fail(e, "truncated: section beyond end of file");
	if (!pwrite_full(e->in.fd, buf, len, e->in.base + (off_t)off))
		return fail(e, strerror(errno));
	return 0;
}

/* Section I's field of SIZE bytes at AT becomes V, in E's headers and in the file. */
static int set_sh_field(struct elf *e, uint32_t i, int at, int size, uint64_t v)
{
	unsigned char *p = e->shdrs + (size_t)i * e->shentsize;

	put(e, p + at, size, v);
	return elf_pwrite(e, p + at, (uint64_t)size,
			  e->shoff + (uint64_t)i * e->shentsize + (uint64_t)at);
}

static int set_sh_info(struct elf *e, uint32_t i, uint32_t info)
{
	return set_sh_field(e, i, e->is64 ? 44 : 28, 4, info);
}

static int set_sh_size(struct elf *e, uint32_t i, uint64_t size)
{
	return set_sh_field(e, i, e->is64 ? 32 : 20, e->is64 ? 8 : 4, size);
}

/* The relocations of SH (SHT_REL or SHT_RELA) name symbol I as MAP[I] now. */
static int renumber_relocations(struct elf *e, const Elf64_Shdr *sh,
				const uint32_t *map, uint64_t count)
{
	bool rela = sh->sh_type == SHT_RELA;
	uint64_t min = e->is64 ? (rela ? 24 : 16) : (rela ? 12 : 8);
	int size = e->is64 ? 8 : 4, shift = e->is64 ? 32 : 8;
	uint64_t type_mask = ((uint64_t)1 << shift) - 1;
	unsigned char *r;
	int rc;

	if (sh->sh_entsize < min)
		return fail(e, "bad relocation section");
	if (!(r = elf_load(e, sh->sh_offset, sh->sh_size)))
		return -1;
	for (uint64_t off = 0; off + sh->sh_entsize <= sh->sh_size; off += sh->sh_entsize) {
		/* r_info: the symbol above the type, after r_offset */
		uint64_t info = get(e, r + off + size, size);

		if (info >> shift >= count) {
			free(r);
			return fail(e, "a relocation names a symbol beyond the symbol table");
		}
		put(e, r + off + size, size,
		    (uint64_t)map[info >> shift] << shift | (info & type_mask));
	}
	rc = elf_pwrite(e, r, sh->sh_size, sh->sh_offset);
	free(r);
	return rc;
}

/* Everything that names symbols of SYMTAB by index follows MAP. */
static int renumber_references(struct elf *e, uint32_t symtab,
			       const uint32_t *map, uint64_t count)
{
	Elf64_Shdr sh;
	int rc = 0;

	for (uint32_t i = 1; rc == 0 && i < e->shnum; i++) {
		elf_section(e, i, &sh);
		if (sh.sh_link != symtab)
			continue;
		if (sh.sh_type == SHT_REL || sh.sh_type == SHT_RELA)
			rc = renumber_relocations(e, &sh, map, count);
		else if (sh.sh_type == SHT_GROUP && sh.sh_info < count)
			rc = set_sh_info(e, i, map[sh.sh_info]);	/* its signature */
	}
	return rc;
}

/*
 * T's symbols in their new order (old I at MAP[I]), the chosen ones
 * (MAP[I] < LOCALS, I >= FIRST_GLOBAL) bound local, the DROPPED ones
 * (if any) left out, written over T's table and its SHT_SYMTAB_SHNDX
 * section, which shrink to the KEPT symbols (zeros after them).
 */
static int write_symbols(struct elf *e, uint32_t symtab, const struct symtab *t,
			 const uint32_t *map, uint64_t first_global, uint64_t locals,
			 const uint32_t *dropped, uint64_t kept)
{
	unsigned char *syms = calloc(t->count, t->entsize);
	uint32_t *shndx = t->shndx ? calloc(t->count, 4) : NULL;
	int info = e->is64 ? 4 : 12, rc = 0;
	Elf64_Shdr sh;

	if (!syms || (t->shndx && !shndx))
		rc = fail(e, "out of memory");
	for (uint64_t i = 0; rc == 0 && i < t->count; i++) {
		unsigned char *p = syms + map[i] * t->entsize;

		if (dropped && dropped[i])
			continue;
		memcpy(p, t->syms + i * t->entsize, t->entsize);
		if (i >= first_global && map[i] < locals)
			p[info] = (unsigned char)ELF64_ST_INFO(STB_LOCAL, ELF64_ST_TYPE(p[info]));
		if (shndx)
			shndx[map[i]] = t->shndx[i];
	}
	elf_section(e, symtab, &sh);
	if (rc == 0)
		rc = elf_pwrite(e, syms, t->count * t->entsize, sh.sh_offset);
	if (rc == 0 && kept < t->count)
		rc = set_sh_size(e, symtab, kept * t->entsize);
	for (uint32_t i = 1; rc == 0 && shndx && i < e->shnum; i++) {
		elf_section(e, i, &sh);
		if (sh.sh_type != SHT_SYMTAB_SHNDX || sh.sh_link != symtab)
			continue;
		rc = elf_pwrite(e, shndx, t->count * 4, sh.sh_offset);
		if (rc == 0 && kept < t->count)
			rc = set_sh_size(e, i, kept * 4);
	}
	free(syms);
	free(shndx);
	return rc;
}

uint32_t elf_symtab(const struct elf *e)
{
	Elf64_Shdr sh;

	for (uint32_t i = 1; i < e->shnum; i++) {
		elf_section(e, i, &sh);
		if (sh.sh_type == SHT_SYMTAB)
			return i;
	}
	return 0;
}

int64_t elf_localize(struct elf *e, elf_pick_fn pick, void *data)
{
	struct symtab t = { NULL, NULL, NULL, 0, 0, 0 };
	uint32_t symtab = 0, *map = NULL;
	uint64_t first_global, picked = 0, next, rest;
	Elf64_Shdr sh;
	int rc;

	symtab = elf_symtab(e);
	if (!symtab)
		return 0;
	if (e->is64 && e->machine == EM_MIPS)
		return fail(e, "MIPS64 relocations are not supported");
	rc = load_symtab(e, symtab, &t);
	elf_section(e, symtab, &sh);
	first_global = sh.sh_info;
	/* (symbol 0, the null symbol, is local: sh_info is at least 1) */
	if (rc == 0 && t.count &&
	    (first_global == 0 || first_global > t.count || t.count > UINT32_MAX))
		rc = fail(e, "bad symbol table");
	if (rc == 0 && !(map = calloc(t.count + 1, sizeof(*map))))
		rc = fail(e, "out of memory");
	/* first the choice (1 in MAP), then the numbering: chosen ones after the locals */
	for (uint64_t i = first_global; rc == 0 && i < t.count; i++) {
		struct elf_symbol s;

		get_symbol(e, &t, i, &s);
		map[i] = s.bind != STB_LOCAL && pick(e, &s, data);
		picked += map[i];
	}
	next = first_global;
	rest = first_global + picked;
	for (uint64_t i = 0; rc == 0 && picked && i < t.count; i++)
		map[i] = (uint32_t)(i < first_global ? i : map[i] ? next++ : rest++);
	if (rc == 0 && picked)
		rc = write_symbols(e, symtab, &t, map, first_global, first_global + picked,
				   NULL, t.count);
	if (rc == 0 && picked)
		rc = set_sh_info(e, symtab, (uint32_t)(first_global + picked));
	if (rc == 0 && picked)
		rc = renumber_references(e, symtab, map, t.count);
	free(map);
	free(t.syms);
	free(t.strs);
	free(t.shndx);
	return rc ? -1 : (int64_t)picked;
}

/* Where a local symbol is, for finding the ones in one place. */
struct place {
	uint64_t value;
	uint32_t shndx, index;
};

static int by_place(const void *a, const void *b)
{
	const struct place *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * In each run of PLACES (sorted) at one place, a symbol with the name
 * (in NAMES), type and size of an earlier one that stays, one of the two
 * renamed (CUT), goes: DROPPED[I] is then that one's index.  How many go.
 */
static uint64_t drop_repeats(const struct elf *e, const struct symtab *t,
			     const char *names, const uint32_t *cut,
			     const struct place *places, uint64_t n,
			     uint32_t *dropped)
{
	uint64_t gone = 0;

	for (uint64_t run = 0, end; run < n; run = end) {
		for (end = run + 1; end < n &&
		     places[end].shndx == places[run].shndx &&
		     places[end].value == places[run].value; end++)
			;
		for (uint64_t j = run + 1; j < end; j++) {
			uint32_t a = places[j].index;
			struct elf_symbol sa;

			get_symbol(e, t, a, &sa);
			for (uint64_t k = run; k < j; k++) {
				uint32_t b = places[k].index;
				struct elf_symbol sb;

				get_symbol(e, t, b, &sb);
				if (dropped[b] || !(cut[a] || cut[b]) ||
				    sa.type != sb.type || sa.size != sb.size ||
				    strcmp(names + (sa.name - t->strs),
					   names + (sb.name - t->strs)))
					continue;
				dropped[a] = b;
				gone++;
				break;
			}
		}
	}
	return gone;
}

static int by_offset(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Does another name of T share a byte of the one at OFF (LEN bytes)?
 * ld writes a name that ends another once (STARTS: every name's
 * offset, sorted, N of them).
 */
static bool shares_bytes(const struct symtab *t, const uint64_t *starts,
			 uint64_t n, uint64_t off, size_t len)
{
	uint64_t lo = 0, hi = n;

	while (lo < hi) {	/* the first start at or after OFF */
		uint64_t mid = lo + (hi - lo) / 2;

		if (starts[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && starts[lo - 1] + strlen(t->strs + starts[lo - 1]) >= off)
		return true;	/* inside an earlier name */
	while (lo < n && starts[lo] == off)
		lo++;
	return lo < n && starts[lo] <= off + len;	/* a later one inside it */
}

/*
 * Local symbol I's name (S) as RENAME makes it, in NAMES (T's string table
 * as it will be written, TMP room for one name): CUT[I] is its length
 * plus one.  A name that only gets shorter ends early; another is
 * written over the old one, unless it shares bytes with another name.
 */
static void rename_local(const struct symtab *t, const struct elf_symbol *s,
			 uint64_t i, elf_rename_fn rename, void *data,
			 const uint64_t *starts, uint64_t n, char *names,
			 char *tmp, uint32_t *cut)
{
	uint64_t off = (uint64_t)(s->name - t->strs);
	size_t old = strlen(s->name), len = rename(s->name, tmp, data);

	if (len >= old)
		return;
	if (memcmp(tmp, s->name, len)) {
		if (shares_bytes(t, starts, n, off, old))
			return;
		memcpy(names + off, tmp, len);
	}
	names[off + len] = '\0';
	cut[i] = (uint32_t)len + 1;
}

int64_t elf_shorten_local_names(struct elf *e, elf_rename_fn rename, void *data)
{
	struct symtab t = { NULL, NULL, NULL, 0, 0, 0 };
	uint32_t symtab = elf_symtab(e), *cut = NULL, *dropped = NULL, *map = NULL;
	struct place *places = NULL;
	char *names = NULL, *tmp = NULL;	/* the string table as renamed */
	uint64_t *starts = NULL, locals, renamed = 0, n = 0, named = 0, gone = 0;
	Elf64_Shdr sh, str;
	int rc;

	if (!symtab)
		return 0;
	rc = load_symtab(e, symtab, &t);
	elf_section(e, symtab, &sh);
	elf_section(e, sh.sh_link, &str);
	locals = sh.sh_info;
	if (rc == 0 && t.count &&
	    (locals == 0 || locals > t.count || t.count > UINT32_MAX))
		rc = fail(e, "bad symbol table");
	if (rc == 0 && (!(cut = calloc(t.count + 1, sizeof(*cut))) ||
			!(dropped = calloc(t.count + 1, sizeof(*dropped))) ||
			!(map = calloc(t.count + 1, sizeof(*map))) ||
			!(starts = calloc(t.count + 1, sizeof(*starts))) ||
			!(places = calloc(locals + 1, sizeof(*places))) ||
			!(names = malloc(t.strsize + 1)) ||
			!(tmp = malloc(t.strsize + 1))))
		rc = fail(e, "out of memory");
	if (rc == 0)
		memcpy(names, t.strs, t.strsize);
	for (uint64_t i = 0; rc == 0 && i < t.count; i++) {
		struct elf_symbol s;

		get_symbol(e, &t, i, &s);
		if (s.name)
			starts[named++] = (uint64_t)(s.name - t.strs);
	}
	if (rc == 0)
		qsort(starts, named, sizeof(*starts), by_offset);
	for (uint64_t i = 1; rc == 0 && i < locals; i++) {
		struct elf_symbol s;

		get_symbol(e, &t, i, &s);
		if (!s.name || !s.in_section || s.type == STT_SECTION ||
		    s.type == STT_FILE)
			continue;
		places[n++] = (struct place){ s.value, s.shndx, (uint32_t)i };
		rename_local(&t, &s, i, rename, data, starts, named, names, tmp, cut);
		renamed += cut[i] != 0;
	}
	/* every name reads as meant once the table is written */
	for (uint64_t i = 0; rc == 0 && renamed && i < t.count; i++) {
		struct elf_symbol s;
		const char *now;

		get_symbol(e, &t, i, &s);
		now = s.name ? names + (s.name - t.strs) : NULL;
		if (now && (cut[i] ? strlen(now) != cut[i] - 1 : strcmp(now, s.name)))
			rc = fail(e, "a renamed symbol shares the bytes of its name "
				     "with another symbol");
	}
	if (rc == 0 && renamed) {
		qsort(places, n, sizeof(*places), by_place);
		gone = drop_repeats(e, &t, names, cut, places, n, dropped);
		for (uint64_t i = 0, next = 0; i < t.count; i++)
			if (!dropped[i])
				map[i] = (uint32_t)next++;
		for (uint64_t i = 0; i < t.count; i++)
			if (dropped[i])
				map[i] = map[dropped[i]];
		rc = elf_pwrite(e, names, t.strsize, str.sh_offset);
	}
	/* (no symbol is made local: none is at or past FIRST_GLOBAL = count) */
	if (rc == 0 && gone)
		rc = write_symbols(e, symtab, &t, map, t.count, 0, dropped,
				   t.count - gone);
	if (rc == 0 && gone)
		rc = set_sh_info(e, symtab, (uint32_t)(locals - gone));
	if (rc == 0 && gone)
		rc = renumber_references(e, symtab, map, t.count);
	free(places);
	free(starts);
	free(tmp);
	free(names);
	free(map);
	free(dropped);
	free(cut);
	free(t.syms);
	free(t.strs);
	free(t.shndx);
	return rc ? -1 : (int64_t)renamed;
}

void elf_close(struct elf *e)
{
	free(e->buf);
	free(e->names);
	e->buf = e->names = NULL;
	e->shdrs = NULL;
	if (e->owns_fd && e->in.fd >= 0)
		close(e->in.fd);
	e->owns_fd = false;
}

int gcc_ir_symbols(const unsigned char *data, size_t size,
		   gcc_ir_symbol_fn visit, void *arg)
{
	const unsigned char *p = data, *end = data + size;
	int rc = 0;

	while (p < end && rc == 0) {
		struct gcc_ir_symbol s;

		s.name = (const char *)p;
		p = memchr(p, '\0', (size_t)(end - p));
		if (!p)
			break;
		s.comdat = (const char *)++p;
		p = memchr(p, '\0', (size_t)(end - p));
		if (!p || (size_t)(end - p) < 1 + 2 + 8 + 4)
			break;
		p++;
		s.kind = p[0];
		s.visibility = p[1];
		p += 2 + 8 + 4;
		rc = visit(&s, arg);
	}
	return rc;
}

const char *elf_machine_name(int machine)
{
	switch (machine) {
	case EM_386: return "i386";
	case EM_MIPS: return "MIPS";
	case EM_PPC: return "PowerPC";
	case EM_PPC64: return "PowerPC64";
	case EM_S390: return "S/390";
	case EM_ARM: return "ARM";
	case EM_X86_64: return "x86-64";
	case EM_AARCH64: return "AArch64";
	case EM_RISCV: return "RISC-V";
	}
	return "another machine";
}
