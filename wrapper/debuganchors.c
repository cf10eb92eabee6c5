#include "debuganchors.h"
#include "progs.h"
#include "run.h"
#include "strvec.h"
#include "tmp.h"
#include "toolchain.h"
#include "util.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHT_SYMTAB 2
#define SHF_ALLOC 0x2
#define SHN_UNDEF 0
#define STB_GLOBAL 1
#define STB_WEAK 2
#define STT_SECTION 3
#define STT_FILE 4
#define STV_HIDDEN 2
#define SHN_LORESERVE 0xff00
#define LTO_SYMTAB ".gnu.lto_.symtab"
/* GCC's IR symbol table: the kinds of entry that do not define the name */
#define LTO_KIND_UNDEF 2
#define LTO_KIND_WEAKUNDEF 3

struct elf_file {
	unsigned char *data;
	size_t size;
	bool is64, big_endian;
};

static uint64_t get(const struct elf_file *f, size_t off, int size)
{
	uint64_t v = 0;

	for (int i = 0; i < size; i++)
		v = (v << 8) | f->data[off + (size_t)(f->big_endian ? i : size - 1 - i)];
	return v;
}

/* Our own output, just written: read it whole (it is not an input scan). */
static int load(const char *path, struct elf_file *f)
{
	f->data = (unsigned char *)read_file(path, &f->size);
	if (!f->data)
		return error("%s: %s", path, strerror(errno));
	if (f->size < 64 || memcmp(f->data, "\177ELF", 4)) {
		free(f->data);
		f->data = NULL;
		return error("%s: not an ELF file", path);
	}
	f->is64 = f->data[4] == 2;
	f->big_endian = f->data[5] == 2;
	return 0;
}

/*
 * The definitions of a GCC IR symbol table section (DATA, SIZE bytes):
 * entries NAME\0 COMDAT\0 KIND VISIBILITY SIZE(8) SLOT(4).
 */
static void ir_definitions(const unsigned char *data, size_t size,
			   struct strvec *defined)
{
	const unsigned char *p = data, *end = data + size;

	while (p < end) {
		const unsigned char *name = p, *comdat;

		p = memchr(p, '\0', (size_t)(end - p));
		if (!p)
			return;
		comdat = ++p;
		p = memchr(comdat, '\0', (size_t)(end - comdat));
		if (!p || (size_t)(end - p) < 1 + 2 + 8 + 4)
			return;
		p++;
		if (*name && p[0] != LTO_KIND_UNDEF && p[0] != LTO_KIND_WEAKUNDEF)
			strvec_push(defined, (const char *)name);
		p += 2 + 8 + 4;
	}
}

/* The name of section header SH, or "" (STRSH: the section name table's header). */
static const char *section_name(const struct elf_file *f, size_t sh, size_t strsh)
{
	uint64_t name = get(f, sh, 4), off, size;

	if (!strsh)
		return "";
	off = get(f, strsh + (f->is64 ? 24 : 16), f->is64 ? 8 : 4);
	size = get(f, strsh + (f->is64 ? 32 : 20), f->is64 ? 8 : 4);
	if (off + size > f->size || name >= size ||
	    !memchr(f->data + off + name, '\0', (size_t)(size - name)))
		return "";
	return (const char *)f->data + off + name;
}

/*
 * One read of PATH's symbol tables.  ANCHORS, UNDEFINED: see
 * output_symbols.  DEFINED: every defined name (but section and file
 * symbols) of the ELF symbol table, locals too, and of GCC IR symbol
 * tables; *KNOWN set when there was a symbol table of either kind.
 */
static int read_symbols(const char *path, struct strvec *anchors,
			struct strvec *undefined, struct strvec *defined,
			bool *known)
{
	struct elf_file f = { NULL, 0, false, false };
	uint64_t shoff;
	unsigned shentsize, shnum, shstrndx;
	size_t strsh = 0;
	int rc = 0;

	if (known)
		*known = false;
	if (load(path, &f))
		return 1;
	shoff = get(&f, f.is64 ? 40 : 32, f.is64 ? 8 : 4);
	shentsize = (unsigned)get(&f, f.is64 ? 58 : 46, 2);
	shnum = (unsigned)get(&f, f.is64 ? 60 : 48, 2);
	shstrndx = (unsigned)get(&f, f.is64 ? 62 : 50, 2);
	if (shnum == 0 || shentsize < (f.is64 ? 64u : 40u) ||
	    shoff + (uint64_t)shnum * shentsize > f.size) {
		free(f.data);
		return error("%s: bad section headers", path);
	}
	if (shstrndx && shstrndx < shnum)
		strsh = (size_t)shoff + (size_t)shstrndx * shentsize;
	for (unsigned i = 0; i < shnum; i++) {
		size_t sh = (size_t)shoff + (size_t)i * shentsize;
		uint64_t off, size, entsize, stroff, strsize;
		size_t link_sh;

		if (defined && get(&f, sh + 4, 4) != SHT_SYMTAB &&
		    starts_with(section_name(&f, sh, strsh), LTO_SYMTAB)) {
			off = get(&f, sh + (f.is64 ? 24 : 16), f.is64 ? 8 : 4);
			size = get(&f, sh + (f.is64 ? 32 : 20), f.is64 ? 8 : 4);
			if (off + size > f.size) {
				rc = error("%s: bad IR symbol table", path);
				break;
			}
			ir_definitions(f.data + off, (size_t)size, defined);
			if (known)
				*known = true;
			continue;
		}
		if (get(&f, sh + 4, 4) != SHT_SYMTAB)
			continue;
		if (known)
			*known = true;
		off = get(&f, sh + (f.is64 ? 24 : 16), f.is64 ? 8 : 4);
		size = get(&f, sh + (f.is64 ? 32 : 20), f.is64 ? 8 : 4);
		entsize = get(&f, sh + (f.is64 ? 56 : 36), f.is64 ? 8 : 4);
		link_sh = (size_t)shoff + (size_t)get(&f, sh + (f.is64 ? 40 : 24), 4) * shentsize;
		if (link_sh + shentsize > f.size)
			break;
		stroff = get(&f, link_sh + (f.is64 ? 24 : 16), f.is64 ? 8 : 4);
		strsize = get(&f, link_sh + (f.is64 ? 32 : 20), f.is64 ? 8 : 4);
		if (!entsize || off + size > f.size || stroff + strsize > f.size ||
		    (strsize && f.data[stroff + strsize - 1] != '\0')) {
			rc = error("%s: bad symbol table", path);
			break;
		}
		for (uint64_t s = off; s + entsize <= off + size; s += entsize) {
			uint32_t name = (uint32_t)get(&f, (size_t)s, 4);
			unsigned info = f.data[s + (f.is64 ? 4 : 12)];
			unsigned other = f.data[s + (f.is64 ? 5 : 13)];
			unsigned shndx = (unsigned)get(&f, (size_t)s + (f.is64 ? 6 : 14), 2);
			const char *str = (char *)f.data + stroff + name;
			uint64_t flags;

			if (name == 0 || name >= strsize)
				continue;
			if (defined && shndx != SHN_UNDEF && (info & 0xf) != STT_SECTION &&
			    (info & 0xf) != STT_FILE)
				strvec_push(defined, str);
			if (shndx == SHN_UNDEF) {
				if (undefined && ((info >> 4) == STB_GLOBAL ||
						  (info >> 4) == STB_WEAK))
					strvec_push(undefined, str);
				continue;
			}
			if (!anchors || (info >> 4) != STB_WEAK ||
			    (other & 3) != STV_HIDDEN ||
			    shndx >= SHN_LORESERVE || shndx >= shnum)
				continue;
			flags = get(&f, (size_t)shoff + (size_t)shndx * shentsize + 8,
				    f.is64 ? 8 : 4);
			if (!(flags & SHF_ALLOC))
				strvec_push(anchors, str);
		}
	}
	free(f.data);
	return rc;
}

int output_symbols(const char *path, struct strvec *anchors,
		   struct strvec *undefined)
{
	return read_symbols(path, anchors, undefined, NULL, NULL);
}

int output_defined_symbols(const char *path, struct strvec *defined, bool *known)
{
	return read_symbols(path, NULL, NULL, defined, known);
}

int debug_anchors_localize(const struct toolchain *tc, const char *path,
			   const struct strvec *names)
{
	struct strvec argv = STRVEC_INIT;
	char *objcopy_name, *list, *at;
	int rc;

	if (names->n == 0)
		return 0;
	objcopy_name = xasprintf("%sobjcopy", tc->prefix);
	strvec_push_nodup(&argv, find_program(objcopy_name));
	if (!argv.v[0]) {
		rc = error("cannot find '%s' (needed to tidy %s)", objcopy_name, path);
		goto out;
	}
	list = tmp_file("debug-anchors.txt");
	at = list ? run_response_file(list, names->v) : NULL;
	if (!at) {
		rc = 1;
		goto out;
	}
	strvec_pushf(&argv, "--localize-symbols=%s", at + 1);
	free(at);
	strvec_push(&argv, path);
	trace("making %zu debug anchor symbols local in %s", names->n, path);
	rc = run_wait(argv.v, NULL);
	if (rc)
		rc = error("%s failed (exit %d) on %s", argv.v[0], rc, path);
out:
	free(objcopy_name);
	strvec_clear(&argv);
	return rc;
}
