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
 * Export entries (the kernel's EXPORT_SYMBOL writes, in a top-level asm,
 * `.section ".export_symbol","a" ; __export_symbol_sym: ; ... ; .long sym
 * ; .previous`) keep their symbol visible too, but are told apart: such a
 * global also gets the attribute lto_ld_export, and one defined elsewhere
 * is listed in .lto_ld.exports instead.  In the LTO step, when lto-ld was
 * given --lto-exports=FILE (it names FILE in LTO_LD_INTERNAL_EXPORTS_FILE,
 * which only lto-ld sets: the user's LTO_LD_EXPORTS is its setting, not
 * read here), the exports
 * FILE does not name lose all three of their references before the
 * visibility pass: the entry is cut from the asm text, externally_visible
 * goes, and the __used pointer __ADDRESSABLE put in .discard.addressable
 * is no longer forced out.  Whole-program LTO then treats them like any
 * global nothing outside uses.
 *
 * Read: the asm text of each function body (PLUGIN_PRE_GENERICIZE) and the
 * top-level asm statements (PLUGIN_ALL_IPA_PASSES_START, before the
 * visibility pass and the IR output).  Names are the identifier-like tokens of the text outside
 * its strings and comments; a token that is a mnemonic or register and no symbol of the unit
 * costs nothing.
 * With LTO_LD_VERBOSE on (lto-ld's rule), each symbol kept is reported as a note.
 */
#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "cgraph.h"
#include "stringpool.h"
#include "attribs.h"
#include "diagnostic-core.h"
#include "output.h"
#include "tree-pass.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "function.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "../lib/namelist.h"

/* lto-ld's channel to this plugin (wrapper/link/ltoenv.h): the exports to keep */
#define EXPORTS_CHANNEL "LTO_LD_INTERNAL_EXPORTS_FILE"

int plugin_is_GPL_compatible;

/* Identifiers seen in the asm text of this translation unit. */
static std::unordered_set<std::string> asm_names;

/* Of them, the labels the asm text defines, and the names it makes global
 * (.globl, .global). */
static std::unordered_set<std::string> asm_labels, asm_globals;

/* The new names of labels that C declares as functions. */
static std::unordered_set<std::string> function_labels;

/* Globals this unit declares without defining, by name. */
static std::unordered_set<std::string> declared_externs;

/* Those that name globals declared here and defined elsewhere. */
static std::vector<std::string> extern_asm_names;

/* Symbols of this unit's export entries; those defined elsewhere. */
static std::unordered_set<std::string> export_names;
static std::vector<std::string> extern_export_names;

/* The section of export entries, and where __ADDRESSABLE puts pointers. */
static const char export_section[] = ".export_symbol";
static const char addressable_section[] = ".discard.addressable";

static bool starts_name(char c)
{
	return ISALPHA(c) || c == '_' || c == '.' || c == '$';
}

static bool continues_name(char c)
{
	return ISALNUM(c) || c == '_' || c == '.' || c == '$';
}

/* What starts a comment to the end of the line ("@" on ARM, "#" on x86-64). */
static const char line_comment[] = ASM_COMMENT_START;

/* After the string that starts at P (a '"'), its escapes included. */
static const char *skip_string(const char *p)
{
	for (p++; *p && *p != '"'; p++)
		if (*p == '\\' && p[1])
			p++;
	return *p ? p + 1 : p;
}

/* After the comment that starts at P, or P itself when none does. */
static const char *skip_comment(const char *p)
{
	if (p[0] == '/' && p[1] == '*') {
		const char *end = strstr(p + 2, "*/");

		return end ? end + 2 : p + strlen(p);
	}
	if (!strncmp(p, line_comment, sizeof(line_comment) - 1))
		return p + strcspn(p, "\n");
	return p;
}

/* x86's instruction prefixes: the word after one is still the mnemonic. */
static bool is_prefix(const char *word, size_t len)
{
	static const char *const prefixes[] = {
		"lock", "rep", "repe", "repz", "repne", "repnz", "notrack",
		"xacquire", "xrelease", "bnd", "data16", "data32", "addr16",
		"addr32", "rex", "rex64", "cs", "ds", "es", "fs", "gs", "ss",
	};

	for (const char *prefix : prefixes)
		if (strlen(prefix) == len && !strncmp(word, prefix, len))
			return true;
	return false;
}

/* What a statement's first word is, by what follows it (at P). */
enum word_role { MNEMONIC, LABEL, ASSIGNED };

static enum word_role first_word_role(const char *p)
{
	p += strspn(p, " \t");
	if (*p == ':')
		return LABEL;
	return *p == '=' && p[1] != '=' ? ASSIGNED : MNEMONIC;
}

/*
 * A statement's first word, from START to END: a mnemonic, directive or
 * macro names no symbol; a label defines one.  Whether the next word is
 * a first word still (after a label, or an x86 prefix such as lock).
 */
static bool after_first_word(const char *start, const char *end, bool *is_name,
			     bool *is_label)
{
	switch (first_word_role(end)) {
	case LABEL:
		*is_label = true;
		return true;
	case ASSIGNED:
		return false;
	case MNEMONIC:
		break;
	}
	*is_name = false;
	return is_prefix(start, (size_t)(end - start));
}

/*
 * Walk one asm template: PIECE(start, length, is_name, is_label) for each
 * run of it in order, where names are the identifier-like tokens outside its
 * strings and comments (a name in an .asciz or a comment refers to
 * nothing, and keeping its symbol would only keep dead code).  A
 * statement's first word names an instruction, a directive or a macro,
 * not a symbol (x86's static inline cpuid() and wrmsr() beside the
 * instructions), unless it is a label or assigned a value.
 */
template <typename Piece>
static void walk_asm_text(const char *text, Piece piece)
{
	const char *p = text;
	bool first_word = true;

	while (*p) {
		const char *after = *p == '"' ? skip_string(p) : skip_comment(p);
		bool is_name = after == p && starts_name(*p), is_label = false;

		if (is_name) {
			while (continues_name(*after))
				after++;
			if (first_word)
				first_word = after_first_word(p, after, &is_name, &is_label);
		} else if (after == p) {
			after = p + 1;
			if (*p == '\n' || *p == ';')
				first_word = true;
		}
		piece(p, (size_t)(after - p), is_name, is_label);
		p = after;
	}
}

/* Record the names of one asm template, its labels and its globals. */
static void scan_asm_text(const char *text)
{
	bool globl = false;	/* in a .globl statement */

	walk_asm_text(text, [&](const char *start, size_t len, bool is_name,
				bool is_label) {
		std::string word(start, len);

		if (!is_name) {
			if (word == ".globl" || word == ".global")
				globl = true;
			else if (word == "\n" || word == ";")
				globl = false;
			return;
		}
		asm_names.insert(word);
		if (is_label)
			asm_labels.insert(word);
		if (globl)
			asm_globals.insert(word);
	});
}

/*
 * A top-level asm text split into statements (each with the ';' or
 * newline that ends it), with the export entries found among them.
 */
struct asm_entry {
	size_t first, last;	/* its statements */
	std::string symbol;	/* what it exports */
};

struct asm_text {
	std::vector<std::string> statements;
	std::vector<asm_entry> exports;
};

/* The statements of TEXT; a ';' inside a string does not end one. */
static std::vector<std::string> split_statements(const char *text)
{
	std::vector<std::string> out;
	std::string cur;
	bool quoted = false;

	for (const char *p = text; *p; p++) {
		cur += *p;
		if (quoted && *p == '\\' && p[1])
			cur += *++p;
		else if (*p == '"')
			quoted = !quoted;
		else if (!quoted && (*p == ';' || *p == '\n')) {
			out.push_back(cur);
			cur.clear();
		}
	}
	if (!cur.empty())
		out.push_back(cur);
	return out;
}

/* The directive a statement starts with ("" for none), and what follows. */
static std::string directive(const std::string &stmt, std::string *rest)
{
	size_t b = stmt.find_first_not_of(" \t\n");
	size_t e;

	if (b == std::string::npos || stmt[b] != '.')
		return "";
	e = stmt.find_first_of(" \t\n;", b);
	if (e == std::string::npos)
		e = stmt.size();
	*rest = stmt.substr(e);
	return stmt.substr(b, e - b);
}

/* The section name a .section or .pushsection operand starts with. */
static std::string section_operand(const std::string &rest)
{
	size_t b = rest.find_first_not_of(" \t");

	if (b == std::string::npos)
		return "";
	if (rest[b] == '"') {
		size_t e = rest.find('"', b + 1);
		return rest.substr(b + 1, e == std::string::npos ? e : e - b - 1);
	}
	return rest.substr(b, rest.find_first_of(" \t,;\n", b) - b);
}

/*
 * Follow the section directives of TEXT: every run of statements that
 * switches into the export section, fills it and leaves it is an export
 * entry when its data directives name exactly one symbol.
 */
static asm_text parse_asm(const char *text)
{
	asm_text t;
	std::string cur, prev, rest;
	std::vector<std::string> stack;
	bool in_entry = false;
	asm_entry entry = { 0, 0, "" };
	bool one_symbol = true;

	t.statements = split_statements(text);
	for (size_t i = 0; i < t.statements.size(); i++) {
		std::string d = directive(t.statements[i], &rest);
		bool was_in = cur == export_section;

		if (d == ".section") {
			prev = cur;
			cur = section_operand(rest);
		} else if (d == ".pushsection") {
			stack.push_back(cur);
			cur = section_operand(rest);
		} else if (d == ".popsection" && !stack.empty()) {
			cur = stack.back();
			stack.pop_back();
		} else if (d == ".previous") {
			std::swap(cur, prev);
		} else if (d == ".text" || d == ".data" || d == ".bss") {
			prev = cur;
			cur = d;
		} else if (was_in && (d == ".long" || d == ".quad" ||
				      d == ".word" || d == ".4byte" || d == ".8byte")) {
			size_t b = rest.find_first_not_of(" \t");
			size_t e = rest.find_first_of(" \t;\n", b);
			std::string sym = b == std::string::npos ? "" :
				rest.substr(b, e == std::string::npos ? e : e - b);

			if (!entry.symbol.empty() && sym != entry.symbol)
				one_symbol = false;
			entry.symbol = sym;
		}
		if (!was_in && cur == export_section) {
			in_entry = true;
			entry = { i, i, "" };
			one_symbol = true;
		}
		if (in_entry && cur != export_section) {
			entry.last = i;
			if (one_symbol && !entry.symbol.empty())
				t.exports.push_back(entry);
			in_entry = false;
		}
	}
	return t;
}

/* Is statement I of T part of one of its export entries? */
static bool in_export_entry(const asm_text &t, size_t i)
{
	for (const asm_entry &e : t.exports)
		if (i >= e.first && i <= e.last)
			return true;
	return false;
}

/* Compile step: export entries' symbols apart, the rest as asm names. */
static void scan_toplevel_asm(const char *text)
{
	asm_text t = parse_asm(text);

	for (const asm_entry &e : t.exports)
		export_names.insert(e.symbol);
	for (size_t i = 0; i < t.statements.size(); i++)
		if (!in_export_entry(t, i))
			scan_asm_text(t.statements[i].c_str());
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
 * In an LTRANS unit (or the merged IR of an incremental link), variables
 * of many translation units meet.  A named
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
 * GCC 12 computes, for its IR's symbol table, the section of every
 * variable the unit names, declarations too (write_symbol_extension_info
 * notes whether it is BSS).  A declaration in a named section that holds
 * const and writable variables then stops the compile ("section type
 * conflict"), though without -flto a declaration never gets a section:
 * x86's const_pcpu_hot, the const alias of pcpu_hot that the linker
 * script defines, both declared in .data..percpu..hot.  A declaration's
 * section places nothing, so those declarations go without it.
 */
static void unsection_mixed_declarations(bool verbose)
{
	/* per section: 1, const variables in it; 2, writable ones */
	std::unordered_map<std::string, int> kinds;
	varpool_node *var;

	FOR_EACH_VARIABLE(var) {
		const char *section = var->get_section();

		if (section)
			kinds[section] |= TREE_READONLY(var->decl) ? 1 : 2;
	}
	FOR_EACH_VARIABLE(var) {
		const char *section = var->get_section();

		if (!section || !DECL_EXTERNAL(var->decl) || kinds[section] != 3)
			continue;
		if (verbose)
			inform(DECL_SOURCE_LOCATION(var->decl),
			       "lto-ld: declaration of %qs left without its "
			       "section %qs, which holds const and writable "
			       "variables", asm_name_of(var->decl), section);
		var->set_section(NULL);
	}
}

/*
 * A flag variable by lto-ld's rule (lib/util.c env_flag): set to "" is
 * unset, and it is on when set to anything but "0".
 */
static bool env_flag(const char *name)
{
	const char *value = getenv(name);

	return value && *value && strcmp(value, "0") != 0;
}

static void add_attribute(tree decl, const char *name)
{
	DECL_ATTRIBUTES(decl) = tree_cons(get_identifier(name), NULL_TREE,
					  DECL_ATTRIBUTES(decl));
}

/*
 * TEXT with each name that RENAMED maps replaced by its new name; a
 * label it defines is made a global, hidden symbol there (C in another
 * partition refers to it).  In TOPLEVEL asm it is typed as C declares
 * it: objtool takes a function for one, where the local label gave it a
 * section (STT_FUNC: '@' is a comment on ARM); a label inside a
 * function's code stays untyped, as objtool wants it.
 */
static std::string renamed_text(const char *text, bool toplevel,
				const std::unordered_map<std::string, std::string> &renamed)
{
	std::string out;

	walk_asm_text(text, [&](const char *start, size_t len, bool is_name,
				bool is_label) {
		auto it = is_name ? renamed.find(std::string(start, len)) : renamed.end();

		if (it == renamed.end()) {
			out.append(start, len);
			return;
		}
		if (is_label)
			out += ".globl " + it->second + "\n\t.hidden " + it->second + "\n";
		if (is_label && toplevel)
			out += "\t.type " + it->second + ", " +
			       (function_labels.count(it->second) ? "STT_FUNC" : "STT_OBJECT") +
			       "\n";
		out += it->second;
	});
	return out;
}

/* The asm text of every function body and top-level asm of the unit,
 * with RENAMED's names replaced. */
static void rename_in_asm(const std::unordered_map<std::string, std::string> &renamed)
{
	cgraph_node *fn;
	basic_block bb;

	for (asm_node *a = symtab->first_asm_symbol(); a; a = a->next) {
		std::string text = renamed_text(TREE_STRING_POINTER(a->asm_str), true, renamed);

		a->asm_str = build_string(text.size() + 1, text.c_str());
	}
	FOR_EACH_DEFINED_FUNCTION(fn) {
		function *f = DECL_STRUCT_FUNCTION(fn->decl);

		if (!f || !f->cfg)
			continue;
		FOR_EACH_BB_FN(bb, f)
			for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g); gsi_next(&g))
				if (gasm *a = dyn_cast<gasm *>(gsi_stmt(g)))
					a->string = ggc_strdup(renamed_text(a->string, false, renamed).c_str());
	}
}

/* This unit's number in the names of its statics asm text names: a hash
 * of its main input file, so that two units' statics never meet. */
static std::string unit_number(void)
{
	uint32_t h = 2166136261u;

	for (const char *p = main_input_filename; p && *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	return std::to_string(h);
}

/* A static of the unit that its asm text names. */
static bool is_asm_named_static(symtab_node *node, const char *name)
{
	return !TREE_PUBLIC(node->decl) && !DECL_EXTERNAL(node->decl) &&
	       node->definition && !node->alias && asm_names.count(name);
}

/* A declaration of a label the unit's asm text defines, local to it. */
static bool is_local_asm_label(symtab_node *node, const char *name)
{
	return DECL_EXTERNAL(node->decl) && asm_labels.count(name) &&
	       !asm_globals.count(name);
}

/*
 * Statics that the unit's asm text names, and local labels of its asm
 * text that its C uses.  In the LTO step GCC renames a static that two
 * partitions use (NAME.lto_priv.N) and cannot rename it in asm text,
 * which then names nothing: drivers/bus/arm-cci.c's naked
 * cci_enable_port_for_self() reads cpu_port and ports.  And C in another
 * partition than the asm cannot reach a local label: x86's int3_magic
 * (alternative.c's top-level asm) and optprobe_template_func.  So they
 * get a name of their own now, in the IR and in the asm text alike, and
 * are made global (hidden; statics externally visible): LTO neither
 * renames nor drops them.  The suffix is the one GCC gives, which
 * kallsyms drops.
 */
static void publish_asm_named_statics(bool verbose)
{
	std::unordered_map<std::string, std::string> renamed;
	std::string suffix = ".lto_priv." + unit_number();
	symtab_node *node;

	if (!flag_generate_lto)
		return;
	FOR_EACH_SYMBOL(node) {
		const char *name = asm_name_of(node->decl);
		bool label = is_local_asm_label(node, name);

		if (strchr(name, '.') || !(label || is_asm_named_static(node, name)))
			continue;
		renamed[name] = name + suffix;
		symtab->change_decl_assembler_name(node->decl,
			get_identifier(renamed[name].c_str()));
		/* (the label's definition, in the asm, is made global there) */
		if (label) {
			if (TREE_CODE(node->decl) == FUNCTION_DECL)
				function_labels.insert(renamed[name]);
			continue;
		}
		TREE_PUBLIC(node->decl) = 1;
		DECL_VISIBILITY(node->decl) = VISIBILITY_HIDDEN;
		DECL_VISIBILITY_SPECIFIED(node->decl) = 1;
		keep_visible(node, verbose);
	}
	if (!renamed.empty())
		rename_in_asm(renamed);
}

/*
 * PLUGIN_ALL_IPA_PASSES_START: the unit is parsed and analysed, nothing is
 * optimized or streamed yet.  Read the top-level asm, then mark what the
 * asm text names.
 */
static void mark_asm_names(void *gcc_data, void *user_data)
{
	bool verbose = env_flag("LTO_LD_VERBOSE");
	symtab_node *node;

	(void)gcc_data;
	(void)user_data;
	/* (an incremental link, ld -r to merged IR, meets them the same way) */
	if (flag_ltrans ||
	    (in_lto_p && flag_incremental_link == INCREMENTAL_LINK_LTO))
		make_section_flags_agree(verbose);
	/* the compile step marked what the asm names; LTO only reads it */
	if (in_lto_p)
		return;
	unsection_mixed_declarations(verbose);
	for (asm_node *a = symtab->first_asm_symbol(); a; a = a->next)
		scan_toplevel_asm(TREE_STRING_POINTER(a->asm_str));
	if (asm_names.empty() && export_names.empty())
		return;
	publish_asm_named_statics(verbose);
	FOR_EACH_SYMBOL(node) {
		const char *name = asm_name_of(node->decl);
		bool in_asm = asm_names.count(name);

		if (!TREE_PUBLIC(node->decl) || DECL_EXTERNAL(node->decl) ||
		    !(in_asm || export_names.count(name)))
			continue;
		keep_visible(node, verbose);
		/* only an export entry names it: --lto-exports may drop it */
		if (!in_asm)
			add_attribute(node->decl, "lto_ld_export");
		/* another unit's strong definition may win over a weak one */
		if (!DECL_WEAK(node->decl)) {
			asm_names.erase(name);
			export_names.erase(name);
		}
	}
	/* what is left is declared here and defined elsewhere, or weak */
	for (const std::string &name : asm_names)
		if (declared_externs.count(name) || weak_defined(name))
			extern_asm_names.push_back(name);
	for (const std::string &name : export_names)
		if (!asm_names.count(name) &&
		    (declared_externs.count(name) || weak_defined(name)))
			extern_export_names.push_back(name);
	asm_names.clear();
	export_names.clear();
	declared_externs.clear();
}

/* NAMES as the NUL-terminated strings of the excluded section SECTION. */
static void write_name_section(const char *section,
			       std::vector<std::string> &names)
{
	if (names.empty())
		return;
	fprintf(asm_out_file, "\t.pushsection %s,\"e\"\n", section);
	for (const std::string &name : names)
		fprintf(asm_out_file, "\t.asciz \"%s\"\n", name.c_str());
	fputs("\t.popsection\n", asm_out_file);
	names.clear();
}

/*
 * PLUGIN_FINISH_UNIT: a global defined in another unit cannot be marked
 * here.  Name it in the section .lto_ld.asm_names of this object (excluded
 * from any link), where lto-ld's linker plugin reads it: the linker then
 * keeps the definition global, as for a reference from assembler code.
 * Those only export entries name go to .lto_ld.exports: the linker plugin
 * keeps them unless --lto-exports leaves them out.
 */
static void write_extern_asm_names(void *gcc_data, void *user_data)
{
	(void)gcc_data;
	(void)user_data;
	/* in the LTO step the list would land in the linked output */
	if (in_lto_p || !asm_out_file)
		return;
	write_name_section(".lto_ld.asm_names", extern_asm_names);
	write_name_section(".lto_ld.exports", extern_export_names);
}

/* ---- the LTO step: exports --lto-exports=FILE leaves out ---- */

static void add_kept(const char *name, unsigned line, void *ctx)
{
	(void)line;
	static_cast<std::unordered_set<std::string> *>(ctx)->emplace(name);
}

/* The exports lto-ld keeps, from PATH (lib/namelist.h); false after an error. */
static bool read_kept_exports(const char *path,
			      std::unordered_set<std::string> *kept)
{
	FILE *f = fopen(path, "r");
	long rc;

	if (!f) {
		error("lto-ld: %s: cannot read the list of exports to keep", path);
		return false;
	}
	rc = namelist_read(f, add_kept, kept);
	fclose(f);
	if (rc > 0)
		error("lto-ld: %s:%ld: NUL byte in the list of exports to keep",
		      path, rc);
	else if (rc < 0)
		error("lto-ld: %s: cannot read the list of exports to keep", path);
	return rc == 0;
}

/* LIST without the attribute NAME; LIST itself is shared, not changed. */
static tree without_attribute(tree list, const char *name)
{
	tree rest;

	if (!list)
		return NULL_TREE;
	rest = without_attribute(TREE_CHAIN(list), name);
	if (is_attribute_p(name, get_attribute_name(list)))
		return rest;
	if (rest == TREE_CHAIN(list))
		return list;
	return tree_cons(TREE_PURPOSE(list), TREE_VALUE(list), rest);
}

/* Cut the entries of DROPPED symbols out of every top-level asm; returns
 * the symbols of every export entry seen. */
static std::unordered_set<std::string>
cut_export_entries(const std::unordered_set<std::string> &kept)
{
	std::unordered_set<std::string> exported;

	for (asm_node *a = symtab->first_asm_symbol(); a; a = a->next) {
		asm_text t = parse_asm(TREE_STRING_POINTER(a->asm_str));
		std::string text;
		size_t next = 0;

		if (t.exports.empty())
			continue;
		for (const asm_entry &e : t.exports) {
			exported.insert(e.symbol);
			if (kept.count(e.symbol))
				continue;
			for (; next < e.first; next++)
				text += t.statements[next];
			next = e.last + 1;
		}
		for (; next < t.statements.size(); next++)
			text += t.statements[next];
		a->asm_str = build_string(text.size() + 1, text.c_str());
	}
	return exported;
}

/* Does every reference of NODE point at a symbol in DROPPED? */
static bool refers_only_to(symtab_node *node,
			   const std::unordered_set<std::string> &dropped)
{
	ipa_ref *ref = NULL;
	bool any = false;

	for (unsigned i = 0; node->iterate_reference(i, ref); i++) {
		if (!dropped.count(asm_name_of(ref->referred->decl)))
			return false;
		any = true;
	}
	return any;
}

/*
 * Before the first IPA pass of the LTO step (WPA, or a single LTO unit):
 * the exports not kept lose their entry, their externally_visible and
 * their __ADDRESSABLE pointer.
 */
static void drop_exports(void *gcc_data, void *user_data)
{
	static bool done;
	const char *path = getenv(EXPORTS_CHANNEL);
	bool verbose = env_flag("LTO_LD_VERBOSE");
	std::unordered_set<std::string> kept, dropped;
	symtab_node *node;

	(void)gcc_data;
	(void)user_data;
	if (done || !in_lto_p || flag_ltrans || !path || !*path)
		return;
	done = true;
	if (!read_kept_exports(path, &kept))
		return;
	for (const std::string &name : cut_export_entries(kept))
		if (!kept.count(name))
			dropped.insert(name);
	FOR_EACH_SYMBOL(node) {
		const char *name = asm_name_of(node->decl);

		if (dropped.count(name) &&
		    lookup_attribute("lto_ld_export", DECL_ATTRIBUTES(node->decl))) {
			DECL_ATTRIBUTES(node->decl) = without_attribute(
				DECL_ATTRIBUTES(node->decl), "externally_visible");
			node->externally_visible = false;
			if (verbose)
				inform(DECL_SOURCE_LOCATION(node->decl),
				       "lto-ld: export %qs left out", name);
		}
		if (is_a<varpool_node *>(node) && node->get_section() &&
		    !strcmp(node->get_section(), addressable_section) &&
		    refers_only_to(node, dropped)) {
			node->force_output = false;
			DECL_PRESERVE_P(node->decl) = 0;
		}
	}
}

/*
 * Calls of NODE, which UNIT's flatten function reaches, that leave UNIT
 * can no longer be inlined; NODE's calls within UNIT are followed.
 */
static void cut_calls_out_of_unit(cgraph_node *node, lto_file_decl_data *unit,
				  std::unordered_set<cgraph_node *> &seen)
{
	for (cgraph_edge *e = node->callees; e; e = e->next_callee) {
		cgraph_node *callee = e->callee->ultimate_alias_target();

		/* (GCC's rule: such an edge fails with a final reason) */
		if (callee->lto_file_data != unit) {
			e->call_stmt_cannot_inline_p = true;
			e->inline_failed = CIF_FUNCTION_NOT_INLINABLE;
		} else if (seen.insert(callee).second)
			cut_calls_out_of_unit(callee, unit, seen);
	}
}

/*
 * Before the first IPA pass of WPA: __attribute__((flatten)) inlines
 * what the function's own unit defines, as it does without LTO.  GCC's
 * WPA would inline the whole program's call tree below it (vexpress:
 * percpu.c's pcpu_build_alloc_info took WPA past 23 GB).  So every call
 * a flatten function reaches within its unit that leaves the unit is
 * made one the inliner must leave a call, as a build without LTO has it.
 */
static void flatten_within_unit(void *gcc_data, void *user_data)
{
	static bool done;
	cgraph_node *node;

	(void)gcc_data;
	(void)user_data;
	if (done || !in_lto_p || flag_ltrans)
		return;
	done = true;
	FOR_EACH_DEFINED_FUNCTION(node) {
		std::unordered_set<cgraph_node *> seen;

		if (lookup_attribute("flatten", DECL_ATTRIBUTES(node->decl)))
			cut_calls_out_of_unit(node, node->lto_file_data, seen);
	}
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
	register_callback(info->base_name, PLUGIN_PASS_EXECUTION,
			  drop_exports, NULL);
	register_callback(info->base_name, PLUGIN_PASS_EXECUTION,
			  flatten_within_unit, NULL);
	return 0;
}
