#!/bin/sh
# The seed article's example, linked by lto-ld with no gcc driver, for the
# host and for ARM: only main survives, and main is "return 5" in two
# instructions.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

write_seed_sources

# seed TARGET-PREFIX NAME
seed() {
	prefix=$1 name=$2
	mkdir "$name" && cd "$name" || return
	for f in foo bar main; do
		"${prefix}gcc" -O2 -flto -c "../$f.c" -o "$f.o"
	done
	expect "$name: lto-ld links the IR objects" \
		"$BIN/${prefix}lto-ld" -e main -o test foo.o bar.o main.o
	syms=$("${prefix}nm" test | awk '$3 ~ /foo|bar|main/ {print $3}' | tr '\n' ' ')
	expect "$name: nm shows main only" test "$syms" = "main "
	insns=$("${prefix}objdump" -d --disassemble=main test |
		awk '/^ +[0-9a-f]+:/' | wc -l)
	first=$("${prefix}objdump" -d --disassemble=main test | awk '/^ +[0-9a-f]+:/ {print; exit}')
	expect "$name: main is 'return 5' in two instructions" \
		eval '[ "$insns" -eq 2 ] && text_has "$first" -E "[$]0x5|#5"' ||
		diag "$("${prefix}objdump" -d --disassemble=main test)"
	# Without LTO the same link keeps all three functions: the test can fail.
	for f in foo bar main; do "${prefix}gcc" -O2 -c "../$f.c" -o "n$f.o"; done
	"$BIN/${prefix}lto-ld" -e main -o plain nfoo.o nbar.o nmain.o
	n=$("${prefix}nm" plain | grep -Ec ' T (foo|bar|main)$')
	expect "$name: control: without -flto all three stay" test "$n" -eq 3
	cd ..
}

for_each_target seed
done_testing
