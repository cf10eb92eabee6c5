#!/bin/sh
# lto-ld-plugin.so in front of GCC's plugin: with no policy the link is
# GCC's; --lto-whole-program internalizes in ld -r what nothing outside
# the IR uses, keeping what non-IR objects reference, what the keep set
# names, and what the compiler may call without an IR reference.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

: "${TOP_BUILDDIR:?}"
if [ ! -f "$TOP_BUILDDIR/lto-ld-plugin.so" ]; then
	skip "lto-ld-plugin.so not built (binutils-dev missing)"
	done_testing; exit 0
fi

# The scenario of FACTS.md: a.c defines three globals, b.c calls one,
# c.S (native) calls another.
cat > a.c <<'C'
int unused_global(int x) { return x * 3; }
int used_global(int x) { return x + 1; }
int asm_ref_target(int x) { return x - 1; }
C
cat > b.c <<'C'
int used_global(int);
int entry(int x) { return used_global(x) * 2; }
C
cat > libc.c <<'C'
/* a definition of a name the compiler itself may call */
void *memset(void *d, int c, unsigned long n) { char *p = d; while (n--) *p++ = (char)c; return d; }
__attribute__((weak)) int weak_default(void) { return 1; }
C

# defined PREFIX FILE: the defined global functions of FILE, sorted
defined() { "${1}nm" "$2" | awk '$2 == "T" || $2 == "W" {print $3}' | sort | tr '\n' ' '; }

# scenario PREFIX NAME CALL-INSN
scenario() {
	prefix=$1 name=$2 call=$3
	mkdir "$name" && cd "$name" || return
	ld="$BIN/${prefix}lto-ld"
	for f in a b libc; do "${prefix}gcc" -O2 -flto -c "../$f.c" -o "$f.o"; done
	printf '\t.text\n\t.globl from_asm\nfrom_asm:\n\t%s asm_ref_target\n' "$call" > c.s
	"${prefix}as" -o c.o c.s

	"$ld" -r -o plain.o a.o b.o c.o
	got=$(defined "$prefix" plain.o)
	[ "$got" = "asm_ref_target entry from_asm unused_global used_global " ] &&
		ok "$name: plain ld -r keeps every global" || not_ok "$name: plain ld -r keeps every global ($got)"

	LTO_LD_PLUGIN=$("${prefix}gcc" -print-file-name=liblto_plugin.so) "$ld" -r -o gcc.o a.o b.o c.o
	[ "$(defined "$prefix" gcc.o)" = "$got" ] &&
		ok "$name: with no policy the proxy links like GCC's plugin" ||
		not_ok "$name: with no policy the proxy links like GCC's plugin"

	"$ld" -r --lto-whole-program -o wp.o a.o b.o c.o
	got=$(defined "$prefix" wp.o)
	[ "$got" = "asm_ref_target from_asm " ] &&
		ok "$name: whole-program ld -r keeps only what native code references" ||
		not_ok "$name: whole-program ld -r keeps only what native code references ($got)"

	"$ld" -r --lto-whole-program --lto-keep-symbol=entry -o keep.o a.o b.o c.o
	got=$(defined "$prefix" keep.o)
	[ "$got" = "asm_ref_target entry from_asm " ] &&
		ok "$name: --lto-keep-symbol keeps entry (used_global inlined into it)" ||
		not_ok "$name: --lto-keep-symbol keeps entry ($got)"

	printf '# kept for the final link\nent*\n\nunused_*\n' > keep.txt
	"$ld" -r --lto-whole-program --lto-keep=keep.txt -o keepf.o a.o b.o c.o
	got=$(defined "$prefix" keepf.o)
	[ "$got" = "asm_ref_target entry from_asm unused_global " ] &&
		ok "$name: --lto-keep=FILE with globs and comments" ||
		not_ok "$name: --lto-keep=FILE with globs and comments ($got)"

	LTO_LD_WHOLE_PROGRAM=1 "$ld" -r -o lib.o a.o libc.o c.o
	got=$(defined "$prefix" lib.o)
	case $got in
	*memset*weak_default*) ok "$name: memset (a libcall) and a weak definition are never internalized" ;;
	*) not_ok "$name: memset and a weak definition are never internalized ($got)" ;;
	esac
	cd ..
}

scenario "" host call
if have arm-linux-gnueabihf-gcc; then scenario arm-linux-gnueabihf- arm bl
else skip "arm-linux-gnueabihf-gcc not installed"; fi

check_fails "a missing keep file is an error naming it" "nothere.txt: keep file not found" \
	"$BIN/lto-ld" -r --lto-whole-program --lto-keep=nothere.txt -o x.o host/a.o
done_testing
