#!/bin/sh
# The option and environment lists of the README (docs/sizediff.md for
# lto-sizediff), the man pages and --help must name the same things: a
# new option fails here until all three document it.  Also: each man
# page passes man's own checks, and the man pages and debian/changelog
# carry configure's version.  The README and docs/*.md: every relative
# link leads to a file and every #anchor to a heading, every table the
# scripts write says when and by what command it was measured, the
# README's results table agrees with docs/results.md, and no page tells
# history (issue numbers, "the run before").
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

: "${TOP_BUILDDIR:?}"
readme=$TOP_SRCDIR/README.md
sizediff_md=$TOP_SRCDIR/docs/sizediff.md
man=$TOP_SRCDIR/man
# lto-ld.1 is made by make from man/lto-ld.1.in, with the configured paths
ltold1=$TOP_BUILDDIR/man/lto-ld.1

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
man_items "$ltold1" OPTIONS | names | grep -vx -e --help -e --version > man-opts
"$LTO_LD" --help > help.txt 2>&1
sed -n '/^lto-ld options/,/^Environment/p' help.txt | grep '^  -' |
	sed 's/^  //; s/  .*//' | names > help-opts
same "lto-ld's options: README table = lto-ld.1" readme-opts man-opts
same "lto-ld's options: README table = lto-ld --help" readme-opts help-opts

sed -n '/^## Environment variables/,/^## /p' "$readme" | grep '^| `' |
	cut -d'|' -f2 | envnames > readme-env
man_items "$ltold1" ENVIRONMENT | envnames > man-env
sed -n '/^Environment/,/^Exit status/p' help.txt | sed 1d | envnames > help-env
same "lto-ld's environment: README table = lto-ld.1" readme-env man-env
same "lto-ld's environment: README table = lto-ld --help" readme-env help-env

# --help: lto-ld's part first, then the real ld's, then lto-ld's version
line() { grep -n -m1 -e "$1" help.txt | cut -d: -f1; }
own=$(line '^lto-ld options') ld=$(line '^  -a KEYWORD') ver=$(line '^lto-ld [0-9]')
expect "lto-ld --help: its own options (line $own), then ld --help (line $ld), then the version line ($ver)" \
	eval '[ -n "$own" ] && [ -n "$ld" ] && [ -n "$ver" ] && [ "$own" -lt "$ld" ] && [ "$ld" -lt "$ver" ]'
expect "lto-ld --help holds ld's options (--gc-sections)" grep -q -- '--gc-sections' help.txt

# ---- lto-sizediff ----
grep -E '^lto-sizediff \[' "$sizediff_md" | head -1 | names > readme-sd
man_items "$man/lto-sizediff.1" OPTIONS | names | grep -vx -e --help -e -h -e --version > man-sd
"$TOP_BUILDDIR/lto-sizediff" --help > sd-help.txt 2>&1
grep '^  --' sd-help.txt | sed 's/^  //; s/ .*//' | names > help-sd
same "lto-sizediff's options: docs/sizediff.md usage line = lto-sizediff.1" readme-sd man-sd
same "lto-sizediff's options: docs/sizediff.md usage line = lto-sizediff --help" readme-sd help-sd
grep -oE 'LTO_SIZEDIFF_[A-Z]+' "$sizediff_md" |
	sort -u > readme-sdenv
man_items "$man/lto-sizediff.1" ENVIRONMENT | envnames > man-sdenv
grep -oE 'LTO_SIZEDIFF_[A-Z]+' sd-help.txt | sort -u > help-sdenv
same "lto-sizediff's environment: docs/sizediff.md = lto-sizediff.1" readme-sdenv man-sdenv
same "lto-sizediff's environment: docs/sizediff.md = lto-sizediff --help" readme-sdenv help-sdenv

# ---- the README and docs/*.md as pages ----
pages=$(cd "$TOP_SRCDIR" && ls README.md docs/*.md)

# outside_code FILE: FILE without its fenced code blocks
outside_code() { awk '/^```/ { code = !code; next } !code' "$1"; }

# anchors FILE: the #anchors of FILE's headings, as GitHub makes them
anchors() {
	outside_code "$1" | sed -n 's/^#\{1,6\} //p' | tr 'A-Z' 'a-z' |
		sed 's/[^a-z0-9 _-]//g; s/ /-/g'
}

# links FILE: the targets of FILE's markdown links that are not URLs
links() {
	outside_code "$1" | grep -o '\]([^)]*)' | sed 's/^](//; s/)$//' |
		grep -v -e '^[a-z]*://' -e '^mailto:'
}

# bad_links PAGE: each link of PAGE (relative to it) to no file or no heading
bad_links() {
	dir=$(dirname "$TOP_SRCDIR/$1")
	links "$TOP_SRCDIR/$1" | while read -r link; do
		file=${link%%#*} anchor=
		case $link in *'#'*) anchor=${link#*#};; esac
		target=$TOP_SRCDIR/$1
		[ -z "$file" ] || target=$dir/$file
		if [ ! -e "$target" ]; then
			echo "$1: $link: no such file"
		elif [ -n "$anchor" ] && ! anchors "$target" | grep -qx -- "$anchor"; then
			echo "$1: $link: no such heading"
		fi
	done
}

n=0 bad=
for page in $pages; do
	n=$((n + $(links "$TOP_SRCDIR/$page" | wc -l)))
	bad="$bad$(bad_links "$page")"
done
expect "README.md and docs/*.md: all $n links lead to a file and heading" \
	eval '[ "$n" -gt 20 ] && [ -z "$bad" ]' || diag "$bad"

# tables NAME-PATTERN FILE: the marked tables of FILE (their marker names)
tables() { sed -n 's/^<!-- \([a-z0-9_-]*\) -->$/\1/p' "$2" | grep -x -- "$1"; }

# undated FILE: each marked table of FILE without a "Measured DATE ... by
# `COMMAND`" line in it or in the two lines after its end marker, unless
# all it holds is "Not measured yet: `COMMAND` writes it."
undated() {
	for t in $(tables '.*' "$1"); do
		awk -v b="<!-- $t -->" -v e="<!-- /$t -->" '$0 == b { on = 1; next }
			$0 == e { on = 0; after = 2; next } on { print } after > 0 { print; after-- }' "$1" > marked.md
		grep -qE '^Measured 20[0-9]{2}-[0-9]{2}-[0-9]{2} .*by `[^`]+`' marked.md ||
			{ head -1 marked.md | grep -qE '^Not measured yet: `[^`]+` writes it\.$' &&
			  ! grep -q '^|' marked.md; } ||
			echo "$(basename "$1"): $t"
	done
}

n=0 bad=
for page in $pages; do
	n=$((n + $(tables '.*' "$TOP_SRCDIR/$page" | wc -l)))
	bad="$bad$(undated "$TOP_SRCDIR/$page")"
done
expect "all $n marked tables say when and by what command they were measured" \
	eval '[ "$n" -ge 7 ] && [ -z "$bad" ]' || diag "$bad"

# the README's kernel sizes: each row's two dec values in the same row
# of docs/results.md's kernel-sizes table, and the same date and command
results=$TOP_SRCDIR/docs/results.md
# block NAME FILE: the lines of FILE from NAME's marker to its end marker
block() { sed -n "/^<!-- $1 -->\$/,/^<!-- \/$1 -->\$/p" "$2"; }
block kernel-sizes-summary "$readme" > summary.md
block kernel-sizes "$results" > sizes.md
bad=$(grep '^| [a-z0-9]* | [0-9]' summary.md | while IFS='|' read -r _ target nolto lto _; do
	target=$(echo $target) nolto=$(echo $nolto) lto=$(echo "$lto" | cut -d' ' -f2)
	grep "^| $target | " sizes.md | grep -F -- "/ $nolto |" | grep -qF -- "/ $lto (" ||
		echo "$target: $nolto $lto"
done)
rows=$(grep -c '^| [a-z0-9]* | [0-9]' summary.md)
[ "$rows" -ge 3 ] && [ -z "$bad" ] &&
	[ "$(grep '^Measured' summary.md)" = "$(grep '^Measured' sizes.md)" ] &&
	ok "README's kernel sizes ($rows rows) = docs/results.md's kernel-sizes table, same date and command" ||
	{ not_ok "README's kernel sizes = docs/results.md's kernel-sizes table"; diag "$bad" "$(grep '^Measured' summary.md sizes.md)"; }

# no history in user documentation
hist=$(cd "$TOP_SRCDIR" && grep -nHiE 'issue [0-9]+|issues? #[0-9]|run before|predates|FACTS\.md' $pages)
expect "README.md and docs/*.md tell no history (issue numbers, the run before)" test -z "$hist" ||
	diag "$hist"

# ---- one version: configure's, in the man pages and debian/changelog ----
version=$("$LTO_LD" --version | tail -n 1 | cut -d' ' -f2)
bad=$(for page in "$ltold1" "$man"/*.1; do
	grep -q "^\.TH .* \"lto-ld $version\"" "$page" || basename "$page"
done)
head -n 1 "$TOP_SRCDIR/debian/changelog" | grep -q "^lto-ld ($version)" || bad="$bad debian/changelog"
expect "the man pages and debian/changelog say version $version" eval '[ -n "$version" ] && [ -z "$bad" ]' ||
	diag "not: $bad"

# ---- the pages themselves ----
left=$(grep -o '@[a-z]*@' "$ltold1" | sort -u | tr '\n' ' ')
expect "man/lto-ld.1: every @name@ of lto-ld.1.in replaced" eval '[ -s "$ltold1" ] && [ -z "$left" ]' ||
	diag "left: $left"
# silent COMMAND...: COMMAND succeeds and writes nothing on stderr (which
# it prints again, for expect)
silent() {
	silent_err=$("$@" 2>&1 >/dev/null) && [ -z "$silent_err" ] && return 0
	printf '%s\n' "$silent_err"; return 1
}
for page in "$ltold1" "$man"/*.1; do
	if have man; then
		expect "$(basename "$page"): man --warnings is silent" \
			silent env LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page"
	else
		skip_missing man "$(basename "$page") not checked"
	fi
done
done_testing
