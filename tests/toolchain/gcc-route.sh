#!/bin/sh
# The gcc -B route (gcc -flto -B<dir>/, lto-ld is the driver's "ld"):
# lto-ld's messages say lto-ld, with the target prefix, not "ld" as GNU
# ld's own; and an LTO report lto-ld cannot write there is a warning
# saying why, not silence.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

write_seed_sources
mkdir gccdir && ln -s "$LTO_LD" gccdir/ld

# route PREFIX: the two checks with ${PREFIX}gcc
route() {
	prefix=$1 name=${1:-host} cc=${1}gcc
	mkdir "$name" && cd "$name" || return
	for f in foo bar main; do "$cc" -O2 -flto -c "../$f.c" -o "$f.o"; done

	out=$("$cc" -O2 -flto -B../gccdir/ -o prog foo.o bar.o main.o -Wl,--lto-partial=bad 2>&1)
	printf '%s\n' "$out" | grep -q "^${prefix}lto-ld: error: --lto-partial='bad'" &&
		ok "$name: messages in the gcc -B route say ${prefix}lto-ld" ||
		{ not_ok "$name: messages in the gcc -B route say ${prefix}lto-ld"; diag "$out"; }

	out=$("$cc" -O2 -flto -B../gccdir/ -o prog foo.o bar.o main.o -Wl,--lto-report=r.txt 2>&1); rc=$?
	[ $rc -eq 0 ] && [ ! -e r.txt ] &&
		printf '%s\n' "$out" | grep -q "^${prefix}lto-ld: warning: r.txt: LTO report not written: in the gcc -B route" &&
		ok "$name: --lto-report in the gcc -B route: linked, and a warning says why no report" ||
		{ not_ok "$name: --lto-report in the gcc -B route: linked, and a warning says why no report"; diag "$out"; }
	cd ..
}

for prefix in "" arm-linux-gnueabihf-; do
	if have "${prefix}gcc"; then route "$prefix"; else missing "${prefix}gcc"; fi
done

done_testing
