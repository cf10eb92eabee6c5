#!/bin/sh
# The README's recipes, read from README.md itself (the fenced block after
# each "<!-- recipe: NAME -->" marker) and run as written, with HOME a
# folder of the test's own: the install recipe's prefix gets a
# `make install` of this build and its PATH line, the host program and
# the kbuild-style tree recipes run in full (the tree is one the test
# writes: two directories ld -r'd by $(LD), the program linked by
# $(CC)).  The kernel recipe cannot run here: the series it applies must
# be installed, complete, and define the Kconfig symbol it enables, and
# its LD must be an lto-ld that Kconfig recognizes.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

: "${TOP_BUILDDIR:?}"
readme=$TOP_SRCDIR/README.md
HOME=$WORK/home
export HOME
mkdir -p "$HOME"

# recipe NAME: the lines of the code block after NAME's marker
recipe() {
	awk -v m="<!-- recipe: $1 -->" '$0 == m { on = 1; next }
		on && /^```/ { if (code) exit; code = 1; next }
		on && code { print }' "$readme"
}

# run_recipe NAME DIR: run NAME's lines in DIR with sh -e, output in NAME.out
run_recipe() {
	recipe "$1" > "$1.sh"
	# (as a user types it: not under the test's make, whose -s would
	# silence the recipe's make)
	(cd "$2" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL sh -e "$WORK/$1.sh") > "$1.out" 2>&1
}

# expand TEXT: TEXT with the shell's expansions ($HOME), as the recipe gets it
expand() { eval "printf '%s\n' \"$1\""; }

for r in install host kbuild kernel; do
	expect "README.md has the $r recipe ($(recipe $r | wc -l) lines)" test -n "$(recipe $r)" ||
		diag "(a code block after <!-- recipe: $r -->)"
done

# ---- install: the prefix of its configure line, make install, its PATH ----
prefix=$(recipe install | sed -n 's|^\./configure .*--prefix=\([^ ]*\).*|\1|p')
prefix=$(expand "$prefix")
recipe install | grep -q 'make install' && [ -n "$prefix" ] &&
	ok "install recipe: ./configure --prefix=$prefix, then make install" ||
	not_ok "install recipe: ./configure --prefix=..., then make install"
if out=$(make -C "$TOP_BUILDDIR" install prefix="$prefix" 2>&1); then
	ok "make install prefix=$prefix"
else
	not_ok "make install prefix=$prefix"; diag "$out"; done_testing; exit 1
fi
recipe install | grep '^export ' > path.sh
. ./path.sh
[ "$(command -v lto-ld)" = "$prefix/bin/lto-ld" ] &&
	ok "install recipe's PATH: lto-ld is $prefix/bin/lto-ld" ||
	not_ok "install recipe's PATH: lto-ld is $prefix/bin/lto-ld (is $(command -v lto-ld))"

# ---- a host program ----
if run_recipe host "$WORK"; then
	ok "host recipe runs"
else
	not_ok "host recipe runs"; diag "$(cat host.out)"
fi
expect "host recipe: the program returns 5" grep -qx 'exit status 5' host.out || diag "$(cat host.out)"
grep -q '^no foo, no bar' host.out && ! nm hello/prog | grep -qw -e foo -e bar &&
	ok "host recipe: LTO removed foo and bar" ||
	{ not_ok "host recipe: LTO removed foo and bar"; diag "$(cat host.out)"; }
bdir=$(expand "$(grep -o -- ' -B[^ ]*' host.sh | head -n 1 | cut -c4-)")
if [ "$bdir" = "$prefix/libexec/lto-ld/" ] && [ "$(gcc -B"$bdir" -print-prog-name=ld)" = "${bdir}ld" ]; then
	ok "host recipe: gcc -B$bdir finds the installed ld (-print-prog-name=ld)"
else
	not_ok "host recipe: its gcc -B folder is $prefix/libexec/lto-ld/ and holds ld (${bdir:-none})"
fi

# ---- a kbuild-style userland tree ----
# write_tree DIR: lib/ and app/ ld -r'd into built-in.o, prog by $(CC)
write_tree() {
	mkdir -p "$1/lib" "$1/app"
	printf 'int scale(int x) { return x * 3; }\n' > "$1/lib/calc.c"
	printf 'int never_called(int x) { return x * x + 17; }\n' > "$1/lib/unused.c"
	printf 'int scale(int x);\nint app_run(int x) { return scale(x) + 1; }\n' > "$1/app/app.c"
	printf 'int app_run(int x);\nint main(void) { return app_run(4); }\n' > "$1/main.c"
	printf '%s\n' 'CC = gcc' 'LD = ld' 'CFLAGS = -O2 $(EXTRA_CFLAGS)' \
		'prog: lib/built-in.o app/built-in.o main.o' '	$(CC) $(CFLAGS) -o $@ $^' \
		'lib/built-in.o: lib/calc.o lib/unused.o' '	$(LD) -r -o $@ $^' \
		'app/built-in.o: app/app.o' '	$(LD) -r -o $@ $^' > "$1/Makefile"
}
write_tree tree
if run_recipe kbuild tree; then
	ok "kbuild recipe runs"
else
	not_ok "kbuild recipe runs"; diag "$(cat kbuild.out)"
fi
expect "kbuild recipe: lto-ld takes the ld -r steps" grep -q 'lto-ld -r -o lib/built-in.o' kbuild.out ||
	diag "$(cat kbuild.out)"
tree/prog; rc=$?
expect "kbuild recipe: the program returns 13" test $rc -eq 13 || diag "got $rc"
syms=$(nm tree/prog 2>&1)
! printf '%s\n' "$syms" | grep -qw -e never_called -e scale -e app_run &&
	ok "kbuild recipe: LTO across the directories (never_called removed, scale and app_run inlined)" ||
	{ not_ok "kbuild recipe: LTO across the directories"; diag "$(printf '%s\n' "$syms" | grep -w -e never_called -e scale -e app_run)"; }
expect "kbuild recipe: its LTO_LD_CACHE holds entries" test -n "$(ls -A tree/.lto-ld-cache 2>/dev/null)"

# ---- a kernel: what the recipe names, since it cannot be built here ----
recipe kernel > kernel.sh
series_dir=$(expand "$(sed -n 's/^s=//p' kernel.sh)")
if [ -f "$series_dir/series" ]; then
	ok "kernel recipe: the series it applies is installed ($series_dir/series)"
	absent=$(while read -r p; do [ -f "$series_dir/$p" ] || echo "$p"; done < "$series_dir/series")
	[ -z "$absent" ] && [ "$(wc -l < "$series_dir/series")" -gt 0 ] &&
		ok "kernel recipe: each of its $(wc -l < "$series_dir/series") patches is there" ||
		{ not_ok "kernel recipe: each patch of the series is there"; diag "$absent"; }
else
	not_ok "kernel recipe: the series it applies is installed (${series_dir:-no s=...}/series)"
fi
sym=$(sed -n 's/^scripts\/config .*--enable \([A-Z0-9_]*\).*/\1/p' kernel.sh)
defined=$(cd "$TOP_SRCDIR/kernel-patches/6.12" && grep -lx "+config $sym" $(cat series))
[ -n "$sym" ] && [ -n "$defined" ] &&
	ok "kernel recipe: --enable $sym, defined by the series ($defined)" ||
	not_ok "kernel recipe: the symbol it enables (${sym:-none}) is defined by the series"
expect "the README names CONFIG_$sym=y" grep -q "CONFIG_$sym=y" "$readme"
ld=$(sed -n 's/^make .*LD=\([^ ]*\).*/\1/p' kernel.sh | sort -u)
if [ "$(printf '%s\n' "$ld" | wc -l)" -ne 1 ] || [ -z "$ld" ]; then
	not_ok "kernel recipe: one LD on its make lines (${ld:-none})"
elif have "${ld%-lto-ld}-ld"; then
	# HAS_LTO_GCC (patch 0001): $(LD) --version | grep -q '^lto-ld '
	"$ld" --version 2>/dev/null | grep -q '^lto-ld ' &&
		ok "kernel recipe: LD=$ld is installed and Kconfig's test sees lto-ld" ||
		not_ok "kernel recipe: LD=$ld is installed and Kconfig's test sees lto-ld"
else
	missing "${ld%-lto-ld}-ld"
fi
tarball=$(sed -n 's/^tar xf \([^ ]*\) .*/\1/p' kernel.sh)
dir=$(sed -n 's/^tar xf .* && cd \([^ ]*\)$/\1/p' kernel.sh)
if [ -f "$tarball" ]; then
	top=$(tar tf "$tarball" 2>/dev/null | head -n 1)
	expect "kernel recipe: $tarball unpacks into $dir/" eval '[ -n "$dir" ] && [ "$top" = "$dir/" ]' ||
		diag "it holds $top"
else
	skip_missing linux-source-6.12 "${tarball:-the tarball}"
fi

make -C "$TOP_BUILDDIR" uninstall prefix="$prefix" > /dev/null 2>&1
done_testing
