#!/bin/sh
# make install: lto-ld and friends, target-prefixed names, and the gcc -B
# directory; then the seed example with a thin `ld -r` output, finally
# linked by `gcc -flto -B<libexecdir>/lto-ld/`, run for the host and ARM.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

: "${TOP_BUILDDIR:?}"
inst=$WORK/inst
if ! out=$(make -C "$TOP_BUILDDIR" install prefix="$inst" 2>&1); then
	not_ok "make install"; diag "$out"; done_testing; exit 1
fi
ok "make install prefix=..."
for n in lto-ld lto-ar lto-nm lto-ranlib; do
	expect "installed bin/$n" test -x "$inst/bin/$n"
done
gccdir=$inst/libexec/lto-ld
expect "libexec/lto-ld/ld is lto-ld" eval '[ -x "$gccdir/ld" ] && "$gccdir/ld" --version | tail -n 1 | grep -q "^lto-ld"'
if [ -f "$TOP_BUILDDIR/lto-ld-plugin.so" ]; then
	expect "installed libexec/lto-ld/lto-ld-plugin.so" test -f "$gccdir/lto-ld-plugin.so"
fi
targets=$(sed -n 's/^LTO_LD_TARGETS = *//p' "$TOP_BUILDDIR/Makefile")
for t in $targets; do
	expect "installed bin/$t-lto-ld" test -x "$inst/bin/$t-lto-ld"
done

# every link relative and resolving (Debian policy 10.5; DESTDIR below)
links=$(find "$inst" -type l | wc -l)
bad=$(find "$inst" -type l | while read -r l; do
	case $(readlink "$l") in /*) echo "$l -> $(readlink "$l")";; esac
	[ -e "$l" ] || echo "$l: dangling"
done)
expect "all $links symbolic links are relative and resolve" eval '[ "$links" -gt 0 ] && [ -z "$bad" ]' || diag "$bad"
expect "libexec/lto-ld/ld -> ../../bin/lto-ld" test "$(readlink "$gccdir/ld")" = ../../bin/lto-ld
# a man page for every program installed
missing=$(for f in "$inst"/bin/*; do
	[ -f "$inst/share/man/man1/$(basename "$f").1" ] || basename "$f"
done)
expect "a man page for each of the $(ls "$inst/bin" | wc -l) programs in bin" test -z "$missing" ||
	diag "missing: $missing"
# the man page names this install's gcc -B directory (make's prefix=)
page=$inst/share/man/man1/lto-ld.1
expect "the installed lto-ld.1 names $gccdir/" \
	grep -qF -- "-B$(printf '%s' "$gccdir" | sed 's/-/\\-/g')/" "$page" ||
	diag "$(grep -n 'libexec' "$page")"
# the kernel series, complete, where git am and patch -p1 can take it
expect "share/lto-ld/kernel-patches/6.12 is kernel-patches/6.12 ($(wc -l < "$inst/share/lto-ld/kernel-patches/6.12/series") patches)" \
	diff -r "$TOP_SRCDIR/kernel-patches/6.12" "$inst/share/lto-ld/kernel-patches/6.12"

# a staged install: its gcc -B ld leads to the staged lto-ld, not to /usr
stage=$WORK/stage
expect "make install DESTDIR=...: libexec/lto-ld/ld is the staged lto-ld" \
	eval 'make -C "$TOP_BUILDDIR" install prefix=/usr DESTDIR="$stage" &&
	      [ "$(readlink -f "$stage/usr/libexec/lto-ld/ld")" = "$stage/usr/bin/lto-ld" ] &&
	      "$stage/usr/libexec/lto-ld/ld" --version | tail -n 1 | grep -q "^lto-ld"'
rm -rf "$stage"

write_seed_sources
# seed PREFIX NAME RUNNER...
seed() {
	prefix=$1 name=$2; shift 2
	mkdir "$name" && cd "$name" || return
	for f in foo bar main; do "${prefix}gcc" -O2 -flto -c "../$f.c" -o "$f.o"; done
	expect "$name: thin ld -r with the installed ${prefix}lto-ld" \
		"$inst/bin/${prefix}lto-ld" -r --lto-partial=thin -o foobar.o foo.o bar.o
	if [ -f "$TOP_BUILDDIR/lto-ld-plugin.so" ]; then
		out=$(LTO_LD_VERBOSE=1 "$inst/bin/${prefix}lto-ld" -r -o native.o foo.o bar.o 2>&1)
		expect "$name: the installed lto-ld loads the installed plugin" \
			text_has "$out" -- "-plugin $inst/bin/../libexec/lto-ld/lto-ld-plugin.so"
	fi
	expect "$name: ${prefix}gcc -flto -B$gccdir/ final link" \
		"${prefix}gcc" -O2 -flto -B"$gccdir/" -o prog main.o foobar.o
	"$@" ./prog; rc=$?
	expect "$name: the program returns 5" test $rc -eq 5
	expect "$name: foo and bar were optimized away" test "$("${prefix}nm" prog | grep -Ec ' (foo|bar)$')" -eq 0
	cd ..
}
for_each_target --run seed

expect "make uninstall removes everything" \
	eval 'make -C "$TOP_BUILDDIR" uninstall prefix="$inst" && [ -z "$(find "$inst" -type f -o -type l)" ]' ||
	diag "$(find "$inst" -type f -o -type l)"
done_testing
