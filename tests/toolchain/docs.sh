#!/bin/sh
# The option and environment lists of the README, the man pages and
# --help must name the same things: a new option fails here until all
# three document it.  Also: each man page passes man's own checks, and
# the man pages and debian/changelog carry configure's version.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

: "${TOP_BUILDDIR:?}"
readme=$TOP_SRCDIR/README.md
man=$TOP_SRCDIR/man

# option names (-x, --xx-yy) in standard input, sorted, one a line
names() { grep -oE -- '(^|[^a-z-])--?[a-z][a-z-]*' | sed 's/^[^-]*//' | sort -u; }
envnames() { grep -oE '[A-Z][A-Z0-9]*_[A-Z0-9_]+|TMPDIR' | sort -u; }

# man_items PAGE SECTION: the tag line after each .TP of SECTION, unescaped
man_items() {
	awk -v sec="$2" '/^\.SH / { on = ($2 == sec) } on && tp { print; tp = 0 }
		on && /^\.TP/ { tp = 1 }' "$1" | sed 's/\\-/-/g; s/\\f[BIRP]//g'
}

# same WHAT A B: the two lists (files) must be equal
same() {
	if [ -s "$2" ] && cmp -s "$2" "$3"; then
		ok "$1 ($(tr '\n' ' ' < "$2"))"
	else
		not_ok "$1"; diag "$(diff "$2" "$3")"
	fi
}

# ---- lto-ld ----
# the table's rows: from the line that introduces it to the first line after it
awk '/^Options lto-ld consumes/ { on = 1; next } on && /^\|/ { t = 1; print; next }
	t { exit }' "$readme" | grep '^| `' |
	cut -d'|' -f2 | names > readme-opts
man_items "$man/lto-ld.1" OPTIONS | names | grep -vx -e --help -e --version > man-opts
"$LTO_LD" --help > help.txt 2>&1
sed -n '/^lto-ld options/,/^Environment/p' help.txt | grep '^  -' |
	sed 's/^  //; s/  .*//' | names > help-opts
same "lto-ld's options: README table = lto-ld.1" readme-opts man-opts
same "lto-ld's options: README table = lto-ld --help" readme-opts help-opts

sed -n '/^## Environment variables/,/^## /p' "$readme" | grep '^| `' |
	cut -d'|' -f2 | envnames > readme-env
man_items "$man/lto-ld.1" ENVIRONMENT | envnames > man-env
sed -n '/^Environment/,/^Exit status/p' help.txt | sed 1d | envnames > help-env
same "lto-ld's environment: README table = lto-ld.1" readme-env man-env
same "lto-ld's environment: README table = lto-ld --help" readme-env help-env

# --help: lto-ld's part first, then the real ld's, then lto-ld's version
line() { grep -n -m1 -e "$1" help.txt | cut -d: -f1; }
own=$(line '^lto-ld options') ld=$(line '^  -a KEYWORD') ver=$(line '^lto-ld [0-9]')
if [ -n "$own" ] && [ -n "$ld" ] && [ -n "$ver" ] && [ "$own" -lt "$ld" ] && [ "$ld" -lt "$ver" ]; then
	ok "lto-ld --help: its own options (line $own), then ld --help (line $ld), then the version line ($ver)"
else
	not_ok "lto-ld --help: its own options, then ld --help (lines ${own:-?} ${ld:-?} ${ver:-?})"
fi
grep -q -- '--gc-sections' help.txt && ok "lto-ld --help holds ld's options (--gc-sections)" ||
	not_ok "lto-ld --help holds ld's options (--gc-sections)"

# ---- lto-sizediff ----
grep -E '^lto-sizediff \[' "$readme" | head -1 | names > readme-sd
man_items "$man/lto-sizediff.1" OPTIONS | names | grep -vx -e --help -e -h -e --version > man-sd
"$TOP_BUILDDIR/lto-sizediff" --help > sd-help.txt 2>&1
grep '^  --' sd-help.txt | sed 's/^  //; s/ .*//' | names > help-sd
same "lto-sizediff's options: README usage line = lto-sizediff.1" readme-sd man-sd
same "lto-sizediff's options: README usage line = lto-sizediff --help" readme-sd help-sd
sed -n '/^### Where the size went/,/^## /p' "$readme" | grep -oE 'LTO_SIZEDIFF_[A-Z]+' |
	sort -u > readme-sdenv
man_items "$man/lto-sizediff.1" ENVIRONMENT | envnames > man-sdenv
grep -oE 'LTO_SIZEDIFF_[A-Z]+' sd-help.txt | sort -u > help-sdenv
same "lto-sizediff's environment: README = lto-sizediff.1" readme-sdenv man-sdenv
same "lto-sizediff's environment: README = lto-sizediff --help" readme-sdenv help-sdenv

# ---- one version: configure's, in the man pages and debian/changelog ----
version=$("$LTO_LD" --version | tail -n 1 | cut -d' ' -f2)
bad=$(for page in "$man"/*.1; do
	grep -q "^\.TH .* \"lto-ld $version\"" "$page" || basename "$page"
done)
head -n 1 "$TOP_SRCDIR/debian/changelog" | grep -q "^lto-ld ($version)" || bad="$bad debian/changelog"
[ -n "$version" ] && [ -z "$bad" ] && ok "the man pages and debian/changelog say version $version" ||
	not_ok "the man pages and debian/changelog say version $version (not: $bad)"

# ---- the pages themselves ----
for page in "$man"/*.1; do
	if ! have man; then
		skip_missing man "$(basename "$page") not checked"
	elif out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null) &&
	     [ -z "$out" ]; then
		ok "$(basename "$page"): man --warnings is silent"
	else
		not_ok "$(basename "$page"): man --warnings"; diag "$out"
	fi
done
done_testing
