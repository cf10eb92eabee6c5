#!/bin/sh
# End-to-end demonstration: the seed article's example (foo.c, bar.c,
# main.c), compiled with -O2 -flto and linked by lto-ld with no gcc driver,
# for the host and for ARM; then a thin `ld -r` output linked by
# `gcc -flto -B` and run.  Prints what LTO removed.
# Usage: scripts/demo.sh PATH-TO-lto-ld
set -eu

lto_ld=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d "${TMPDIR:-/tmp}/lto-ld-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

printf 'int foo(void) { return 1; }\n' > foo.c
printf 'int foo(void);\nint bar(void) { return foo() + 2; }\n' > bar.c
printf 'int foo(void);\nint main(void) { return foo() + 4; }\n' > main.c
mkdir bin gccb
for n in lto-ld arm-linux-gnueabihf-lto-ld; do ln -s "$lto_ld" "bin/$n"; done
ln -s "$lto_ld" gccb/ld

# functions NM FILE: the seed's functions left in FILE
functions() { "$1" "$2" | awk '$3 ~ /^(foo|bar|main)$/ {print $3}' | sort | tr '\n' ' '; }

# demo PREFIX NAME RUNNER...
demo() {
	prefix=$1 name=$2; shift 2
	mkdir "$name"; cd "$name"
	for f in foo bar main; do
		"${prefix}gcc" -O2 -c "../$f.c" -o "plain-$f.o"
		"${prefix}gcc" -O2 -flto -c "../$f.c" -o "$f.o"
	done
	../bin/${prefix}lto-ld -e main -o plain plain-foo.o plain-bar.o plain-main.o
	../bin/${prefix}lto-ld -e main -o lto foo.o bar.o main.o
	echo "== $name: ${prefix}lto-ld -e main -o lto foo.o bar.o main.o =="
	echo "without LTO: $(functions "${prefix}nm" plain)"
	echo "with LTO:    $(functions "${prefix}nm" lto)"
	"${prefix}objdump" -d --disassemble=main lto | awk '/^ +[0-9a-f]+:/'
	"${prefix}size" plain lto | sed 's/^/  /'

	../bin/${prefix}lto-ld -r --lto-partial=thin -o foobar.o foo.o bar.o
	"${prefix}gcc" -O2 -flto -B../gccb/ -o prog main.o foobar.o
	set +e
	"$@" ./prog; rc=$?
	set -e
	echo "thin ld -r + gcc -flto -B: prog exits with $rc (expected 5), functions left: $(functions "${prefix}nm" prog)"
	cd ..
}

demo "" host
if command -v arm-linux-gnueabihf-gcc >/dev/null; then
	demo arm-linux-gnueabihf- arm qemu-arm -L /usr/arm-linux-gnueabihf
fi
