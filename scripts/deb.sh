#!/bin/sh
# The Debian packages, checked as CI checks them, without installing
# anything: build them (dpkg-buildpackage -us -uc -b, from a copy of the
# tree in a temporary folder), run lintian --pedantic on them and on the
# source package (errors and warnings fail; the tags left or overridden
# are justified in docs/debian.md and debian/source/lintian-overrides), unpack them with dpkg -x into a temporary root and run the
# autopkgtest smoke test (debian/tests/seed) against that root.  The
# temporary folder is removed at the end.
# Usage: scripts/deb.sh [LOG]   LOG gets the harness' "# PASS: N" lines,
# which scripts/run-tests.sh adds to its totals.  DEB_OUT=DIR: copy the
# packages there too (to install them: apt install ./lto-ld_*.deb).
# DEB_BUILD_OPTIONS defaults to nocheck: make check runs twice in CI
# already; set it to "" to run it in the package build as well.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
log=${1:-}
version=$(sed -n '1s/^lto-ld (\([^)]*\)).*/\1/p' "$top/debian/changelog")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lto-ld-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }
finish() {
	[ -z "$log" ] || printf '# PASS: %d\n# FAIL: %d\n' "$passed" "$failed" > "$log"
	echo "deb: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

# the tree as git has it (tracked files and new ones not ignored); from
# a release tarball (make dist), the tree less its build folders
src=$tmp/lto-ld-$version
if git -C "$top" rev-parse --git-dir > /dev/null 2>&1; then
	mkdir "$src" && (cd "$top" && git ls-files -z -co --exclude-standard |
		xargs -0 tar -cf - --no-recursion) | tar -C "$src" -xf -
else
	mkdir "$src" && tar -C "$top" --exclude=./_build --exclude=./build -cf - . |
		tar -C "$src" -xf -
fi || { not_ok "copy the tree"; finish; }

# the source package too (format 3.0 (native)), for lintian's source
# checks, made before the build writes into the copy
(cd "$tmp" && dpkg-source -b "lto-ld-$version") > "$tmp/source.log" 2>&1 ||
	{ cat "$tmp/source.log"; not_ok "dpkg-source -b"; }
opts=${DEB_BUILD_OPTIONS-nocheck} profiles=
case " $opts " in *" nocheck "*) profiles=-Pnocheck ;; esac
echo "== deb: dpkg-buildpackage -us -uc -b $profiles (DEB_BUILD_OPTIONS=$opts) =="
if (cd "$src" && DEB_BUILD_OPTIONS=$opts dpkg-buildpackage -us -uc -b $profiles) \
	> "$tmp/build.log" 2>&1; then
	ok "dpkg-buildpackage: $(cd "$tmp" && ls *.deb | tr '\n' ' ')"
	# make check's own line, when the build ran it (no nocheck)
	grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/build.log" | sed 's/^/   make check in the package build: /'

else
	not_ok "dpkg-buildpackage"; tail -40 "$tmp/build.log"
	not_ok "lintian: no packages"; not_ok "autopkgtest seed: no packages"; finish
fi
changes=$(ls "$tmp"/lto-ld_*.changes)
[ -z "${DEB_OUT:-}" ] || cp "$tmp"/*.deb "$DEB_OUT"/ || { not_ok "copy the packages to $DEB_OUT"; finish; }
for deb in "$tmp"/*.deb; do
	echo "-- $(basename "$deb")"
	dpkg-deb -f "$deb" Depends | sed 's/^/   Depends: /'
	dpkg-deb -c "$deb" | awk '{ $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); print "   " $0 }'
done

echo "== deb: lintian --pedantic =="
# (--show-overrides would make the overridden tags fail --fail-on: they
# are in debian/source/lintian-overrides, with the reason)
lintian --pedantic --display-info --fail-on error,warning "$changes" \
	"$tmp/lto-ld_$version.dsc" > "$tmp/lintian.txt" 2>&1
rc=$?
cat "$tmp/lintian.txt"
[ $rc -eq 0 ] && ok "lintian --pedantic: no error, no warning ($(grep -c '^[IP]:' "$tmp/lintian.txt") info/pedantic tags)" ||
	not_ok "lintian --pedantic --fail-on error,warning (exit $rc)"

echo "== deb: dpkg -x into a temporary root, debian/tests/seed against it =="
root=$tmp/root
for deb in "$tmp"/*.deb; do dpkg -x "$deb" "$root" || not_ok "dpkg -x $deb"; done
if LTO_LD_ROOT=$root "$src/debian/tests/seed"; then
	ok "autopkgtest seed against the unpacked packages"
else
	not_ok "autopkgtest seed against the unpacked packages"
fi
finish
