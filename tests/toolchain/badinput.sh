#!/bin/sh
# Bad input and failure: each case must give an error naming the file and
# the reason, a non-zero exit, no output file and no temporary left behind.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

seed_ir_objects_private_tmp
ld=$BIN/lto-ld

# bad DESCRIPTION PATTERN LD-ARGS...: lto-ld -o out ARGS must fail cleanly
bad() {
	desc=$1 pattern=$2; shift 2
	rm -f out
	expect_fails "$desc" "$pattern" "$ld" -e main -o out "$@"
	leftovers=$(ls -A . | grep -E '^out$|lto-ld-' ; ls -A tmp)
	expect "...no output or temporary file left" test -z "$leftovers"
}

head -c 600 foo.o > cut.o
bad "truncated IR object" "cut.o: truncated" cut.o bar.o main.o
head -c 30 foo.o > "cut header.o"
bad "object cut in its ELF header (path with a space)" "cut header.o: truncated ELF header" "cut header.o" main.o

gcc-ar rcs libseed.a foo.o bar.o
cp libseed.a corrupt.a
printf 'XX' | dd of=corrupt.a bs=1 seek=66 conv=notrunc 2>/dev/null
bad "corrupt archive member header" "corrupt.a: corrupt archive member header" main.o corrupt.a
head -c $(($(wc -c < libseed.a) - 200)) libseed.a > short.a
bad "truncated archive" "short.a\(bar.o\): truncated" main.o short.a

mkdir gone && cp foo.o gone/foo.o
ar rcT thin.a gone/foo.o bar.o
rm gone/foo.o
bad "thin archive whose member is missing" "thin.a: member gone/foo.o is missing" main.o thin.a

mkdir member && cp foo.o member/foo.o
ar rcT dirthin.a member/foo.o
rm member/foo.o && mkdir member/foo.o
bad "thin archive whose member is a directory" "dirthin.a: member member/foo.o cannot be read \(Is a directory\)" main.o dirthin.a

arm-linux-gnueabihf-gcc -O2 -flto -c main.c -o arm-main.o
rm -f out
expect_fails "x86 IR in an ARM link: named before LTO runs" \
	"foo.o: GCC IR for x86-64 \(ELF machine 62\), but this link is for arm-linux-gnueabihf" \
	"$BIN/arm-linux-gnueabihf-lto-ld" -e main -o out arm-main.o foo.o
leftovers=$(ls -A . | grep -E '^out$|lto-ld-' ; ls -A tmp)
expect "...no output or temporary file left" test -z "$leftovers"

# e_shnum 0 and section 0's sh_size 0xffffff in an 11 KB object: 1 GiB of
# section headers it does not have.  Refused before allocating: under a
# 256 MiB limit the message names the file, not "out of memory".
python3 - foo.o huge.o <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
data += bytes(max(0, 11000 - len(data)))
shoff = struct.unpack_from('<Q', data, 40)[0]
struct.pack_into('<H', data, 60, 0)                 # e_shnum
struct.pack_into('<Q', data, shoff + 32, 0xffffff)  # section 0's sh_size
open(sys.argv[2], 'wb').write(data)
PY
limited() {
	if grep -q __asan_init "$LTO_LD"; then
		# AddressSanitizer reserves its shadow memory: no ulimit -v
		ASAN_OPTIONS=max_allocation_size_mb=256 "$@"
	else
		(ulimit -v 262144 && exec "$@")
	fi
}
bad "section count far beyond the file's size" "huge.o: (truncated|bad section count)" \
	huge.o main.o
rm -f out
expect_fails "...refused under a 256 MiB memory limit, naming the file" \
	"huge.o: (truncated|bad section count)" limited "$ld" -e main -o out huge.o main.o

echo "@loop.rsp" > loop.rsp
bad "recursive @file" "loop.rsp: response file nesting deeper than" @loop.rsp

LTO_LD_CC=/nonexistent/gcc bad "missing gcc" "compiler '/nonexistent/gcc' was not found" foo.o bar.o main.o
unset LTO_LD_CC
LTO_LD_PLUGIN=/nonexistent/liblto_plugin.so bad "missing LTO plugin" "/nonexistent/liblto_plugin.so: LTO plugin not found" foo.o bar.o main.o
unset LTO_LD_PLUGIN

if have gcc-11; then
	gcc-11 -O2 -flto -c foo.c -o old.o
	bad "IR written by another GCC major version" "old.o: GCC IR written by GCC 11, but .* is GCC 12" old.o bar.o main.o
else
	missing gcc-11
fi

expect_fails "output in a directory that does not exist" "cannot write nodir/out" \
	"$ld" -e main -o nodir/out foo.o bar.o main.o
expect_fails "output where nothing can be written" "cannot write|cannot open|Permission|No such" \
	"$ld" -e main -o /proc/lto-ld-out foo.o bar.o main.o

printf 'int missing(void);\nint main(void) { return missing(); }\n' > undef.c
gcc -O2 -flto -c undef.c
bad "a link that fails in ld (undefined symbol)" "undefined reference to .missing" undef.o

# Interrupted LTO: a big IR link, signalled while lto-wrapper runs.
i=0
{
	while [ $i -lt 1500 ]; do
		printf 'int f%d(int x) { int s = 0; for (int k = 0; k < x; k++) s += k * %d ^ (s >> 3); return s; }\n' $i $i
		i=$((i + 1))
	done
	printf 'int main(int c, char **v) { int s = 0;\n'
	i=0
	while [ $i -lt 1500 ]; do printf 's += f%d(c);\n' $i; i=$((i + 1)); done
	printf 'return s; }\n'
} > big.c
gcc -O2 -flto -c big.c -o big.o
for sig in TERM INT; do
	rm -rf tmp/* out
	# background jobs of a script start with SIGINT ignored: undo that
	LTO_LD_JOBS=1 env --default-signal=INT "$ld" -e main -o out big.o & pid=$!
	# wait until lto-wrapper is running, then signal lto-ld
	n=0
	# (only ours: their arguments name files in our TMPDIR)
	while [ $n -lt 100 ] && ! pgrep -f "lto1.*$WORK" >/dev/null; do sleep 0.1; n=$((n + 1)); done
	[ $n -lt 100 ] || not_ok "SIG$sig: lto1 never started (the test proves nothing)"
	kill -s $sig $pid
	wait $pid; rc=$?
	sleep 1
	# zombies waiting for init do not count
	ps -eo stat=,args= | grep -v '^Z' | grep '[l]to1' | grep -q "$WORK" &&
		not_ok "SIG$sig: lto1 still running after lto-ld died"
	leftovers=$(ls -A . | grep -E '^out$|lto-ld-'; ls -A tmp)
	expect "SIG$sig during LTO: exit $rc, nothing left behind" \
		eval '[ $rc -ne 0 ] && [ -z "$leftovers" ]' || diag "left: $leftovers"
done
# The caller's whole process group signalled (Ctrl-\, kill -KILL -PGID):
# ld, lto-wrapper and lto1 must die with it.  After SIGKILL lto-ld cannot
# clean up: the next run removes what it left.
survivors() {
	ps -eo stat=,args= | grep -v '^Z' | grep -v grep | grep -E '(lto1|lto-wrapper|/ld ).*'"$WORK/tmp"
}
ulimit -c 0
for sig in QUIT KILL; do
	rm -rf tmp/* out
	LTO_LD_JOBS=1 setsid env --default-signal=INT,QUIT "$ld" -e main -o out big.o & pid=$!
	n=0
	while [ $n -lt 100 ] && ! pgrep -f "lto1.*$WORK" >/dev/null; do sleep 0.1; n=$((n + 1)); done
	[ $n -lt 100 ] || not_ok "SIG$sig to the group: lto1 never started (the test proves nothing)"
	kill -s $sig -- -$pid
	wait $pid; rc=$?
	n=0
	while [ $n -lt 50 ] && survivors >/dev/null; do sleep 0.1; n=$((n + 1)); done
	left=$(survivors)
	expect "SIG$sig to the caller's group: exit $rc, no tool runs on" \
		eval '[ $rc -ne 0 ] && [ -z "$left" ]' || diag "$left"
	if [ $sig = QUIT ]; then
		leftovers=$(ls -A . | grep -E '^out$|lto-ld-'; ls -A tmp)
		expect "...SIGQUIT: nothing left behind" test -z "$leftovers"
	fi
done
leftovers=$(ls -A . | grep -E 'lto-ld-'; ls -A tmp)
expect "SIGKILL left temporaries (what the next run must remove)" test -n "$leftovers"
expect "the next link of the same output" "$ld" -e main -o out foo.o bar.o main.o
leftovers=$(ls -A . | grep -E 'lto-ld-'; ls -A tmp)
expect "...removed what the killed run left" test -z "$leftovers"
done_testing
