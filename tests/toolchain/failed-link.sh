#!/bin/sh
# A link that fails leaves no output, as GNU ld's: not the one from an
# earlier link (make would take it for this one's), and no temporary
# file.  A final link with an undefined symbol; an ld -r of every
# partial mode (multiple definitions; a missing input for thin).
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

seed_ir_objects_private_tmp
ld=$BIN/lto-ld
printf 'int foo(void) { return 7; }\n' > foo2.c
gcc -O2 -flto -c foo2.c -o foo2.o

# failed_link DESCRIPTION LD-ARGUMENTS...: with an old "out" in place,
# the link fails, and neither out nor a temporary file is left
failed_link() {
	desc=$1; shift
	echo 'the output of an earlier link' > out
	if "$ld" -o out "$@" > log 2>&1; then
		not_ok "$desc: the link fails"; diag "$(cat log)"
		return
	fi
	left=$(ls -A . | grep -E 'lto-ld-'; ls -A tmp)
	expect "$desc: no output, no temporary file" eval '[ ! -e out ] && [ -z "$left" ]' ||
		diag "$(ls -l out 2>&1)" "$left" "$(cat log)"
}

failed_link "final link, an undefined symbol" -e main bar.o main.o
for mode in fat native ir; do
	failed_link "ld -r --lto-partial=$mode, a symbol defined twice" \
		-r --lto-partial=$mode foo.o foo2.o bar.o
done
failed_link "ld -r --lto-partial=thin, a missing input" \
	-r --lto-partial=thin foo.o bar.o missing.o
failed_link "ld -r, the default mode, a missing input" -r foo.o bar.o missing.o

# what is not the link's to remove stays: an output that names an input
cp foo.o foo.o.orig
"$ld" -o foo.o foo.o bar.o > log 2>&1
expect "an output that is an input: refused, not removed" cmp -s foo.o foo.o.orig || diag "$(cat log)"
# and a device is no file to remove
"$ld" -e main -o /dev/null foo.o main.o > log 2>&1
expect "a failed link to /dev/null leaves the device" test -c /dev/null

done_testing
