#!/bin/sh
# Kernel-style exports through a whole-program ld -r, and --lto-exports.
# EXPORT_SYMBOL(sym) writes two references: an asm entry in .export_symbol
# (modpost reads it from vmlinux.o) and a __used pointer (__ADDRESSABLE)
# in .discard.addressable.  By default every export stays global, with its
# entry (a kernel with modules).  --lto-exports=FILE keeps only the
# exports FILE names (TRIM_UNUSED_KSYMS: what the modules use), and an
# empty FILE none (no modules): the others lose entry, visibility and
# pointer, and whole-program LTO removes what nothing calls.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

need_plugin

# The macros of the kernel's include/linux/export.h and compiler.h, in
# the shape 6.12 writes them (ASM_NL is ';').
cat > export.h <<'H'
#define __stringify_1(x...) #x
#define __stringify(x...) __stringify_1(x)
#define __PASTE(a, b) a##b
#define __ADDRESSABLE(sym) \
	static void * __attribute__((used, section(".discard.addressable"))) \
	__PASTE(__addressable_, sym) = (void *)(unsigned long)&sym;
#define ___EXPORT_SYMBOL(sym, license) \
	.section ".export_symbol","a" ; __export_symbol_##sym: ; \
	.asciz license ; .ascii "" "\0" ; .balign 4 ; .long sym ; .previous
#define EXPORT_SYMBOL(sym) extern typeof(sym) sym; __ADDRESSABLE(sym) \
	asm(__stringify(___EXPORT_SYMBOL(sym, "")));
#define EXPORT_SYMBOL_GPL(sym) extern typeof(sym) sym; __ADDRESSABLE(sym) \
	asm(__stringify(___EXPORT_SYMBOL(sym, "GPL")));
H
# lib.c: an export nobody calls, one main.c calls, one the trim list
# keeps, and a function only a plain __ADDRESSABLE pointer names (not an
# export: it must stay).  syms.c exports far_fn, which far.c defines (the
# kernel's lib/zlib_inflate/inflate_syms.c).
cat > lib.c <<'C'
#include "export.h"
int unused_export(int x) { return x * 5 + 3; }
EXPORT_SYMBOL(unused_export)
int used_export(int x) { return x * 7 + 1; }
EXPORT_SYMBOL_GPL(used_export)
int module_export(int x) { return x * 13 + 4; }
EXPORT_SYMBOL(module_export)
int addr_only(int x) { return x * 11 - 2; }
__ADDRESSABLE(addr_only)
C
printf 'int used_export(int);\nint entry(int x) { return used_export(x); }\n' > main.c
printf '#include "export.h"\nint far_fn(int);\nEXPORT_SYMBOL(far_fn)\n' > syms.c
printf 'int far_fn(int x) { return x ^ 0x55; }\n' > far.c
# what modules use, as kbuild writes it: a comment and a CRLF line too
printf '# the modules of this build\nmodule_export\r\nfar_fn\n' > trim.txt
: > none.txt

# symbols PREFIX FILE: "name:type" of every function symbol of FILE
symbols() {
	"${1}nm" "$2" | awk '$2 ~ /^[Tt]$/ {print $3 ":" $2}' | sort | tr '\n' ' '
}

# entries PREFIX FILE: the symbols the .export_symbol relocations name
entries() {
	"${1}readelf" -rW "$2" | awk '/^Relocation section/ { on = /export_symbol/ }
		on && NF >= 5 && $1 ~ /^[0-9a-f]+$/ { print $5 }' | sort | tr '\n' ' '
}

# link NAME OUT [OPTIONS]: the whole-program ld -r of the four objects
link() {
	desc=$1 out=$2; shift 2
	expect "$name: $desc: the whole-program ld -r links" \
		"$ld" -r --lto-whole-program --lto-keep-symbol=entry "$@" \
		-o "$out" lib.o main.o syms.o far.o
}

# exports PREFIX NAME: the scenario with one toolchain
exports() {
	prefix=$1 name=$2
	mkdir "$name" && cd "$name" || return
	cp ../export.h ../lib.c ../main.c ../syms.c ../far.c ../trim.txt ../none.txt .
	ld="$BIN/${prefix}lto-ld"
	plugin=$("$ld" --print-cc-plugin) || { not_ok "$name: --print-cc-plugin"; cd ..; return; }
	for f in lib main syms far; do
		"${prefix}gcc" -O2 -flto -fplugin="$plugin" -c $f.c || not_ok "$name: compile $f.c"
	done

	# modules, no trim: every export stays global, with its entry
	link "all exports" all.o
	got=$(symbols "$prefix" all.o)
	expect "$name: every export stays global" \
		listed "$got" +unused_export:T +used_export:T +module_export:T +far_fn:T
	expect "$name: ... each with its .export_symbol entry" \
		test "$(entries "$prefix" all.o)" = "far_fn module_export unused_export used_export "

	# no modules: no export kept
	link "--lto-exports=(empty)" none.o --lto-exports=none.txt
	got=$(symbols "$prefix" none.o)
	expect "$name: no exports: the unused ones are removed, the called one is not global" \
		test "$got" = "addr_only:t entry:T "
	expect "$name: ... and no entries are written" test -z "$(entries "$prefix" none.o)"
	expect "$name: ... nor their __ADDRESSABLE pointers" \
		eval '! nm none.o 2>/dev/null | grep -q "__addressable_.*export\|__addressable_far"'
	expect "$name: ... a plain __ADDRESSABLE still keeps its function (local)" listed "$got" +addr_only:t

	# trimmed: only the exports the modules use
	link "--lto-exports=trim.txt" trim.o --lto-exports=trim.txt
	got=$(symbols "$prefix" trim.o)
	expect "$name: trimmed: the listed exports stay global, the others do not" \
		listed "$got" +module_export:T +far_fn:T -unused_export:T -used_export:T
	expect "$name: ... only their entries are written" test "$(entries "$prefix" trim.o)" = "far_fn module_export "

	# the same list in the environment
	LTO_LD_EXPORTS=none.txt link "LTO_LD_EXPORTS" env.o
	expect "$name: LTO_LD_EXPORTS=FILE is --lto-exports=FILE" cmp -s none.o env.o

	expect_fails "$name: a missing list is an error naming it" \
		"no-such-list: cannot read the list of exports" \
		"$ld" -r --lto-whole-program --lto-exports=no-such-list -o bad.o lib.o main.o
	expect "$name: ... and no output" test ! -e bad.o
	cd ..
}

for_each_target exports

done_testing
