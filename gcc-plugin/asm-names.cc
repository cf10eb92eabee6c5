/*
 * lto-ld-asm-names.so: a GCC compiler plugin that keeps visible the global
 * symbols a translation unit names inside asm text.
 *
 * An asm statement is code the optimizer cannot read: a reference written
 * in asm text (EXPORT_SYMBOL's .export_symbol entry, a "bl helper" in a
 * basic asm, a .set alias) is a reference from outside the IR, like one
 * from an assembler file.  The linker sees the ones from assembler files
 * and keeps their targets global in a whole-program link; the ones inside
 * asm text it cannot see, because GCC's IR symbol table does not list
 * them.  So at compile time, this plugin gives every global definition
 * or declaration of the unit whose name occurs in asm text the attribute
 * externally_visible, which is what __visible would add by hand: GCC then
 * keeps the symbol global and under its name in the LTO link, whatever
 * the linker's resolution says.
 *
 * A global the asm names but another unit defines cannot be marked here:
 * its name goes into the object's section .lto_ld.asm_names, which lto-ld's
 * linker plugin reads, so the linker keeps that definition global.
 *
 * Read: the asm text of each function body (PLUGIN_PRE_GENERICIZE) and the
 * top-level asm statements (PLUGIN_ALL_IPA_PASSES_START, before the
 * visibility pass and the IR output).  Names are the identifier-like tokens of the text; a token
 * that is a mnemonic or register and no symbol of the unit costs nothing.
 * With LTO_LD_VERBOSE set, each symbol kept is reported as a note.
 */
#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "cgraph.h"
#include "stringpool.h"
#include "attribs.h"
#include "diagnostic-core.h"
#include "output.h"

#include <cstdlib>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

int plugin_is_GPL_compatible;

/* Identifiers seen in the asm text of this translation unit. */
static std::unordered_set<std::string> asm_names;

/* Globals this unit declares without defining, by name. */
static std::unordered_set<std::string> declared_externs;

/* Those that name globals declared here and defined elsewhere. */
static std::vector<std::string> extern_asm_names;

static bool starts_name(char c)
{
	return ISALPHA(c) || c == '_' || c == '.' || c == '$';
}

static bool continues_name(char c)
{
	return ISALNUM(c) || c == '_' || c == '.' || c == '$';
}

/* Record the identifier-like tokens of one asm template. */
static void scan_asm_text(const char *text)
{
	const char *p = text;

	while (*p) {
		if (!starts_name(*p)) {
			p++;
			continue;
		}
		const char *start = p;
		while (continues_name(*p))
			p++;
		asm_names.emplace(start, p - start);
	}
}

static tree find_asm(tree *node, int *walk_subtrees, void *data)
{
	(void)walk_subtrees;
	(void)data;
	if (TREE_CODE(*node) == ASM_EXPR)
		scan_asm_text(TREE_STRING_POINTER(ASM_STRING(*node)));
	return NULL_TREE;
}

/* PLUGIN_PRE_GENERICIZE: the asm statements of one function body. */
static void scan_function(void *gcc_data, void *user_data)
{
	tree fndecl = (tree)gcc_data;

	(void)user_data;
	if (DECL_SAVED_TREE(fndecl))
		walk_tree_without_duplicates(&DECL_SAVED_TREE(fndecl),
					     find_asm, NULL);
}

/* A weak definition named NAME in this unit. */
static bool weak_defined(const std::string &name)
{
	symtab_node *node = symtab_node::get_for_asmname(get_identifier(name.c_str()));

	return node && node->definition && DECL_WEAK(node->decl);
}

/* PLUGIN_FINISH_DECL: remember extern declarations, used or not. */
static void record_decl(void *gcc_data, void *user_data)
{
	tree decl = (tree)gcc_data;

	(void)user_data;
	if ((TREE_CODE(decl) == FUNCTION_DECL || TREE_CODE(decl) == VAR_DECL) &&
	    TREE_PUBLIC(decl) && DECL_EXTERNAL(decl) && DECL_NAME(decl))
		declared_externs.insert(IDENTIFIER_POINTER(DECL_NAME(decl)));
}

/* The name the assembler sees, without GCC's "use verbatim" mark. */
static const char *asm_name_of(tree decl)
{
	const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl));

	return name[0] == '*' ? name + 1 : name;
}

static void keep_visible(symtab_node *node, bool verbose)
{
	tree decl = node->decl;

	if (lookup_attribute("externally_visible", DECL_ATTRIBUTES(decl)))
		return;
	DECL_ATTRIBUTES(decl) = tree_cons(get_identifier("externally_visible"),
					  NULL_TREE, DECL_ATTRIBUTES(decl));
	if (verbose)
		inform(DECL_SOURCE_LOCATION(decl),
		       "lto-ld: %qs is named in %<asm%> text: kept externally visible",
		       asm_name_of(decl));
}

/*
 * In an LTRANS unit, variables of many translation units meet.  A named
 * section that one unit fills with const data and another with writable
 * data (the kernel's __initconst on a non-const table) was fine in
 * separate objects, which ld merges, but in one assembler file GCC
 * refuses it ("section type conflict").  The section is writable in the
 * linked image anyway: make its const variables writable as well.
 */
static void make_section_flags_agree(bool verbose)
{
	std::unordered_map<std::string, bool> has_writable;
	varpool_node *var;

	FOR_EACH_DEFINED_VARIABLE(var) {
		const char *section = var->get_section();

		if (section)
			has_writable[section] |= !TREE_READONLY(var->decl);
	}
	FOR_EACH_DEFINED_VARIABLE(var) {
		const char *section = var->get_section();

		if (!section || !TREE_READONLY(var->decl) ||
		    !has_writable[section])
			continue;
		TREE_READONLY(var->decl) = 0;
		if (verbose)
			inform(DECL_SOURCE_LOCATION(var->decl),
			       "lto-ld: %qs made writable: section %qs holds "
			       "writable data too", asm_name_of(var->decl),
			       section);
	}
}

/*
 * PLUGIN_ALL_IPA_PASSES_START: the unit is parsed and analysed, nothing is
 * optimized or streamed yet.  Read the top-level asm, then mark what the
 * asm text names.
 */
static void mark_asm_names(void *gcc_data, void *user_data)
{
	bool verbose = getenv("LTO_LD_VERBOSE") && *getenv("LTO_LD_VERBOSE");
	symtab_node *node;

	(void)gcc_data;
	(void)user_data;
	if (flag_ltrans)
		make_section_flags_agree(verbose);
	/* the compile step marked what the asm names; LTO only reads it */
	if (in_lto_p)
		return;
	for (asm_node *a = symtab->first_asm_symbol(); a; a = a->next)
		scan_asm_text(TREE_STRING_POINTER(a->asm_str));
	if (asm_names.empty())
		return;
	FOR_EACH_SYMBOL(node) {
		if (!TREE_PUBLIC(node->decl) || DECL_EXTERNAL(node->decl) ||
		    !asm_names.count(asm_name_of(node->decl)))
			continue;
		keep_visible(node, verbose);
		/* another unit's strong definition may win over a weak one */
		if (!DECL_WEAK(node->decl))
			asm_names.erase(asm_name_of(node->decl));
	}
	/* what is left is declared here and defined elsewhere, or weak */
	for (const std::string &name : asm_names)
		if (declared_externs.count(name) || weak_defined(name))
			extern_asm_names.push_back(name);
	asm_names.clear();
	declared_externs.clear();
}

/*
 * PLUGIN_FINISH_UNIT: a global defined in another unit cannot be marked
 * here.  Name it in the section .lto_ld.asm_names of this object (excluded
 * from any link), where lto-ld's linker plugin reads it: the linker then
 * keeps the definition global, as for a reference from assembler code.
 */
static void write_extern_asm_names(void *gcc_data, void *user_data)
{
	(void)gcc_data;
	(void)user_data;
	/* in the LTO step the list would land in the linked output */
	if (in_lto_p || extern_asm_names.empty() || !asm_out_file)
		return;
	fputs("\t.pushsection .lto_ld.asm_names,\"e\"\n", asm_out_file);
	for (const std::string &name : extern_asm_names)
		fprintf(asm_out_file, "\t.asciz \"%s\"\n", name.c_str());
	fputs("\t.popsection\n", asm_out_file);
	extern_asm_names.clear();
}

int plugin_init(struct plugin_name_args *info,
		struct plugin_gcc_version *version)
{
	/* The plugin's view of GCC's data structures is the one it was
	 * built against: same version and configuration (target) only. */
	if (!plugin_default_version_check(version, &gcc_version)) {
		error("%s: built for another GCC (%s, or the same version "
		      "for another target), loaded by GCC %s; use the one "
		      "%<lto-ld --print-cc-plugin%> names for this compiler",
		      info->full_name, gcc_version.basever, version->basever);
		return 1;
	}
	register_callback(info->base_name, PLUGIN_FINISH_DECL, record_decl, NULL);
	register_callback(info->base_name, PLUGIN_PRE_GENERICIZE,
			  scan_function, NULL);
	register_callback(info->base_name, PLUGIN_ALL_IPA_PASSES_START,
			  mark_asm_names, NULL);
	register_callback(info->base_name, PLUGIN_FINISH_UNIT,
			  write_extern_asm_names, NULL);
	return 0;
}
