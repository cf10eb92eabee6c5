/*
 * Unit tests of the ELF reader (lib/elf.c) on objects built byte by
 * byte: both classes and byte orders, extended numbering (e_shnum 0,
 * e_shstrndx SHN_XINDEX, symbols through SHT_SYMTAB_SHNDX), GCC's IR
 * symbol table, an object at a 4 GiB offset of a sparse file, and
 * corrupt headers; and elf_localize's in-place edit of those objects.
 */
#include "../../lib/elf.h"
#include "tap.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/lto-ld-elf.XXXXXX";

static void put(unsigned char *p, uint64_t v, int size, int be)
{
	for (int i = 0; i < size; i++)
		p[be ? size - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* What to build: NSEC sections in all, with extended numbering or not. */
struct spec {
	int is64, be;
	uint32_t nsec;		/* at least 7 */
	int extended;		/* e_shnum 0, e_shstrndx SHN_XINDEX */
};

/* Fixed sections; the others (6..nsec-1) are empty ".s", the last one not allocated. */
enum { S_SHSTRTAB = 1, S_STRTAB, S_SYMTAB, S_SHNDX, S_IR, S_FIRST_FILLER };

static const char shstrtab[] = "\0.shstrtab\0.strtab\0.symtab\0.symtab_shndx\0"
			       ".gnu.lto_.symtab.1\0.s";
static const char strtab[] = "\0low\0high\0undef\0abs";
/* two IR entries: "ir_def" defined, "ir_undef" undefined */
static const unsigned char ir_table[] =
	"ir_def\0\0\0\0" "\0\0\0\0\0\0\0\0" "\0\0\0\0"
	"ir_undef\0\0\2\0" "\0\0\0\0\0\0\0\0" "\0\0\0\0";

static uint32_t name_of(const char *name)
{
	for (size_t i = 0; i < sizeof(shstrtab); i += strlen(shstrtab + i) + 1)
		if (!strcmp(shstrtab + i, name))
			return (uint32_t)i;
	return 0;
}

static void put_shdr(const struct spec *s, unsigned char *sh, uint32_t name,
		     uint32_t type, uint64_t flags, uint64_t off, uint64_t size,
		     uint32_t link, uint64_t entsize)
{
	put(sh, name, 4, s->be);
	put(sh + 4, type, 4, s->be);
	if (s->is64) {
		put(sh + 8, flags, 8, s->be);
		put(sh + 24, off, 8, s->be);
		put(sh + 32, size, 8, s->be);
		put(sh + 40, link, 4, s->be);
		put(sh + 56, entsize, 8, s->be);
	} else {
		put(sh + 8, flags, 4, s->be);
		put(sh + 16, off, 4, s->be);
		put(sh + 20, size, 4, s->be);
		put(sh + 24, link, 4, s->be);
		put(sh + 36, entsize, 4, s->be);
	}
}

static void put_sym(const struct spec *s, unsigned char *p, uint32_t name,
		    unsigned bind, unsigned vis, uint32_t shndx)
{
	uint16_t raw = shndx >= SHN_LORESERVE && shndx != SHN_ABS ? SHN_XINDEX
								    : (uint16_t)shndx;

	put(p, name, 4, s->be);
	p[s->is64 ? 4 : 12] = (unsigned char)(bind << 4 | STT_OBJECT);
	p[s->is64 ? 5 : 13] = (unsigned char)vis;
	put(p + (s->is64 ? 6 : 14), raw, 2, s->be);
}

/* The object S describes, malloc'd; *LEN its size. */
static unsigned char *build(const struct spec *s, size_t *len)
{
	size_t eh = s->is64 ? 64 : 52, shent = s->is64 ? 64 : 40;
	size_t syment = s->is64 ? 24 : 16, nsym = 5;
	size_t o_shstr = eh, o_str = o_shstr + sizeof(shstrtab);
	size_t o_sym = (o_str + sizeof(strtab) + 7) & ~(size_t)7;
	size_t o_shndx = o_sym + nsym * syment, o_ir = o_shndx + nsym * 4;
	size_t shoff = (o_ir + sizeof(ir_table) + 7) & ~(size_t)7;
	uint32_t high = s->nsec - 1;
	unsigned char *b;

	*len = shoff + (size_t)s->nsec * shent;
	b = calloc(1, *len);
	memcpy(b, ELFMAG, SELFMAG);
	b[EI_CLASS] = s->is64 ? ELFCLASS64 : ELFCLASS32;
	b[EI_DATA] = s->be ? ELFDATA2MSB : ELFDATA2LSB;
	b[EI_VERSION] = EV_CURRENT;
	put(b + 16, ET_REL, 2, s->be);
	put(b + 18, EM_ARM, 2, s->be);
	put(b + (s->is64 ? 40 : 32), shoff, s->is64 ? 8 : 4, s->be);
	put(b + (s->is64 ? 58 : 46), shent, 2, s->be);
	put(b + (s->is64 ? 60 : 48), s->extended ? 0 : s->nsec, 2, s->be);
	put(b + (s->is64 ? 62 : 50), s->extended ? SHN_XINDEX : S_SHSTRTAB, 2, s->be);
	memcpy(b + o_shstr, shstrtab, sizeof(shstrtab));
	memcpy(b + o_str, strtab, sizeof(strtab));
	memcpy(b + o_ir, ir_table, sizeof(ir_table));
	put_sym(s, b + o_sym + 1 * syment, 1, STB_GLOBAL, STV_DEFAULT, S_FIRST_FILLER);
	put_sym(s, b + o_sym + 2 * syment, 5, STB_WEAK, STV_HIDDEN, high);
	put_sym(s, b + o_sym + 3 * syment, 10, STB_GLOBAL, STV_DEFAULT, SHN_UNDEF);
	put_sym(s, b + o_sym + 4 * syment, 16, STB_GLOBAL, STV_DEFAULT, SHN_ABS);
	put(b + o_shndx + 2 * 4, high, 4, s->be);
	if (s->extended)
		put_shdr(s, b + shoff, 0, SHT_NULL, 0, 0, s->nsec, S_SHSTRTAB, 0);
	put_shdr(s, b + shoff + S_SHSTRTAB * shent, name_of(".shstrtab"),
		 SHT_STRTAB, 0, o_shstr, sizeof(shstrtab), 0, 0);
	put_shdr(s, b + shoff + S_STRTAB * shent, name_of(".strtab"),
		 SHT_STRTAB, 0, o_str, sizeof(strtab), 0, 0);
	put_shdr(s, b + shoff + S_SYMTAB * shent, name_of(".symtab"),
		 SHT_SYMTAB, 0, o_sym, nsym * syment, S_STRTAB, syment);
	put_shdr(s, b + shoff + S_SHNDX * shent, name_of(".symtab_shndx"),
		 SHT_SYMTAB_SHNDX, 0, o_shndx, nsym * 4, S_SYMTAB, 4);
	put_shdr(s, b + shoff + S_IR * shent, name_of(".gnu.lto_.symtab.1"),
		 SHT_PROGBITS, 0, o_ir, sizeof(ir_table), 0, 0);
	for (uint32_t i = S_FIRST_FILLER; i < s->nsec; i++)
		put_shdr(s, b + shoff + (size_t)i * shent, name_of(".s"),
			 SHT_PROGBITS, i == high ? 0 : SHF_ALLOC, eh, 0, 0, 0);
	return b;
}

static char *write_object(const char *name, const unsigned char *b, size_t len,
			  off_t at)
{
	char *path = malloc(strlen(dir) + strlen(name) + 2);
	int fd;

	sprintf(path, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || pwrite(fd, b, len, at) != (ssize_t)len)
		abort();
	close(fd);
	return path;
}

/* What the walks below saw. */
struct seen {
	int symbols, ir_defs, ir_undefs;
	uint32_t high_shndx;
	int high_in_section, abs_in_section, undef_in_section;
	char low_bind, high_vis;
};

static int see_symbol(const struct elf_symbol *sym, void *data)
{
	struct seen *seen = data;

	seen->symbols++;
	if (!sym->name)
		return 0;
	if (!strcmp(sym->name, "low"))
		seen->low_bind = (char)sym->bind;
	if (!strcmp(sym->name, "high")) {
		seen->high_shndx = sym->shndx;
		seen->high_in_section = sym->in_section;
		seen->high_vis = (char)sym->visibility;
	}
	if (!strcmp(sym->name, "abs"))
		seen->abs_in_section = sym->in_section;
	if (!strcmp(sym->name, "undef"))
		seen->undef_in_section = sym->in_section;
	return 0;
}

static int see_ir(const struct gcc_ir_symbol *sym, void *data)
{
	struct seen *seen = data;

	if (sym->kind == GCC_IR_DEF && !strcmp(sym->name, "ir_def"))
		seen->ir_defs++;
	if (sym->kind == GCC_IR_UNDEF && !strcmp(sym->name, "ir_undef"))
		seen->ir_undefs++;
	return 0;
}

/* Open the object written at AT of PATH and check all it should hold. */
static void check_object(const char *what, const char *path, off_t at,
			 size_t len, const struct spec *s)
{
	int fd = open(path, O_RDONLY);
	struct elf_in in = { fd, at, len, NULL, 0 };
	struct seen seen = { 0 };
	struct elf e;
	Elf64_Shdr sh;
	size_t ir_len = 0;
	unsigned char *ir;
	int rc = elf_open(&e, &in);

	ok(rc == 1 && e.is64 == !!s->is64 && e.big_endian == !!s->be &&
	   e.type == ET_REL && e.machine == EM_ARM, "%s: header", what);
	rc = elf_read_sections(&e);
	ok(rc == 0 && e.shnum == s->nsec && e.shstrndx == S_SHSTRTAB,
	   "%s: %u sections, names in section %u", what, e.shnum, e.shstrndx);
	elf_section(&e, s->nsec - 1, &sh);
	is_str(elf_section_name(&e, &sh), ".s", "%s: the last section's name", what);
	ok(sh.sh_type == SHT_PROGBITS && !(sh.sh_flags & SHF_ALLOC),
	   "%s: the last section's type and flags", what);
	rc = elf_symbols(&e, S_SYMTAB, see_symbol, &seen);
	ok(rc == 0 && seen.symbols == 5 && seen.low_bind == STB_GLOBAL,
	   "%s: symbols read", what);
	ok(seen.high_shndx == s->nsec - 1 && seen.high_in_section &&
	   seen.high_vis == STV_HIDDEN,
	   "%s: a symbol of section %u (SHN_XINDEX when >= 65,280)", what,
	   s->nsec - 1);
	ok(!seen.abs_in_section && !seen.undef_in_section,
	   "%s: SHN_ABS and SHN_UNDEF are no sections", what);
	ir = elf_load_section(&e, ".gnu.lto_.symtab.1", &ir_len);
	ok(ir && gcc_ir_symbols(ir, ir_len, see_ir, &seen) == 0 &&
	   seen.ir_defs == 1 && seen.ir_undefs == 1, "%s: GCC IR symbol table", what);
	free(ir);
	elf_close(&e);
	close(fd);
}

static void test_classes(void)
{
	for (int is64 = 0; is64 < 2; is64++)
		for (int be = 0; be < 2; be++) {
			struct spec s = { is64, be, 8, 0 };
			size_t len;
			unsigned char *b = build(&s, &len);
			char what[64], *path;

			snprintf(what, sizeof(what), "ELF%d %s", is64 ? 64 : 32,
				 be ? "big-endian" : "little-endian");
			path = write_object("small.o", b, len, 0);
			check_object(what, path, 0, len, &s);
			free(path);
			free(b);
		}
}

/* More sections than e_shnum holds: 65,300, in both byte orders. */
static void test_extended(void)
{
	for (int be = 0; be < 2; be++) {
		struct spec s = { 1, be, 65300, 1 };
		size_t len;
		unsigned char *b = build(&s, &len);
		char *path = write_object("many.o", b, len, 0);

		check_object(be ? "extended numbering, big-endian"
				: "extended numbering", path, 0, len, &s);
		free(path);
		free(b);
	}
}

/* An object 4 GiB into a sparse file, as in an archive that large. */
static void test_far_offset(void)
{
	struct spec s = { 0, 0, 8, 0 };
	off_t at = ((off_t)4 << 30) + 68;
	size_t len;
	unsigned char *b = build(&s, &len);
	char *path = write_object("far.a", b, len, at);

	check_object("an object at 4 GiB + 68", path, at, len, &s);
	unlink(path);
	free(path);
	free(b);
}

static int64_t localized_count;

static bool pick_high(const struct elf *e, const struct elf_symbol *sym, void *data)
{
	(void)e;
	(void)data;
	return sym->name && !strcmp(sym->name, "high");
}

/* What elf_localize left: symbol I's name and binding, in order. */
struct after {
	const char *names[5];
	unsigned char binds[5];
	uint32_t high_shndx;
	int n;
};

static int see_after(const struct elf_symbol *sym, void *data)
{
	struct after *a = data;

	if (a->n < 5) {
		a->names[a->n] = sym->name && *sym->name ? strdup(sym->name) : NULL;
		a->binds[a->n] = sym->bind;
	}
	if (sym->name && !strcmp(sym->name, "high"))
		a->high_shndx = sym->shndx;
	a->n++;
	return 0;
}

/*
 * "high" (weak, hidden, the last symbol but two) made local in place:
 * it moves to index 1, before "low", sh_info becomes 2, and its section
 * index (SHN_XINDEX in the extended case) moves with it.
 */
static void check_localize(const char *what, const struct spec *s)
{
	size_t len, shent = s->is64 ? 64 : 40;
	unsigned char *b = build(s, &len);
	size_t shoff = len - (size_t)s->nsec * shent;
	char *path;
	struct after a = { { NULL }, { 0 }, 0, 0 };
	struct elf e;
	Elf64_Shdr sh;

	put(b + shoff + S_SYMTAB * shent + (s->is64 ? 44 : 28), 1, 4, s->be);
	path = write_object("local.o", b, len, 0);
	localized_count = -1;
	if (elf_open_path_rw(&e, path) == 1 && elf_read_sections(&e) == 0)
		localized_count = elf_localize(&e, pick_high, NULL);
	elf_close(&e);
	ok(localized_count == 1, "%s: one symbol made local", what);
	if (elf_open_path(&e, path) == 1 && elf_read_sections(&e) == 0) {
		elf_section(&e, S_SYMTAB, &sh);
		elf_symbols(&e, S_SYMTAB, see_after, &a);
	}
	elf_close(&e);
	ok(sh.sh_info == 2 && a.n == 5 && a.names[1] && !strcmp(a.names[1], "high") &&
	   a.binds[1] == STB_LOCAL && a.names[2] && !strcmp(a.names[2], "low") &&
	   a.binds[2] == STB_GLOBAL && a.names[3] && !strcmp(a.names[3], "undef"),
	   "%s: ...moved before the globals, sh_info 2", what);
	ok(a.high_shndx == s->nsec - 1, "%s: ...its section index with it (%u)", what,
	   a.high_shndx);
	for (int i = 0; i < 5; i++)
		free((char *)a.names[i]);
	unlink(path);
	free(path);
	free(b);
}

static void test_localize(void)
{
	for (int is64 = 0; is64 < 2; is64++)
		for (int be = 0; be < 2; be++) {
			struct spec s = { is64, be, 8, 0 };
			char what[64];

			snprintf(what, sizeof(what), "localize, ELF%d %s", is64 ? 64 : 32,
				 be ? "big-endian" : "little-endian");
			check_localize(what, &s);
		}
	check_localize("localize, extended numbering", &(struct spec){ 1, 1, 65300, 1 });
}

/* Open B (LEN bytes) and read its sections: elf_open's, then elf_read_sections's result. */
static int open_bytes(const unsigned char *b, size_t len, const char **why)
{
	char *path = write_object("bad.o", b, len, 0);
	int fd = open(path, O_RDONLY);
	struct elf_in in = { fd, 0, len, NULL, 0 };
	struct elf e;
	int rc = elf_open(&e, &in);

	if (rc == 1)
		rc = elf_read_sections(&e) ? -2 : 2;
	*why = e.why;
	elf_close(&e);
	close(fd);
	free(path);
	return rc;
}

static void test_corrupt(void)
{
	struct spec s = { 1, 0, 8, 1 };
	size_t len;
	unsigned char *b = build(&s, &len);
	const char *why = NULL;

	ok(open_bytes((const unsigned char *)"!<arch>\n", 8, &why) == 0,
	   "not ELF: 0, no error");
	ok(open_bytes(b, 40, &why) == -1 && why && strstr(why, "truncated ELF header"),
	   "cut in its header: %s", why ? why : "(no reason)");
	ok(open_bytes(b, len - 10, &why) == -2 && why && strstr(why, "truncated"),
	   "cut in its section headers: %s", why ? why : "(no reason)");
	put(b + len - 8 * 64 + 32, 1u << 30, 8, 0);	/* section 0's count */
	ok(open_bytes(b, len, &why) == -2 && why,
	   "extended count beyond the file: %s", why ? why : "(no reason)");
	put(b + len - 8 * 64 + 32, 8, 8, 0);
	put(b + len - 8 * 64 + 40, 9, 4, 0);		/* names in section 9 of 8 */
	ok(open_bytes(b, len, &why) == -2 && why && strstr(why, "name table index"),
	   "name table index beyond the count: %s", why ? why : "(no reason)");
	free(b);
}

static void test_no_sections(void)
{
	struct spec s = { 1, 0, 8, 0 };
	size_t len;
	unsigned char *b = build(&s, &len);
	const char *why;

	put(b + 40, 0, 8, 0);	/* e_shoff 0 */
	put(b + 60, 0, 2, 0);	/* e_shnum 0 */
	ok(open_bytes(b, len, &why) == 2, "no section headers: an object without sections");
	free(b);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 99;
	test_classes();
	test_extended();
	test_far_offset();
	test_corrupt();
	test_no_sections();
	test_localize();
	ok(!strcmp(elf_machine_name(EM_ARM), "ARM") &&
	   !strcmp(elf_machine_name(12345), "another machine"), "machine names");
	for (const char *const *f = (const char *const[]){ "small.o", "many.o",
							   "bad.o", NULL }; *f; f++) {
		char path[sizeof(dir) + 16];

		snprintf(path, sizeof(path), "%s/%s", dir, *f);
		unlink(path);
	}
	rmdir(dir);
	return tap_done();
}
