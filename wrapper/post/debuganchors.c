#include "debuganchors.h"
#include "elf.h"
#include "strvec.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one read of an output's symbol tables collects into. */
struct symbol_lists {
	size_t *anchors;	/* counted only: elf_localize() finds them again */
	struct strvec *undefined, *defined;
	bool known;		/* there was a symbol table of either kind */
	const struct elf *elf;
};

static int ir_definition(const struct gcc_ir_symbol *sym, void *data)
{
	struct symbol_lists *l = data;

	if (*sym->name && sym->kind != GCC_IR_UNDEF && sym->kind != GCC_IR_WEAKUNDEF)
		strvec_push(l->defined, sym->name);
	return 0;
}

/* Does section SHNDX hold something loaded at run time? */
static bool allocated(const struct elf *e, uint32_t shndx)
{
	Elf64_Shdr sh;

	if (shndx >= e->shnum)
		return true;	/* not a section: never an anchor */
	elf_section(e, shndx, &sh);
	return sh.sh_flags & SHF_ALLOC;
}

/* The rule: weak, hidden, in a section that is never loaded. */
static bool is_anchor(const struct elf *e, const struct elf_symbol *s)
{
	return s->bind == STB_WEAK && s->visibility == STV_HIDDEN &&
	       s->in_section && !allocated(e, s->shndx);
}

static int see_symbol(const struct elf_symbol *s, void *data)
{
	struct symbol_lists *l = data;
	bool global = s->bind == STB_GLOBAL || s->bind == STB_WEAK;

	if (!s->name || !*s->name)
		return 0;
	if (s->shndx != SHN_UNDEF && s->type != STT_SECTION &&
	    s->type != STT_FILE)
		strvec_push(l->defined, s->name);
	if (s->shndx == SHN_UNDEF) {
		if (global)
			strvec_push(l->undefined, s->name);
		return 0;
	}
	if (is_anchor(l->elf, s))
		(*l->anchors)++;
	return 0;
}

/* Section I of E, if it is a symbol table of either kind: read into L. */
static int see_section(struct elf *e, uint32_t i, struct symbol_lists *l)
{
	Elf64_Shdr sh;
	const char *name;
	unsigned char *ir;
	int rc;

	elf_section(e, i, &sh);
	if (sh.sh_type == SHT_SYMTAB) {
		l->known = true;
		return elf_symbols(e, i, see_symbol, l);
	}
	name = elf_section_name(e, &sh);
	if (!name || !starts_with(name, GCC_IR_SYMTAB_PREFIX))
		return 0;
	l->known = true;
	ir = elf_load(e, sh.sh_offset, sh.sh_size);
	if (!ir)
		return -1;
	rc = gcc_ir_symbols(ir, sh.sh_size, ir_definition, l);
	free(ir);
	return rc;
}

int output_symbols(const char *path, struct output_syms *syms)
{
	struct symbol_lists l = { &syms->anchors, &syms->undefined,
				  &syms->defined, false, NULL };
	struct elf e;
	int rc = elf_open_path(&e, path);

	l.elf = &e;
	if (rc == 0) {
		e.why = "not an ELF file";
		rc = -1;
	} else if (rc > 0) {
		rc = elf_read_sections(&e);
	}
	for (uint32_t i = 1; rc == 0 && i < e.shnum; i++)
		rc = see_section(&e, i, &l);
	if (rc)
		rc = error("%s: %s", path, e.why);
	elf_close(&e);
	syms->known = l.known;
	syms->read = rc == 0;
	return rc;
}

void output_syms_clear(struct output_syms *syms)
{
	syms->anchors = 0;
	strvec_clear(&syms->undefined);
	strvec_clear(&syms->defined);
	syms->known = syms->read = false;
}

static bool pick_anchor(const struct elf *e, const struct elf_symbol *s,
			void *data)
{
	(void)data;
	return s->name && *s->name && is_anchor(e, s);
}

int debug_anchors_localize(const char *path, size_t count)
{
	struct elf e;
	int64_t made = 0;
	int rc;

	if (count == 0)
		return 0;
	trace("making %zu debug anchor symbols local in %s", count, path);
	rc = elf_open_path_rw(&e, path);
	if (rc == 0)
		e.why = "not an ELF file";
	if (rc > 0 && elf_read_sections(&e) == 0)
		made = elf_localize(&e, pick_anchor, NULL);
	else
		made = -1;
	if (made >= 0 && (size_t)made != count) {
		e.why = "its debug anchors changed while it was being tidied";
		made = -1;
	}
	rc = made < 0 ? error("%s: cannot make its debug anchors local: %s",
			      path, e.why) : 0;
	elf_close(&e);
	return rc;
}
