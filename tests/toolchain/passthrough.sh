#!/bin/sh
# Without IR, lto-ld is ld: the same bytes out (cmp), --version as ld says
# it, and no PATH loop when "ld" itself is lto-ld.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

write_seed_sources
cat > ctor.c <<'C'
int hook(void) { return 3; }
C

# same PREFIX NAME LD-ARGS...: plain ld and lto-ld must write identical files
same() {
	what=$2; shift 2
	"${prefix}ld" "$@" -o want.out >/dev/null 2>&1
	"$BIN/${prefix}lto-ld" "$@" -o got.out >/dev/null 2>&1
	expect "$what" eval '[ -f want.out ] && cmp -s want.out got.out'
	rm -f want.out got.out
}

# passthrough PREFIX NAME
passthrough() {
	prefix=$1 name=$2
	mkdir "$name" && cd "$name" || return
	for f in foo bar main ctor; do "${prefix}gcc" -O2 -c "../$f.c" -o "$f.o"; done
	"${prefix}ar" rcs libbar.a bar.o ctor.o
	printf '%s\n' -e main foo.o bar.o main.o > args.rsp
	i=0; : > many.rsp
	while [ $i -lt 300 ]; do
		printf 'static int x%d(void) { return %d; } int (*p%d)(void) = x%d;\n' $i $i $i $i > "m$i.c"
		"${prefix}gcc" -c "m$i.c" -o "m$i.o" && echo "m$i.o" >> many.rsp
		i=$((i + 1))
	done

	same "$prefix" "$name: executable is byte-identical" -e main foo.o bar.o main.o
	same "$prefix" "$name: ld -r output is byte-identical" -r foo.o bar.o
	same "$prefix" "$name: archive via -L. -lbar is byte-identical" -e main main.o foo.o -L. -lbar
	same "$prefix" "$name: @response file link is byte-identical" @args.rsp
	same "$prefix" "$name: 300-object link is byte-identical" -r @many.rsp
	same "$prefix" "$name: --gc-sections -Map link is byte-identical" -e main --gc-sections -Map=x.map foo.o bar.o main.o
	same "$prefix" "$name: --whole-archive link is byte-identical" -e main main.o foo.o --whole-archive libbar.a --no-whole-archive
	cd ..
}

for_each_target passthrough

# --version: ld's text unchanged, then one line naming lto-ld
ld --version > want.txt
"$BIN/lto-ld" --version > got.txt
n=$(wc -l < want.txt)
expect "--version prints ld's output unchanged plus one lto-ld line" \
	eval 'head -n "$n" got.txt | cmp -s - want.txt && [ "$(wc -l < got.txt)" -eq $((n + 1)) ] &&
	      tail -n 1 got.txt | grep -q "^lto-ld "' || diag "$(cat got.txt)"
expect "-v: first line is ld's" test "$("$BIN/lto-ld" -v | head -n 1)" = "$(ld -v)"
if have arm-linux-gnueabihf-ld; then
	expect "arm-linux-gnueabihf-lto-ld --version is the ARM ld's" \
		test "$("$BIN/arm-linux-gnueabihf-lto-ld" --version | head -n 1)" = "$(arm-linux-gnueabihf-ld --version | head -n 1)"
fi
# kbuild's scripts/ld-version.sh reads the first line
expect "first --version line looks like GNU ld's (kbuild)" matches "$("$BIN/lto-ld" --version | head -n 1)" 'GNU ld *'

# kbuild's ld-option probe: LD FLAGS OPTION -v, where FLAGS may hold lto-ld's own
expect "-v after lto-ld's own options (kbuild's ld-option probe)" \
	"$BIN/lto-ld" --lto-flags=-Wno-lto-type-mismatch --lto-partial=native --no-warn-rwx-segments -v
expect_fails "-v with an option ld does not know still fails, as ld's probe expects" "unrecognized option" \
	"$BIN/lto-ld" --no-such-option -v

# PATH loops: "ld" first in PATH is lto-ld itself; it must still find the real ld.
mkdir loop && ln -s "$LTO_LD" loop/ld
out=$(PATH="$WORK/loop:$PATH" "$WORK/loop/ld" --version 2>&1); rc=$?
expect "an 'ld' that is lto-ld, first in PATH, skips itself" \
	eval '[ $rc -eq 0 ] && printf "%s\n" "$out" | head -n 1 | grep -q "^GNU ld"' || diag "$out"
expect_fails "LTO_LD_REAL_LD pointing at lto-ld itself is refused" "cannot find the real ld" \
	env LTO_LD_REAL_LD="$LTO_LD" "$BIN/lto-ld" --version
expect_fails "a missing real ld is named" "cannot find the real ld 'no-such-ld'" \
	env LTO_LD_REAL_LD=no-such-ld "$BIN/lto-ld" --version
# 200,000 options through lto-ld's own option (so argv is rebuilt): too
# long for exec, they reach ld in a response file, removed afterwards.
printf 'int main(void) { return 0; }\n' > big-main.c
gcc -c big-main.c -o big-main.o
i=0
while [ $i -lt 2000 ]; do echo "--no-warn-mismatch"; i=$((i + 1)); done > big100.rsp
for k in $(seq 100); do cat big100.rsp; done > big.rsp
mkdir bigtmp
expect "passthrough with 200,000 options: no E2BIG" env TMPDIR="$WORK/bigtmp" \
	"$BIN/lto-ld" --lto-partial=native -e main -o big-out big-main.o @big.rsp
expect "...linked, its response file removed" eval '[ -f big-out ] && [ -z "$(ls -A bigtmp)" ]' ||
	diag "left: $(ls -A bigtmp)"
done_testing
