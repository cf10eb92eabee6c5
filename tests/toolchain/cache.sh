#!/bin/sh
# The LTRANS cache (--lto-cache=DIR, LTO_LD_CACHE): a second link of the
# same inputs compiles nothing and writes the same bytes; a changed input
# misses; truncated, corrupt and foreign entries are replaced, never
# linked; two links share one cache; an unwritable or full cache falls
# back to a link without it with one warning; another gcc version never
# takes an entry of this one; entries follow the umask; LTO_LD_CACHE_SIZE
# evicts the least recently used.  The host gcc, seven LTRANS partitions.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

trap 'umount "$WORK/full" 2>/dev/null; rm -rf "$WORK"' EXIT

# sources N: f1.c..f6.c (fN returns x * N) and main.c printing their sum
sources() {
	for i in 1 2 3 4 5 6; do
		printf '__attribute__((noinline)) int f%d(int x) { volatile int y = x; return y * %d; }\n' "$i" "$i" > "f$i.c"
	done
	cat > main.c <<'EOF'
#include <stdio.h>
int f1(int), f2(int), f3(int), f4(int), f5(int), f6(int);
int main(void) { printf("%d\n", f1(1) + f2(1) + f3(1) + f4(1) + f5(1) + f6(1)); return 0; }
EOF
}

# set_f3 N: f3 returns x * N (f3.o compiled again)
set_f3() { sed -i "s/y \* [0-9]*;/y * $1;/" f3.c && gcc -O2 -flto -c f3.c -o f3.o; }

# compile CC: the objects, GCC IR, with CC
compile() {
	for f in f1 f2 f3 f4 f5 f6 main; do
		"$1" -O2 -flto -c "$f.c" -o "$f.o" || return 1
	done
}

# link OUT [OPTIONS...]: lto-ld links the program, one partition per
# function, verbose output into OUT.log
link() {
	out=$1; shift
	LTO_LD_VERBOSE=1 "$BIN/lto-ld" --lto-flags=-flto-partition=1to1 "$@" \
		-o "$out" $CRT main.o f1.o f2.o f3.o f4.o f5.o f6.o $LIBS > "$out.log" 2>&1
}

# counts LOG: "H hits, M misses" from lto-ld's verbose output
counts() { sed -n 's/^[a-z-]*: LTO cache .*: \([0-9]* hits, [0-9]* misses\).*/\1/p' "$1" | tail -1; }

# entries DIR: the cache's entry files
entries() { find "$1" -type f ! -name '.*' ! -name '*.tmp-*' | sort; }

# expect_counts DESCRIPTION LOG "H hits, M misses"
expect_counts() {
	expect "$1 ($3)" test "$(counts "$2")" = "$3" || diag "$(cat "$2")"
}

# runs_with DESCRIPTION PROGRAM OUTPUT
runs_with() {
	expect "$1" test "$("./$2" 2>&1)" = "$3"
}

libdir=$(dirname "$(gcc -print-file-name=crt1.o)")
CRT="-dynamic-linker /lib64/ld-linux-x86-64.so.2 $libdir/crt1.o $libdir/crti.o"
LIBS="-lc $libdir/crtn.o"
C=$WORK/cache

sources
compile gcc || { not_ok "compile the sources with gcc -flto"; done_testing; exit; }

# ---- a miss, then a hit ----
expect "first link with the cache" link p1 --lto-cache="$C"
expect_counts "the first link compiles every partition" p1.log "0 hits, 7 misses"
n=$(entries "$C" | wc -l)
expect "seven entries stored" test "$n" -eq 7
runs_with "the program is right" p1 21
expect "second link, same inputs" link p2 --lto-cache="$C"
expect_counts "the second link compiles nothing" p2.log "7 hits, 0 misses"
expect "...and writes the same bytes" cmp p1 p2
expect "a link without the cache writes them too" link p0
expect "...the same bytes" cmp p0 p1
expect "no cache named without one" eval '! grep -q "LTO cache" p0.log'
expect "--lto-report counts them (JSON)" link pr --lto-cache="$C" --lto-report=pr.json || diag "$(cat pr.log)"
expect "...7 hits, 0 misses" \
	grep -q '"ltrans_cache": {"dir": "[^"]*", "hits": 7, "misses": 0, "corrupt": 0, "link_hit": false}' pr.json ||
	diag "$(head -5 pr.json)"
expect "--lto-report counts them (text)" link pt --lto-cache="$C" --lto-report=pt.txt || diag "$(cat pt.log)"
expect "...7 hits, 0 misses" grep -q '^LTRANS cache .*: 7 hits, 0 misses, 0 corrupt entries replaced$' pt.txt ||
	diag "$(head -5 pt.txt)"
LTO_LD_CACHE=$C link p3 && expect_counts "LTO_LD_CACHE=DIR is the same cache" p3.log "7 hits, 0 misses"
expect "LTO_LD_CACHE= (empty) is no cache" eval 'LTO_LD_CACHE= link p4 && ! grep -q "LTO cache" p4.log'

# ---- the link cache: a link with the inputs of a cached one runs no LTO ----
libc=$(gcc -print-file-name=libc.so.6)
# link_named OUT [OPTIONS...]: as link, libc named by path (no -l search)
link_named() {
	out=$1; shift
	LTO_LD_VERBOSE=1 "$BIN/lto-ld" --lto-flags=-flto-partition=1to1 "$@" \
		-o "$out" $CRT main.o f1.o f2.o f3.o f4.o f5.o f6.o "$libc" "$libdir/crtn.o" > "$out.log" 2>&1
}
# link_says DESCRIPTION LOG PATTERN
link_says() {
	expect "$1" grep -q "$3" "$2" || diag "$(grep 'LTO cache' "$2")"
}
expect "a link that searches libraries (-lc) is not answered by the link cache" \
	grep -q 'LTO cache .*this link is not cached (it searches libraries' p1.log
CL=$WORK/cache-link
expect "a link without a library search" link_named l1 --lto-cache="$CL"
link_says "...is new to the link cache" l1.log "the link's inputs are new"
expect "the same link again" link_named l2 --lto-cache="$CL"
link_says "...runs no LTO: the link cache answers" l2.log "WPA and LTRANS skipped"
expect "...with the same bytes" cmp l1 l2
compile gcc
expect "every object compiled again (GCC names their sections anew)" link_named l3 --lto-cache="$CL"
link_says "...the link cache still answers" l3.log "WPA and LTRANS skipped"
expect "...the same bytes" cmp l1 l3
runs_with "...and the program is right" l3 21
set_f3 7
expect "f3 returns x * 7" link_named l4 --lto-cache="$CL"
link_says "...a new link for the link cache" l4.log "the link's inputs are new"
runs_with "...whose program prints the new sum" l4 25
set_f3 3
printf 'f1\n' > keep.txt
expect "whole-program ld -r with a keep file" "$BIN/lto-ld" --lto-cache="$CL" -r --lto-whole-program \
	--lto-keep=keep.txt -o w1.o f1.o f2.o
expect "...the same again" env LTO_LD_VERBOSE=1 "$BIN/lto-ld" --lto-cache="$CL" -r --lto-whole-program \
	--lto-keep=keep.txt -o w2.o f1.o f2.o
printf 'f2\n' > keep.txt
LTO_LD_VERBOSE=1 "$BIN/lto-ld" --lto-cache="$CL" -r --lto-whole-program --lto-keep=keep.txt \
	-o w3.o f1.o f2.o > w3.log 2>&1
link_says "...a changed keep file is a new link" w3.log "the link's inputs are new"
expect "...whose output keeps f2, not f1" eval 'nm w3.o | grep -q " T f2\$" && ! nm w3.o | grep -q " T f1\$"' ||
	diag "$(nm w3.o)"
# kbuild's shape: a whole-program ld -r of a thin archive (vmlinux.a).
# GCC names IR sections with a random number printed without leading
# zeros: one compile in 16 gives the same IR in a file of another size,
# which the archive's headers hold.
# thin_rel OUT: that ld -r of thin.a, verbose output into OUT.log
thin_rel() {
	LTO_LD_VERBOSE=1 "$BIN/lto-ld" --lto-cache="$CL" -r --lto-whole-program \
		--lto-keep=keep.txt -o "$1" --whole-archive thin.a > "$1.log" 2>&1
}
# thin_ar: thin.a made again, as kbuild makes vmlinux.a
thin_ar() { rm -f thin.a && ar cDPrST thin.a t1.o t2.o; }
gcc -O2 -flto -c f2.c -o t2.o && gcc -O2 -flto -c f1.c -o t1.o && thin_ar
expect "whole-program ld -r of a thin archive" thin_rel a1
size1=$(wc -c < t2.o) tries=0
while [ "$(wc -c < t2.o)" = "$size1" ] && [ $tries -lt 400 ]; do
	gcc -O2 -flto -c f2.c -o t2.o; tries=$((tries + 1))
done
expect "...a member compiled again: the same IR in a file of another size" test "$(wc -c < t2.o)" != "$size1" ||
	diag "$tries compiles"
thin_ar
expect "...linked again" thin_rel a2
link_says "...is answered by the link cache" a2.log "WPA and LTRANS skipped"
expect "...with the same bytes" cmp a1 a2
sed 's/y \* 2;/y * 9;/' f2.c > t2.c && gcc -O2 -flto -c t2.c -o t2.o && thin_ar
expect "...that member changed (f2 returns x * 9)" thin_rel a3
link_says "...is a new link" a3.log "the link's inputs are new"
# A whole-program ld -r is cut into partitions of 2,000 insns or more
# rather than GCC's 10,000, so that an edit compiles less again: 24 units
# of a few hundred insns each make more partitions here than for GCC.
: > keep-g.txt
for i in $(seq 1 24); do
	{ printf 'void g%d(volatile int *a)\n{\n' "$i"
	  for j in $(seq 1 100); do printf '\ta[%d] = a[%d] * %d + a[%d];\n' $((j % 7)) $((j % 5)) "$i$j" $((j % 3)); done
	  printf '}\n'; } > "g$i.c"
	gcc -O2 -flto -c "g$i.c" -o "g$i.o"
	echo "g$i" >> keep-g.txt
done
# partitions OUT [OPTIONS...]: the LTRANS compiles of that ld -r (a new cache)
partitions() {
	out=$1; shift
	LTO_LD_VERBOSE=1 "$BIN/lto-ld" --lto-cache="$WORK/partitions-$out" -r --lto-whole-program \
		--lto-keep=keep-g.txt "$@" -o "$out" g[0-9]*.o 2>&1 |
		sed -n 's/.*LTO cache .*: 0 hits, \([0-9]*\) misses.*/\1/p'
}
n_ours=$(partitions g-ours) n_gcc=$(partitions g-gcc --lto-flags=--param=lto-min-partition=10000)
expect "a whole-program ld -r: $n_ours partitions, $n_gcc with GCC's minimum size (the LTO flags win)" \
	eval '[ "${n_gcc:-0}" -ge 1 ] && [ "${n_ours:-0}" -gt "$n_gcc" ]' || diag "'$n_ours', '$n_gcc': expected more"
rm -f g-ours g-gcc
# A native ld -r of objects with debug information: lto-ld makes GCC's
# early-debug anchors local with objcopy; the link cache keeps the output
# as it is then, so a hit runs no objcopy and gives the same bytes.
gcc -O2 -g -flto -c f1.c -o g1.o && gcc -O2 -g -flto -c f2.c -o g2.o
# native_rel OUT: that ld -r, verbose output into OUT.log
native_rel() {
	LTO_LD_VERBOSE=1 "$BIN/lto-ld" --lto-cache="$CL" -r --lto-partial=native \
		-o "$1" g1.o g2.o > "$1.log" 2>&1
}
expect "a native ld -r of objects with debug information" native_rel d1
link_says "...makes the debug anchors local" d1.log "debug anchor symbols local"
expect "...the same again" native_rel d2
link_says "...is answered by the link cache" d2.log "WPA and LTRANS skipped"
expect "...with no objcopy: the output was kept tidied" eval '! grep -q "debug anchor symbols local" d2.log'
expect "...and the same bytes" cmp d1 d2

# ---- the gcc -B route: the driver runs LTO, lto-ld is its ld ----
mkdir gccdir && ln -s "$LTO_LD" gccdir/ld
# gcc_b OUT: gcc -flto -B links the program, verbose output into OUT.log
gcc_b() {
	LTO_LD_VERBOSE=1 LTO_LD_CACHE=$WORK/cache-b gcc -B"$WORK/gccdir/" -O2 -flto \
		-flto-partition=1to1 -o "$1" main.o f1.o f2.o f3.o f4.o f5.o f6.o > "$1.log" 2>&1
}
expect "gcc -flto -B<lto-ld>, LTO_LD_CACHE set" gcc_b b1
expect_counts "...the driver's LTRANS compiles go through the cache" b1.log "0 hits, 7 misses"
expect "...the second time" gcc_b b2
expect_counts "...compile nothing" b2.log "7 hits, 0 misses"
expect "...and give the same program" cmp b1 b2
runs_with "...which is right" b2 21

# ---- a changed input must miss ----
set_f3 30
expect "link after f3 returns x * 30" link p5 --lto-cache="$C"
expect_counts "only f3's partition is compiled again" p5.log "6 hits, 1 misses"
runs_with "...and the program prints the new sum" p5 48
set_f3 3

# ---- truncated, corrupt and foreign entries ----
# (in a new cache: all seven entries are the link's)
C=$WORK/cache-broken
link pb --lto-cache="$C"
set -- $(entries "$C")
head -c 100 "$1" > "$WORK/t" && cat "$WORK/t" > "$1"
printf 'X' | dd of="$2" bs=1 seek=200 conv=notrunc 2>/dev/null
echo "not an lto-ld cache entry" > "$3"
sz=$(stat -c %s "$4"); head -c $((sz - 1)) "$4" > "$WORK/t" && cat "$WORK/t" > "$4"
expect "link with four broken entries" link p6 --lto-cache="$C"
got=$(sed -n 's/.*(\([0-9]*\) corrupt entries replaced).*/\1/p' p6.log | tail -1)
expect "the broken entries are seen ($got)" test "$got" -ge 4 || diag "$(cat p6.log)"
expect "...never linked: the same bytes as before" cmp p1 p6
expect "...and replaced" link p7 --lto-cache="$C"
expect_counts "the next link finds whole entries" p7.log "7 hits, 0 misses"

C=$WORK/cache

# ---- two links at once on one cache ----
C2=$WORK/cache2
link q1 --lto-cache="$C2" & a=$!
link q2 --lto-cache="$C2" & b=$!
wait $a; ra=$? ; wait $b; rb=$?
expect "two links at once both succeed" eval '[ $ra -eq 0 ] && [ $rb -eq 0 ]' || diag "$(cat q1.log q2.log)"
expect "...both write the right program" cmp q1 p1
expect "...both of them" cmp q2 p1
expect "...no temporary entry left" test -z "$(find "$C2" -name '*.tmp-*')"
expect "a third link on that cache" link q3 --lto-cache="$C2"
expect_counts "...finds every entry whole" q3.log "7 hits, 0 misses"

# ---- an unwritable cache ----
: > "$WORK/plainfile"
expect "a cache below a regular file: the link still works" link u1 --lto-cache="$WORK/plainfile/cache"
n=$(grep -c 'warning: LTO cache .*linking without the cache' u1.log)
expect "...with one warning" test "$n" -eq 1 || diag "$(cat u1.log)"
expect "...and the right program" cmp u1 p1

# ---- a full disk ----
mkdir full
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs full 2>/dev/null; then
	dd if=/dev/zero of=full/fill bs=4k 2>/dev/null
	expect "a cache on a full file system: the link still works" link d1 --lto-cache="$WORK/full/cache"
	n=$(grep -c 'warning: LTO cache .*not stored: No space left on device' d1.log)
	expect "...with one warning" test "$n" -eq 1 || diag "$(cat d1.log)"
	expect "...and the right program" cmp d1 p1
	expect "...no temporary entry left" test -z "$(find full -name '*.tmp-*')"
	umount full
else
	skip "a full file system needs root to mount a small tmpfs"
fi

# ---- umask ----
C3=$WORK/cache3
(umask 027 && link m1 --lto-cache="$C3")
bad=$(find "$C3" -type f ! -perm 0640 | wc -l)
expect "umask 027: entries are 0640" eval '[ "$bad" -eq 0 ] && [ -n "$(entries "$C3")" ]' || diag "$bad entries not 0640"
(umask 000 && link m2 --lto-cache="$WORK/cache4")
bad=$(find "$WORK/cache4" -type f -perm -0002 | wc -l)
expect "umask 000: still no world-writable entry" test "$bad" -eq 0 || diag "$bad world-writable entries"

# ---- LTO_LD_CACHE_SIZE: the least recently used go first ----
# Seven entries made old; main.c changed, so the next link uses six of
# them and adds one.  A link within one byte less than all eight then
# removes the one entry no link used since: main's old one.
C5=$WORK/cache5
link s1 --lto-cache="$C5"
entries "$C5" | xargs touch -d '2 days ago'
sed -i 's/return 0;/return 1;/' main.c
gcc -O2 -flto -c main.c -o main.o
link s2 --lto-cache="$C5"
entries "$C5" > before.list
unused=$(find "$C5" -type f ! -name '.*' ! -newermt '1 day ago')
all_bytes=$(xargs stat -c %s < before.list | awk '{ s += $1 } END { print s }')
LTO_LD_CACHE_SIZE=$((all_bytes - 1)) link s3 --lto-cache="$C5"
entries "$C5" > after.list
gone=$(comm -23 before.list after.list)
expect "LTO_LD_CACHE_SIZE: the entry used longest ago is evicted, and only it" \
	eval '[ "$(wc -l < before.list)" -eq 8 ] && [ -n "$unused" ] && [ "$gone" = "$unused" ]' ||
	diag "before: $(cat before.list)" "unused: $unused" "gone: $gone"
LTO_LD_CACHE_SIZE=1 link s4 --lto-cache="$C5"
expect "LTO_LD_CACHE_SIZE=1 leaves no entry" test -z "$(entries "$C5")"
LTO_LD_CACHE_SIZE=lots link s3 --lto-cache="$C5"
expect "a malformed LTO_LD_CACHE_SIZE is named" grep -q "LTO_LD_CACHE_SIZE='lots' is not a size" s3.log
sed -i 's/return 1;/return 0;/' main.c
gcc -O2 -flto -c main.c -o main.o

# ---- another gcc version ----
other=$(for v in 11 13 14; do command -v "gcc-$v"; done | head -1)
if [ -n "$other" ] && "$other" -flto -c f1.c -o /dev/null 2>/dev/null; then
	mkdir other && cd other && cp ../*.c . && compile "$other" &&
		LTO_LD_CC=$other link o1 --lto-cache="$C" &&
		expect_counts "$(basename "$other") takes none of gcc 12's entries" o1.log "0 hits, 7 misses" ||
		not_ok "$(basename "$other") links with the cache"
	runs_with "...and its program is right" o1 21
	LTO_LD_CC=$other link o2 --lto-cache="$C" &&
		expect_counts "...then hits its own" o2.log "7 hits, 0 misses"
	cd ..
	expect "gcc 12 still hits its own entries" link p8 --lto-cache="$C"
	expect_counts "...all of them" p8.log "7 hits, 0 misses"
else
	skip_missing "another gcc version" "gcc-11, 13 or 14 with LTO"
fi

# ---- reproducible: the same inputs, the same bytes ----
# Two clean builds in one folder (GCC streams the working directory into
# IR outputs) from the same objects (gcc -flto -c itself names their
# sections at random), each with a new cache.
mkdir repro
for n in 1 2; do
	rm -rf repro/*
	(cd repro && cp ../*.o . && link prog --lto-cache="$WORK/repro/cache" &&
		"$BIN/lto-ld" -r -o part.o f1.o f2.o &&
		"$BIN/lto-ld" -r --lto-partial=native -o native.o f1.o f2.o &&
		mkdir "$WORK/build$n" && cp prog part.o native.o "$WORK/build$n/")
done
expect "two clean builds: the same program" cmp build1/prog build2/prog
expect "...the same fat ld -r output" cmp build1/part.o build2/part.o
expect "...the same native ld -r output" cmp build1/native.o build2/native.o

done_testing
