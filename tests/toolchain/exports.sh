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

# has LIST ENTRY: the list "symbols" printed holds ENTRY
has() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }

# entries PREFIX FILE: the symbols the .export_symbol relocations name
entries() {
	"${1}readelf" -rW "$2" | awk '/^Relocation section/ { on = /export_symbol/ }
		on && NF >= 5 && $1 ~ /^[0-9a-f]+$/ { print $5 }' | sort | tr '\n' ' '
}

# link NAME OUT [OPTIONS]: the whole-program ld -r of the four objects
link() {
	desc=$1 out=$2; shift 2
	check "$name: $desc: the whole-program ld -r links" \
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
	for s in unused_export used_export module_export far_fn; do
		has "$got" $s:T || { not_ok "$name: every export stays global ($s: $got)"; break; }
	done && ok "$name: every export stays global"
	[ "$(entries "$prefix" all.o)" = "far_fn module_export unused_export used_export " ] &&
		ok "$name: ... each with its .export_symbol entry" ||
		not_ok "$name: ... each with its .export_symbol entry ($(entries "$prefix" all.o))"

	# no modules: no export kept
	link "--lto-exports=(empty)" none.o --lto-exports=none.txt
	got=$(symbols "$prefix" none.o)
	[ "$got" = "addr_only:t entry:T " ] &&
		ok "$name: no exports: the unused ones are removed, the called one is not global" ||
		not_ok "$name: no exports: the unused ones are removed, the called one is not global ($got)"
	[ -z "$(entries "$prefix" none.o)" ] && ok "$name: ... and no entries are written" ||
		not_ok "$name: ... and no entries are written ($(entries "$prefix" none.o))"
	if nm none.o 2>/dev/null | grep -q '__addressable_.*export\|__addressable_far'; then
		not_ok "$name: ... nor their __ADDRESSABLE pointers"
	else
		ok "$name: ... nor their __ADDRESSABLE pointers"
	fi
	has "$got" addr_only:t &&
		ok "$name: ... a plain __ADDRESSABLE still keeps its function (local)" ||
		not_ok "$name: ... a plain __ADDRESSABLE still keeps its function ($got)"

	# trimmed: only the exports the modules use
	link "--lto-exports=trim.txt" trim.o --lto-exports=trim.txt
	got=$(symbols "$prefix" trim.o)
	has "$got" module_export:T && has "$got" far_fn:T &&
		! has "$got" unused_export:T && ! has "$got" used_export:T &&
		ok "$name: trimmed: the listed exports stay global, the others do not" ||
		not_ok "$name: trimmed: the listed exports stay global, the others do not ($got)"
	[ "$(entries "$prefix" trim.o)" = "far_fn module_export " ] &&
		ok "$name: ... only their entries are written" ||
		not_ok "$name: ... only their entries are written ($(entries "$prefix" trim.o))"

	# the same list in the environment
	LTO_LD_EXPORTS=none.txt link "LTO_LD_EXPORTS" env.o
	cmp -s none.o env.o && ok "$name: LTO_LD_EXPORTS=FILE is --lto-exports=FILE" ||
		not_ok "$name: LTO_LD_EXPORTS=FILE is --lto-exports=FILE"

	check_fails "$name: a missing list is an error naming it" \
		"no-such-list: cannot read the list of exports" \
		"$ld" -r --lto-whole-program --lto-exports=no-such-list -o bad.o lib.o main.o
	[ -e bad.o ] && not_ok "$name: ... and no output" || ok "$name: ... and no output"
	cd ..
}

exports "" host
if have arm-linux-gnueabihf-gcc; then
	exports arm-linux-gnueabihf- arm
else
	not_ok "arm-linux-gnueabihf-gcc not installed"
fi

done_testing
