#!/bin/sh
# Symbols made local in place (lib/elf.c's elf_localize, which lto-ld
# runs on the debug anchors of its ld -r output) against objcopy
# --localize-symbol on the same objects: the same symbols, relocations
# and groups, a symbol table binutils reads without complaint, and a
# program that still links and runs.  Host (ELF64, RELA) and ARM (ELF32,
# REL); an object with extended section numbering too.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

localize=$TOP_BUILDDIR/tests/unit/elf-localize

# u.c: globals before and after the ones made local, relocations against
# them from code, data and debug info, and a COMDAT group whose
# signature symbol sits after them in the symbol table.
cat > u.c <<'C'
__attribute__((weak, visibility("hidden"), section(".note.anchor")))
const int anchor_a = 1;
int before(int x) { return x + 1; }
__attribute__((weak, visibility("hidden"), section(".note.anchor")))
const int anchor_b = 2;
static int hidden_static(int x) { return x * 3; }
int after(int x) { return hidden_static(x) + anchor_a + anchor_b; }
const int *const table[] = { &anchor_a, &anchor_b };
__asm__(".section .text.grp,\"axG\",%progbits,grp_sig,comdat\n"
	".globl grp_sig\ngrp_sig: .long 7\n.previous");
C
cat > main.c <<'C'
int after(int x);
int before(int x);
extern const int *const table[];
int main(void) { return after(before(1)) + *table[0] != 10; }
C

# same OBJ1 OBJ2 TOOL-PREFIX: what binutils shows of both is the same
same() {
	for how in "nm -a" "readelf -rW" "readelf -gW"; do
		$3${how% *} ${how#* } "$1" | sed "s/$1//" > a.txt
		$3${how% *} ${how#* } "$2" | sed "s/$2//" > b.txt
		cmp -s a.txt b.txt || { echo "$how differs"; diff a.txt b.txt | head; return 1; }
	done
	[ -z "$($3readelf -sW "$1" 2>&1 >/dev/null)" ] ||
		{ echo "readelf complains:"; $3readelf -sW "$1" 2>&1 >/dev/null | head -3; return 1; }
}

# localize PREFIX NAME [RUN...]
localize() {
	prefix=$1 name=$2; shift 2
	mkdir "$name" && cd "$name" || return
	"${prefix}gcc" -O2 -g -c ../u.c -o u.o || { not_ok "$name: compile"; cd ..; return; }
	cp u.o ours.o
	"${prefix}objcopy" --localize-symbol=anchor_a --localize-symbol=anchor_b u.o theirs.o
	expect "$name: two symbols made local" test "$("$localize" ours.o anchor_a anchor_b)" = 2
	expect "$name: ...as objcopy makes them: symbols, relocations, groups" same ours.o theirs.o "$prefix"
	expect "$name: ...local now" test "$("${prefix}nm" ours.o | grep -Ec ' [rn] anchor_[ab]$')" -eq 2
	expect "$name: ...and a program links" "${prefix}gcc" -o prog ../main.c ours.o
	expect "$name: ...and runs" "$@" ./prog
	cp u.o none.o
	expect "$name: nothing chosen: 0, the object unchanged" \
		sh -c "[ \"\$('$localize' none.o nothing)\" = 0 ] && cmp -s u.o none.o"
	cd ..
}

for_each_target --run localize

# Extended numbering: symbols of sections above 65,280 (SHT_SYMTAB_SHNDX).
awk 'BEGIN { for (i = 0; i < 66000; i++) printf "int v%d = %d;\n", i, i;
	print "__attribute__((weak, visibility(\"hidden\"))) int w = 1;" }' > many.c
gcc -c -fdata-sections -o many.o many.c || exit 99
cp many.o many-ours.o
objcopy --localize-symbol=w --localize-symbol=v65999 many.o many-theirs.o
expect "extended numbering: made local" test "$("$localize" many-ours.o w v65999)" = 2
expect "...as objcopy makes them" same many-ours.o many-theirs.o ""

# Bad input: the reason, non-zero, and a file that is not ELF untouched.
echo 'not an object' > text.o
expect_fails "not ELF: refused" "text.o: not an ELF file" "$localize" text.o x
head -c 100 host/u.o > cut.o
expect_fails "truncated: refused" "cut.o: truncated" "$localize" cut.o x
done_testing
