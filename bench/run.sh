#!/bin/sh
# Benchmarks (not part of make check), side by side in one run:
#  1. passthrough overhead: lto-ld vs ld linking 2,000 small non-IR
#     objects (median of RUNS alternating runs, as a ratio and in ms);
#  2. the time lto-ld takes to scan a 5,000-member thin archive for IR
#     (its own measurement of the scan phase, median of RUNS).
# Prints a markdown table.  Usage: bench/run.sh PATH-TO-lto-ld [RUNS]
set -eu

lto_ld=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
runs=${2:-21}
work=$(mktemp -d "${TMPDIR:-/tmp}/lto-ld-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

# make_objects N: N small objects, each with a function and some data
make_objects() {
	i=0
	while [ "$i" -lt "$1" ]; do
		printf 'int f%d(int x) { return x * %d + 1; }\nint d%d[4] = { %d };\n' \
			"$i" "$i" "$i" "$i"
		i=$((i + 1))
	done > all.c
	# one object per function: split the file and compile in one gcc call each
	mkdir -p objs
	awk '/^int f/ { n++ } { print > ("objs/o" n ".c") }' all.c
	(cd objs && ls ./*.c | xargs -P "$(nproc)" -n 200 gcc -O2 -c)
	ls objs/*.o > objs.list
}

# time_ms CMD...: wall time of one run in milliseconds
time_ms() {
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000))
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

make_objects 2000
ld_real=$(command -v ld)
: > ld.times; : > lto.times
i=0
while [ "$i" -lt "$runs" ]; do
	time_ms "$ld_real" -e f1 -o out.ld @objs.list >> ld.times
	time_ms "$lto_ld" -e f1 -o out.lto @objs.list >> lto.times
	i=$((i + 1))
done
cmp out.ld out.lto
ld_us=$(median < ld.times)
lto_us=$(median < lto.times)

# scan: a 5,000-member thin archive (the 2,000 objects, and 3,000 copies)
mkdir -p more
i=0
while [ "$i" -lt 3000 ]; do cp "objs/o$((i % 2000 + 1)).o" "more/c$i.o"; i=$((i + 1)); done
ar cDPrST big.a $(cat objs.list) more/*.o
members=$(ar t big.a | wc -l)
: > scan.times
i=0
while [ "$i" -lt "$runs" ]; do
	LTO_LD_VERBOSE=1 "$lto_ld" -r -o big.o --whole-archive big.a --no-whole-archive \
		--allow-multiple-definition 2>&1 >/dev/null |
		sed -n 's/.*scanned [0-9]* inputs in \([0-9.]*\) ms.*/\1/p' >> scan.times
	i=$((i + 1))
done
scan_ms=$(median < scan.times)

awk -v ld="$ld_us" -v lto="$lto_us" -v scan="$scan_ms" -v members="$members" -v runs="$runs" 'BEGIN {
	printf "| benchmark (median of %d runs) | ld | lto-ld | ratio / time | goal |\n", runs
	printf "|---|---|---|---|---|\n"
	printf "| link of 2,000 non-IR objects (passthrough) | %.1f ms | %.1f ms | %.3fx (%+.1f ms) | <= 1.02x or <= 2 ms |\n", ld / 1000, lto / 1000, lto / ld, (lto - ld) / 1000
	printf "| scan of a %d-member thin archive for IR | | %.1f ms | | <= 20 ms |\n", members, scan
}'
