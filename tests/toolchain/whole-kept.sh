#!/bin/sh
# A whole-program ld -r keeps what is referred to from outside the IR
# (native code, -e, -u) or named to keep; with nothing of that, every IR
# definition is made internal and dropped.  That empty object is never
# what was meant: a warning says so, and how to keep symbols.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

need_plugin
seed_ir_objects_private_tmp
ld=$BIN/lto-ld
said='nothing was kept.*--lto-keep=FILE, --lto-keep-symbol=GLOB, -e SYMBOL'

out=$("$ld" -r --lto-whole-program -o wp.o foo.o bar.o main.o 2>&1)
expect "nothing kept: a warning names the ways to keep" text_has "$out" -- "$said" || diag "$out"
expect "...(the object defines nothing)" test -z "$(nm --defined-only wp.o)"

# kept_quietly DESCRIPTION LD-ARGUMENTS...: main kept, and no warning
kept_quietly() {
	desc=$1; shift
	out=$("$ld" -r --lto-whole-program -o wp.o "$@" foo.o bar.o main.o 2>&1)
	! printf '%s\n' "$out" | grep -q 'nothing was kept' && nm wp.o | grep -q ' T main$' &&
		ok "$desc: main kept, no warning" || { not_ok "$desc: main kept, no warning"; diag "$out"; }
}
kept_quietly "--lto-keep-symbol=main" --lto-keep-symbol=main
kept_quietly "-e main" -e main
kept_quietly "-u main" -u main
echo main > keep.txt
kept_quietly "--lto-keep=keep.txt" --lto-keep=keep.txt

out=$("$ld" -r -o all.o foo.o bar.o main.o 2>&1)
expect "no --lto-whole-program: no such warning" eval '! text_has "$out" "nothing was kept"' || diag "$out"

done_testing
