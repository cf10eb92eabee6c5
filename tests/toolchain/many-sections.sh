#!/bin/sh
# Inputs with more than 65,280 sections (-ffunction-sections or
# -fdata-sections on a big unit): ELF's extended numbering, where
# e_shnum is 0 and e_shstrndx SHN_XINDEX (the counts are in section 0)
# and symbols of the high sections have st_shndx SHN_XINDEX
# (SHT_SYMTAB_SHNDX).  lto-ld reads such an object as an input and,
# after an ld -r, as its output (debug anchors, --lto-report,
# --lto-whole-program's lost definitions).  gcc -flto -r links the same.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

n=70000
# One variable a section: C that compiles in seconds (functions take longer).
awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "int v%d = %d;\n", i, i }' > many.c
printf 'int f_last(void) { return v%d; }\n' $((n - 1)) >> many.c
cat > ir.c <<'C'
extern int v0, v69999;
int ir_sum(void) { return v0 + v69999; }
C
gcc -O2 -c -fdata-sections -ffunction-sections -o many.o many.c || exit 99
gcc -O2 -flto -c -o ir.o ir.c || exit 99

# sections N FILE: FILE has at least N section headers
sections() {
	readelf -h "$2" | awk -v n="$1" '/Number of section headers/ {
		c = $NF; gsub(/[()]/, "", c); ok = c + 0 >= n } END { exit !ok }'
}
expect "the input uses extended numbering ($n sections)" sections $n many.o

# defines FILE NAME...: nm FILE shows each NAME defined
defines() {
	f=$1; shift
	nm "$f" > nm.out || return 1
	for s in "$@"; do
		grep -Eq " [DTBR] $s\$" nm.out || { echo "$s not defined in $f"; return 1; }
	done
}

expect "lto-ld -r: IR and an object with $n sections" "$LTO_LD" -r -o out.o ir.o many.o
expect "...the output keeps them all" sections $n out.o
expect "...and their symbols, below and above section 65,280" \
	defines out.o ir_sum v0 v65300 v69999 f_last

expect "--lto-report: the output's symbols read" \
	"$LTO_LD" -r --lto-report=report.json -o rep.o ir.o many.o
expect "...the report names the IR definition" grep -q '"ir_sum"' report.json

expect "--lto-whole-program: the output read for lost definitions" \
	"$LTO_LD" -r --lto-whole-program --lto-keep-symbol=ir_sum -o wp.o ir.o many.o
expect "...its symbols" defines wp.o ir_sum v69999

expect "control: gcc -flto -r links the same inputs" \
	gcc -flto -r -nostdlib -o gcc.o ir.o many.o
done_testing
