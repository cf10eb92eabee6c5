/*
 * The one ELF reader of lto-ld, its plugin and its tools: the header,
 * the section headers and names, symbol tables and GCC's IR symbol
 * table, of either class and byte order, read through pread windows
 * (an object is never loaded whole).  Extended numbering is followed:
 * e_shnum == 0 and e_shstrndx == SHN_XINDEX (the counts are in section
 * 0), and symbols whose st_shndx is SHN_XINDEX (SHT_SYMTAB_SHNDX), as
 * objects with 65,280 sections or more have them.
 *
 * Two edits are made in place: symbols made local (elf_localize) and
 * local names shortened (elf_shorten_local_names).
 *
 * It prints nothing and never exits: a failure returns -1 with the
 * reason in elf.why, for the caller to name the file (the plugin runs
 * inside ld, lto-ld prints its own messages).  Headers come in the
 * 64-bit types of glibc's <elf.h> whatever the class.
 */
#ifndef LTO_LD_ELF_H
#define LTO_LD_ELF_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Where an object's bytes are: a whole file, or a slice of an archive. */
struct elf_in {
	int fd;
	off_t base;		/* where the object starts in FD */
	uint64_t size;		/* its size: nothing past it is read */
	const unsigned char *head;	/* its first HEAD_LEN bytes, if already read */
	size_t head_len;
};

struct elf {
	struct elf_in in;
	bool is64, big_endian;
	uint16_t type, machine;	/* e_type, e_machine */
	uint64_t shoff;
	unsigned shentsize;
	uint32_t shnum, shstrndx;	/* extended numbering resolved */
	unsigned char *shdrs;	/* the raw section headers (elf_read_sections) */
	char *names;		/* the section name table, NUL-terminated */
	uint64_t names_size;
	void *buf;		/* what shdrs and names were read into */
	const char *why;	/* the reason of the last failure */
	bool owns_fd;		/* elf_open_path() opened in.fd */
};

/* Bounds on what a sane object asks us to allocate. */
#define ELF_MAX_SECTIONS (1u << 24)
#define ELF_MAX_NAMES_SIZE ((uint64_t)256 << 20)

/* The bytes at OFF..OFF+LEN of the object; false when they are not all there. */
bool elf_pread(const struct elf *e, void *buf, size_t len, uint64_t off);

/*
 * Read the ELF header of the object IN: 1 for ELF, 0 when it is not
 * ELF (too short for the magic, or another magic), -1 when the header
 * is truncated or of an unknown class or byte order.
 */
int elf_open(struct elf *e, const struct elf_in *in);

/*
 * Open PATH whole (an object file, not an archive) into E; FD is left
 * in E->in.fd for elf_close().  As elf_open(), and -1 with errno's
 * reason when PATH cannot be opened.
 */
int elf_open_path(struct elf *e, const char *path);

/* As elf_open_path(), open for writing too: for the edits. */
int elf_open_path_rw(struct elf *e, const char *path);

/*
 * Read the section headers and the section name table: 0, or -1 when
 * they are corrupt or beyond the object's end.  An object without
 * section headers (e_shoff 0) has none: shnum 0.  The headers and the
 * name table are read with one call when the table sits just before
 * them, as assemblers and ld write it.
 */
int elf_read_sections(struct elf *e);

/* Section I (< shnum) as a 64-bit header. */
void elf_section(const struct elf *e, uint32_t i, Elf64_Shdr *sh);

/* SH's name, or NULL when its offset is outside the name table. */
const char *elf_section_name(const struct elf *e, const Elf64_Shdr *sh);

/*
 * SIZE bytes at OFF of the object, malloc'd, with a NUL after them; NULL
 * (E->why set) when they are beyond the object's end or memory is short.
 */
void *elf_load(struct elf *e, uint64_t off, uint64_t size);

/* Section NAME's contents (elf_load), or NULL when there is none. */
void *elf_load_section(struct elf *e, const char *name, size_t *len);

/* The index of the SHT_SYMTAB section, or 0 when there is none. */
uint32_t elf_symtab(const struct elf *e);

/* One ELF symbol. */
struct elf_symbol {
	const char *name;	/* NULL when outside the string table */
	uint64_t value, size;
	unsigned char bind, type, visibility;	/* STB_*, STT_*, STV_* */
	uint32_t shndx;		/* SHN_XINDEX resolved through SHT_SYMTAB_SHNDX */
	bool in_section;	/* SHNDX is a section's index, not SHN_UNDEF, SHN_ABS... */
};

/* Called for each symbol; a non-zero return stops the walk and is returned. */
typedef int (*elf_symbol_fn)(const struct elf_symbol *sym, void *data);

/*
 * Every symbol of the symbol table in section SYMTAB (SHT_SYMTAB or
 * SHT_DYNSYM), index 0 included.  0, VISIT's value, or -1 when the
 * table, its string table or its SHT_SYMTAB_SHNDX section is corrupt.
 */
int elf_symbols(struct elf *e, uint32_t symtab, elf_symbol_fn visit, void *data);

/* Does SYM of E become local?  For elf_localize(). */
typedef bool (*elf_pick_fn)(const struct elf *e, const struct elf_symbol *sym,
			    void *data);

/*
 * Make the global and weak symbols of E's symbol table that PICK
 * chooses local, in place: E is open on a descriptor that can also
 * write (the file keeps its size).  ELF wants the local symbols first,
 * so the chosen ones move to just after the old locals; relocations and
 * group signatures are renumbered to match, as objcopy
 * --localize-symbols does.  How many were made local, or -1 (E->why
 * set), after which the file may be half written.
 */
int64_t elf_localize(struct elf *e, elf_pick_fn pick, void *data);

/*
 * The new name of local symbol NAME, written to OUT (room for NAME); its
 * length.  For elf_shorten_local_names(): a name no shorter stays.
 */
typedef size_t (*elf_rename_fn)(const char *name, char *out, void *data);

/*
 * Rename E's local symbols to the shorter names RENAME gives, in place:
 * the string table keeps its size.  A name that ld shares with another
 * (the end of one is the other) is only cut short, never rewritten.  A
 * renamed symbol that then has the name, type, size, section and value
 * of another local symbol (or the other way round) is one symbol too
 * many: the later one goes, relocations and group signatures naming it
 * name the one that stays, and the table shrinks.  How many were
 * renamed, or -1 (E->why set), after which the file may be half written.
 */
int64_t elf_shorten_local_names(struct elf *e, elf_rename_fn rename, void *data);

/* Free what E holds and close its file if elf_open_path() opened it. */
void elf_close(struct elf *e);

/* GCC's IR symbol table (.gnu.lto_.symtab.*): the kinds of entry. */
enum gcc_ir_kind {
	GCC_IR_DEF, GCC_IR_WEAKDEF, GCC_IR_UNDEF, GCC_IR_WEAKUNDEF,
	GCC_IR_COMMON,
};
#define GCC_IR_SYMTAB_PREFIX ".gnu.lto_.symtab"

/* One entry: NAME\0 COMDAT\0 KIND VISIBILITY SIZE(8) SLOT(4). */
struct gcc_ir_symbol {
	const char *name;
	const char *comdat;
	unsigned kind;		/* enum gcc_ir_kind */
	unsigned visibility;
};

/*
 * Every entry of the IR symbol table DATA (SIZE bytes, as elf_load gives
 * it); a truncated last entry ends the walk.  0, or VISIT's non-zero value.
 */
typedef int (*gcc_ir_symbol_fn)(const struct gcc_ir_symbol *sym, void *data);
int gcc_ir_symbols(const unsigned char *data, size_t size,
		   gcc_ir_symbol_fn visit, void *arg);

/* "ARM", "x86-64"... for an e_machine; "another machine" if not known. */
const char *elf_machine_name(int machine);

#endif
