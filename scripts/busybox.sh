#!/bin/sh
# A kbuild-style userland through lto-ld, side by side in one run:
# Debian 12's busybox, defconfig, built plain and with GCC LTO the way
# the README's recipe says (CC="gcc -B<dir with lto-ld as ld>/" LD=lto-ld
# EXTRA_CFLAGS=-flto, and in the cache variant its LTO_LD_CACHE), each
# followed by busybox's own testsuite (make check, with the same make
# arguments as its build); the userland table (size, build time,
# testsuite counts) goes into docs/results.md.
#
# Usage: scripts/busybox.sh LTO_LD [VARIANTS]
#   VARIANTS: plain, lto (lto-ld's default ld -r mode), thin
#   (LTO_LD_PARTIAL=thin), native (LTO_LD_PARTIAL=native), cache (the
#   default mode with an LTRANS cache that starts empty, in the tree's
#   .lto-ld-cache: trylink's repeated links share it), gcc (GCC's own LTO
#   without lto-ld: EXTRA_CFLAGS=-flto and busybox's own gcc -r, the
#   control); default "plain lto thin"; plain always runs, it is the
#   reference
# The source comes from Debian's archive (apt-get source), through a
# sources list and lists folder of this script's own: the system's
# apt configuration is not changed.  Builds are not cached (timings).
# Environment: BUSYBOX_DIR (default _build/busybox) holds it all.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
lto_ld=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); shift
dir=${BUSYBOX_DIR:-$top/_build/busybox}
jobs=$(nproc)
results=$dir/results.txt

# fetch: Debian 12's busybox source package, downloaded and unpacked once
fetch() {
	[ -f "$dir/src/.unpacked" ] && return 0
	apt=$dir/apt
	mkdir -p "$apt/lists/partial" "$dir/dl"
	cat > "$apt/sources.list" <<LIST
deb-src http://deb.debian.org/debian bookworm main
deb-src http://deb.debian.org/debian bookworm-updates main
deb-src http://deb.debian.org/debian-security bookworm-security main
LIST
	set -- -q -o Dir::Etc::sourcelist="$apt/sources.list" \
		-o Dir::Etc::sourceparts=- -o Dir::State::Lists="$apt/lists"
	apt-get "$@" update
	(cd "$dir/dl" && apt-get "$@" source --download-only busybox)
	rm -rf "$dir/src"
	dpkg-source -x "$(ls "$dir"/dl/busybox_*.dsc | tail -n 1)" "$dir/src"
	touch "$dir/src/.unpacked"
}

# gcc_dir: the folder gcc -B takes, whose ld is lto-ld
gcc_dir() {
	mkdir -p "$dir/gcc-B"
	ln -sf "$lto_ld" "$dir/gcc-B/ld"
	echo "$dir/gcc-B"
}

# bbmake VARIANT ARGS...: make in VARIANT's tree, with its make arguments
bbmake() {
	v=$1; shift
	case $v in
	plain) make -C "$dir/$v" "$@" ;;
	gcc) make -C "$dir/$v" EXTRA_CFLAGS=-flto "$@" ;;
	*)	partial= cache=
		case $v in thin|native) partial=$v ;; esac
		[ "$v" = cache ] && cache=$dir/$v/.lto-ld-cache
		env LTO_LD_PARTIAL="$partial" LTO_LD_CACHE="$cache" make -C "$dir/$v" \
			CC="gcc -B$(gcc_dir)/" LD="$lto_ld" EXTRA_CFLAGS=-flto "$@" ;;
	esac
}

# build VARIANT: a fresh copy of the source, defconfig, the timed build
build() {
	rm -rf "$dir/$1"
	cp -a "$dir/src" "$dir/$1"
	bbmake "$1" -s defconfig > /dev/null
	# (time runs this script again, for bbmake)
	/usr/bin/time -f "$1-build,%e,%U,%S" -a -o "$results" \
		"$0" "$lto_ld" _bbmake "$1" -j"$jobs" > "$dir/$1.build.log" 2>&1 ||
		{ tail -n 30 "$dir/$1.build.log"; return 1; }
	size "$dir/$1/busybox_unstripped" | awk -v v="$1" 'NR == 2 {print v "-size," $1 "," $2 "," $3 "," $4}' >> "$results"
}

# check VARIANT: busybox's testsuite; PASS and FAIL counts
check() {
	bbmake "$1" -j"$jobs" check > "$dir/$1.check.log" 2>&1 || true
	echo "$1-check,$(grep -c '^PASS:' "$dir/$1.check.log"),$(grep -c '^FAIL:' "$dir/$1.check.log")" >> "$results"
}

# value KEY FIELD: a field of the results line KEY
value() { awk -F, -v k="$1" -v f="$2" '$1 == k {print $f}' "$results"; }

# table VARIANTS: the userland table, plain first
table() {
	pd=$(value plain-size 5) pw=$(value plain-build 2)
	echo "| busybox $(busybox_version) defconfig | text | data | bss | dec | against plain | build wall (CPU) | against plain | testsuite PASS / FAIL |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for v in "$@"; do
		d=$(value "$v-size" 5) w=$(value "$v-build" 2)
		awk -v v="$(label "$v")" -v t="$(value "$v-size" 2)" -v da="$(value "$v-size" 3)" \
			-v b="$(value "$v-size" 4)" -v d="$d" -v pd="$pd" -v w="$w" -v pw="$pw" \
			-v c="$(value "$v-build" 3)" -v s="$(value "$v-build" 4)" \
			-v p="$(value "$v-check" 2)" -v f="$(value "$v-check" 3)" 'BEGIN {
			printf "| %s | %d | %d | %d | %d | %+.2f%% | %.0f s (%.0f s) | %.2fx | %d / %d |\n",
				v, t, da, b, d, (d - pd) * 100 / pd, w, c + s, w / pw, p, f }'
	done
}

# label VARIANT: what a table row says about VARIANT
label() {
	case $1 in
	plain) echo "plain (gcc, ld)" ;;
	lto) echo "LTO through lto-ld, default mode" ;;
	thin) echo "LTO, LTO_LD_PARTIAL=thin" ;;
	native) echo "LTO, LTO_LD_PARTIAL=native" ;;
	cache) echo "LTO, default mode, LTO_LD_CACHE (empty at the start)" ;;
	gcc) echo "LTO without lto-ld (gcc -flto, busybox's own gcc -r)" ;;
	esac
}

# results_table NAME FILE: FILE into docs/results.md
. "$top/scripts/results-table.sh"

busybox_version() { sed -n 's/^Version: //p' "$(ls "$dir"/dl/busybox_*.dsc | tail -n 1)"; }

if [ "${1:-}" = _bbmake ]; then
	shift
	bbmake "$@"
	exit
fi

[ $# -gt 0 ] || set -- lto thin
set -- plain $(printf '%s\n' "$@" | grep -vx plain)
for v in "$@"; do
	case $v in plain|lto|thin|native|cache|gcc) ;; *) echo "busybox: unknown variant '$v'" >&2; exit 2 ;; esac
done
mkdir -p "$dir"
fetch
: > "$results"
for v in "$@"; do build "$v"; done
for v in "$@"; do check "$v"; done
{
	table "$@"
	echo
	echo "Measured $(date -u +%Y-%m-%d) on $jobs cores by \`scripts/busybox.sh LTO_LD $*\` (\`size\` of busybox_unstripped, bytes; busybox's \`make check\`)."
} > "$dir/userland.md"
cat "$dir/userland.md"
results_table userland-busybox "$dir/userland.md"
