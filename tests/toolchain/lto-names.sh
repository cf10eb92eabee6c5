#!/bin/sh
# GCC's LTO renames statics it moves between partitions NAME.lto_priv.N
# (global and hidden when partitions share them), and identical code
# folding leaves a merged copy's names on one body.  In the object its
# ld -r with LTO writes, lto-ld gives them their source names back (as
# the same link through GCC's own driver does not): no .lto_priv name,
# every such symbol local, one symbol for the folded twins, relocations
# that still land, and a program with the result of the build without
# LTO.  A data symbol named *_ops then reads as modpost's section check
# expects.  Host (ELF64, RELA) and ARM (ELF32, REL).
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

need_plugin

# a.c and b.c: the same static names; twin is the same code in both
# (folded into one), net_init is not; main.c calls both files.
for f in a b; do
	cat > $f.c <<C
struct ops { int (*init)(int); };
static __attribute__((noinline)) int twin(int x) { return x * 7 + 3; }
static int net_init(int x) { return twin(x) $( [ $f = a ] && echo + || echo - ) 2; }
struct ops ${f}_net_ops = { net_init };
int ${f}_entry(int x) { return twin(x) + ${f}_net_ops.init(x); }
C
done
cat > main.c <<'C'
int a_entry(int), b_entry(int);
int main(int argc, char **argv) { (void)argv; return (a_entry(argc) ^ b_entry(argc)) & 0x7f; }
C

# symbols OBJECT PREFIX: "BIND NAME" of each function and object symbol
symbols() {
	"$2readelf" -sW "$1" | awk '$4 == "FUNC" || $4 == "OBJECT" { print $5, $8 }' | sort
}

# names PREFIX NAME [RUN...]
names() {
	prefix=$1 name=$2; shift 2
	mkdir "$name" && cd "$name" || return
	# every function a partition of its own: each static is shared
	lto="-flto-partition=max"
	"${prefix}gcc" -O2 -c ../main.c -o main.o &&
	"${prefix}gcc" -O2 -flto -c ../a.c ../b.c ||
		{ not_ok "$name: compile"; cd ..; return; }
	"${prefix}gcc" -O2 ../a.c ../b.c main.o -o plain || { not_ok "$name: plain build"; cd ..; return; }
	"${prefix}gcc" -O2 -flto $lto -r -nostdlib -flinker-output=nolto-rel \
		a.o b.o -o gcc.o 2>/dev/null || { not_ok "$name: GCC's own ld -r"; cd ..; return; }
	expect "$name: GCC's own ld -r names statics NAME.lto_priv.N, global" \
		test "$(symbols gcc.o "$prefix" | grep -c '^GLOBAL .*\.lto_priv\.')" -ge 3
	expect "$name: lto-ld's ld -r" env LTO_LD_LTO_FLAGS=$lto \
		"$BIN/${prefix}lto-ld" -r --lto-partial=native -o ab.o a.o b.o
	symbols ab.o "$prefix" > ab.txt
	expect "$name: ...no .lto_priv name" sh -c '! grep -q "\.lto_priv" ab.txt'
	expect "$name: ...net_init twice, local (one of each file)" \
		test "$(grep -c '^LOCAL net_init$' ab.txt)" = 2
	expect "$name: ...twin once: the folded copies are one symbol" \
		test "$(grep -c ' twin$' ab.txt)" = 1
	expect "$name: ...the *_ops keep their names" \
		test "$(grep -c '^GLOBAL [ab]_net_ops$' ab.txt)" = 2
	expect "$name: ...binutils reads it without complaint" \
		sh -c "[ -z \"\$(${prefix}readelf -sr ab.o 2>&1 >/dev/null)\" ]"
	expect "$name: ...links" "${prefix}gcc" -o lto main.o ab.o
	"$@" ./plain 5; want=$?
	"$@" ./lto 5; got=$?
	expect "$name: ...and runs as the build without LTO ($got, $want)" test "$got" = "$want"
	cd ..
}

for_each_target --run names

# Extended numbering, as a kernel's vmlinux.o has it: folded twins and a
# shared static in a section numbered above 65,280 (SHT_SYMTAB_SHNDX),
# and a reference to an undefined global after them in the table.
awk 'BEGIN { for (i = 0; i < 66000; i++) printf ".section .data.v%d,\"aw\"\nv%d: .long %d\n", i, i, i
	print ".section .text.last,\"ax\",@progbits"
	print ".type dup.lto_priv.0,@function\ndup.lto_priv.0:"
	print ".type dup.lto_priv.1,@function\ndup.lto_priv.1:\n\tret"
	print ".size dup.lto_priv.0, 1\n.size dup.lto_priv.1, 1"
	print ".globl shared.lto_priv.7\n.hidden shared.lto_priv.7\n.type shared.lto_priv.7,@function"
	print "shared.lto_priv.7:\n\tcall ext_fn\n\tcall shared.lto_priv.7\n\tret" }' > many.s
gcc -c -o many.o many.s || exit 99
expect "extended numbering: the names given back" \
	"$TOP_BUILDDIR/tests/unit/elf-localize" many.o --lto-names
readelf -sW many.o > many.syms 2> many.err
expect "...binutils reads it without complaint" test ! -s many.err
expect "...one dup, in the section above 65,280" \
	test "$(awk '$8 == "dup" { print $4, $5, $7 }' many.syms)" = \
	"FUNC LOCAL $(readelf -SW many.o | sed -n 's/^ *\[ *\([0-9]*\)\] \.text\.last .*/\1/p')"
expect "...shared local, under its name" \
	test "$(awk '$8 == "shared" { print $5 }' many.syms)" = LOCAL
expect "...no .lto_priv name" sh -c '! grep -q "lto_priv" many.syms'
expect "...the relocations name ext_fn and shared still" \
	test "$(readelf -rW many.o | awk '/R_X86_64_PLT32/ { print $5 }' | paste -sd' ' -)" = "ext_fn shared"
expect "...v65999 still in its own section" \
	test "$(awk '$8 == "v65999" { print $7 }' many.syms)" = \
	"$(readelf -SW many.o | sed -n 's/^ *\[ *\([0-9]*\)\] \.data\.v65999 .*/\1/p')"

# Bad input: the file and the reason, non-zero, and the object untouched.
restore="$TOP_BUILDDIR/tests/unit/elf-localize"
echo 'not an object' > text.o
expect_fails "not ELF: refused" "text.o: .*not an ELF file" "$restore" text.o --lto-names
head -c 100 host/ab.o > cut.o
expect_fails "truncated: refused" "cut.o: .*truncated" "$restore" cut.o --lto-names
expect_fails "missing: refused" "none.o: .*No such file" "$restore" none.o --lto-names
# (the symbol table's count of locals, sh_info, beyond its symbols)
cp host/gcc.o bad.o
symtab=$(readelf -SW bad.o | sed -n 's/^ *\[ *\([0-9]*\)\] \.symtab .*/\1/p')
shoff=$(od -An -t u8 -j 40 -N 8 bad.o | tr -d ' ')
printf '\377\377\377\000' | dd of=bad.o bs=1 seek=$((shoff + symtab * 64 + 44)) conv=notrunc 2>/dev/null
cp bad.o bad-before.o
expect_fails "a bad symbol table: refused" "bad.o: .*bad symbol table" "$restore" bad.o --lto-names
expect "...and left as it was" cmp -s bad.o bad-before.o
done_testing
