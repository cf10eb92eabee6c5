#!/bin/sh
# The installed lto-ld(1) names the folders of this install, not
# /usr/libexec: a build configured with --prefix (and one with
# --libexecdir) installs a page whose gcc -B directory, plugins and
# kernel series are under that prefix, and configure's summary names
# the same folder.  Configured in a folder of its own, only that page is
# installed (make install-ltold-man, into a DESTDIR).
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

: "${TOP_BUILDDIR:?}"

# install_page NAME CONFIGURE-OPTIONS...: configure build-NAME (its
# output in NAME.log), install its lto-ld.1 under stage-NAME; the page
# rendered by man -l (groff's minus signs as hyphens) in NAME.txt
install_page() {
	name=$1; shift
	mkdir "build-$name" &&
	(cd "build-$name" && "$TOP_SRCDIR/configure" "$@" &&
	 make -s install-ltold-man DESTDIR="$WORK/stage-$name") > "$name.log" 2>&1 &&
	page=$(find "$WORK/stage-$name" -name lto-ld.1) && [ -n "$page" ] &&
	LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$page" 2>/dev/null | col -b > "$name.txt" ||
		{ cat "$name.log"; return 1; }
}

# names NAME DIR DESC: NAME.txt names DIR/ and never /usr/libexec
names() {
	if grep -qF "$2/" "$1.txt" && ! grep -q '/usr/libexec\|/usr/share/lto-ld' "$1.txt"; then
		ok "$3"
	else
		not_ok "$3"; diag "$(grep -n 'libexec\|kernel-patches' "$1.txt")"
	fi
}

if ! have man; then
	skip_missing man "the installed page is read with man -l"
	done_testing; exit
fi
if [ -f "$TOP_SRCDIR/config.status" ]; then
	skip "an in-tree build: configure runs in no other folder"
	done_testing; exit
fi
if out=$(install_page prefix --prefix=/opt/lto-ld-test); then
	ok "configure --prefix=/opt/lto-ld-test; make install-ltold-man"
	names prefix /opt/lto-ld-test/libexec/lto-ld \
		"--prefix: the installed lto-ld(1) names /opt/lto-ld-test/libexec/lto-ld/"
	grep -q 'gcc -flto -B/opt/lto-ld-test/libexec/lto-ld/ ' prefix.txt &&
		ok "--prefix: its synopsis reads gcc -flto -B/opt/lto-ld-test/libexec/lto-ld/" ||
		not_ok "--prefix: its synopsis reads gcc -flto -B/opt/lto-ld-test/libexec/lto-ld/"
	names prefix /opt/lto-ld-test/share/lto-ld/kernel-patches/6.12 \
		"--prefix: the kernel series under /opt/lto-ld-test/share/lto-ld/"
	summary=$(sed -n '/^lto-ld [0-9.]* configured:$/,$p' prefix.log)
	printf '%s\n' "$summary" | grep -qx '  gcc -B directory: */opt/lto-ld-test/libexec/lto-ld/' &&
		printf '%s\n' "$summary" | grep -q '^  target prefixes:' &&
		printf '%s\n' "$summary" | grep -q '^  linker plugin:' &&
		printf '%s\n' "$summary" | grep -q '^  compiler plugin for:' &&
		ok "configure's summary: the gcc -B directory, target prefixes, plugins" ||
		{ not_ok "configure's summary: the gcc -B directory, target prefixes, plugins"; diag "$summary"; }
else
	not_ok "configure --prefix=/opt/lto-ld-test; make install-ltold-man"; diag "$out"
fi
if out=$(install_page libexec --prefix=/opt/x --libexecdir=/opt/x/lib); then
	names libexec /opt/x/lib/lto-ld \
		"--libexecdir=/opt/x/lib: the installed lto-ld(1) names /opt/x/lib/lto-ld/"
else
	not_ok "configure --libexecdir=/opt/x/lib; make install-ltold-man"; diag "$out"
fi
done_testing
