#!/bin/sh
# Fuzz lto-ld's parsers with libFuzzer under AddressSanitizer and UBSan:
# the option parser with @file expansion, the ELF reader, the archive
# reader and the plugin's keep-file parser (tests/fuzz/fuzz-*.c).
#
# For each harness: build it with clang, replay its corpus (the seeds and
# every saved crash in tests/fuzz/corpus/NAME/), then fuzz for SECONDS
# (default 60), two harnesses at a time.  A crash, leak, timeout or huge
# allocation is a failing test; its input is copied into
# tests/fuzz/corpus/NAME/, where it stays as a regression case (commit it
# with the fix).  TAP on stdout and in BUILD/fuzz.log; ends with
# "N passed, N failed".
#
# Usage: scripts/fuzz.sh [SECONDS]
#   FUZZ_BUILD  the build folder (default _build/fuzz)
#   FUZZ_CC     the compiler (default clang)
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
out=${FUZZ_BUILD:-$top/_build/fuzz}
cc=${FUZZ_CC:-clang}
harnesses="ldopts elf archive keep"
log=$out/fuzz.log

case $secs in
''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;;
esac
mkdir -p "$out" || exit 1
: > "$log"

cflags="-g -O1 -std=c11 -D_GNU_SOURCE -Wall -Wextra -fno-omit-frame-pointer
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
wrapper_core=$(ls "$top"/wrapper/*.c "$top"/wrapper/*/*.c | grep -v '/main\.c$')
lib_core=$(ls "$top"/lib/*.c)

# build NAME: BUILD/fuzz-NAME (the keep harness compiles the plugin in)
build() {
	src=$top/tests/fuzz/fuzz-$1.c
	if [ "$1" = keep ]; then
		# shellcheck disable=SC2086
		$cc $cflags -iquote "$top/lib" -o "$out/fuzz-$1" "$src" \
			"$top/lib/elf.c" "$top/lib/io.c" -ldl
	else
		# shellcheck disable=SC2086
		$cc $cflags -I"$top/wrapper" -iquote "$top/lib" -o "$out/fuzz-$1" "$src" \
			$wrapper_core $lib_core
	fi
}

# fuzz NAME: replay the corpus, then fuzz; the result in BUILD/NAME.result
fuzz() {
	name=$1 bin=$out/fuzz-$1 seeds=$top/tests/fuzz/corpus/$1
	run=$out/run/$name
	rm -rf "$run" "$out/artifacts/$name"
	mkdir -p "$run/work" "$out/artifacts/$name"
	opts="-timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=256 -max_len=65536
		-close_fd_mask=3 -artifact_prefix=$out/artifacts/$name/"
	(
		cd "$run" || exit 1
		# no seeds is a broken checkout (seed names must not match .gitignore)
		ls "$seeds"/* > /dev/null 2>&1 || { echo "no seeds in $seeds" > replay.log; exit 1; }
		# shellcheck disable=SC2086
		"$bin" $opts "$seeds"/* > replay.log 2>&1 || exit 1
		# shellcheck disable=SC2086
		"$bin" $opts -max_total_time="$secs" -print_final_stats=1 \
			work "$seeds" > fuzz.log 2>&1
	)
	echo $? > "$out/$name.result"
}

n=0 failed=0
tap() { n=$((n + 1)); echo "$*" | tee -a "$log"; }

for h in $harnesses; do
	if ! build "$h" > "$out/build-$h.log" 2>&1; then
		tap "not ok - fuzz $h: the harness does not build"
		sed 's/^/# /' "$out/build-$h.log"
		failed=$((failed + 1))
		harnesses=$(echo $harnesses | sed "s/\<$h\>//")
	fi
done

# two at a time: the machine has few cores, and each run is SECONDS long
set -- $harnesses
while [ $# -gt 0 ]; do
	fuzz "$1" & first=$!
	if [ $# -gt 1 ]; then fuzz "$2" & second=$!; wait $second; fi
	wait $first
	shift; [ $# -gt 0 ] && shift
done

for h in $harnesses; do
	rc=$(cat "$out/$h.result" 2>/dev/null || echo 1)
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/run/$h/fuzz.log" 2>/dev/null)
	if [ "$rc" = 0 ]; then
		tap "ok - fuzz $h: corpus replayed, $secs s without a crash (${runs:-0} runs)"
		continue
	fi
	failed=$((failed + 1))
	tap "not ok - fuzz $h: a crash (exit $rc)"
	for f in "$out/artifacts/$h"/*; do
		[ -f "$f" ] || continue
		cp "$f" "$top/tests/fuzz/corpus/$h/" &&
			echo "# input saved as tests/fuzz/corpus/$h/$(basename "$f") (a regression case)" | tee -a "$log"
	done
	for l in "$out/run/$h/replay.log" "$out/run/$h/fuzz.log"; do
		[ -f "$l" ] && grep -E 'no seeds|Running:|ERROR|SUMMARY|runtime error|#[0-9]+ 0x' "$l" | head -30 | sed 's/^/# /'
	done
done
passed=$((n - failed))
{ echo "1..$n"; echo "# PASS: $passed"; echo "# FAIL: $failed"; } >> "$log"
echo "1..$n"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
