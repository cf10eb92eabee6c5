#!/bin/sh
# The LTO cache never hands back stale code: the files asm text names
# (.incbin, .include), which the IR only names and the assembler reads
# at LTRANS time, are part of every entry.  A changed .incbin file, a
# changed .include file and a file found through -Wa,-I each give the
# new bytes, through lto-ld's own link (the link cache, and the LTRANS
# cache alone) and through gcc -flto -B; a file that now shadows another
# in the assembler's search is read; a deleted file fails the link as it
# does without the cache; unchanged files still hit; an entry whose list
# of files is damaged is compiled again.  Host and ARM.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

# sources: data.c .incbin's "blob $1.bin" (top-level asm; a space and a
# dollar, which the assembler's list quotes for make), inc.c .include's
# part.s (asm in a function), found.c .incbin's found.bin, which only
# -Wa,-Iasminc finds; main.c refers to all three
sources() {
	cat > data.c <<'C'
__asm__(".section .rodata\n.globl blob\nblob:\n.incbin \"blob $1.bin\"\n.byte 0\n.previous");
C
	cat > inc.c <<'C'
void emit_part(void)
{
	__asm__ volatile(".pushsection .rodata\n.globl part\npart:\n"
			 ".include \"part.s\"\n.byte 0\n.popsection");
}
C
	cat > found.c <<'C'
__asm__(".section .rodata\n.globl found\nfound:\n.incbin \"found.bin\"\n.byte 0\n.previous");
C
	for i in 1 2 3; do
		printf '__attribute__((noinline)) int f%d(int x) { volatile int y = x; return y * %d; }\n' "$i" "$i" > "f$i.c"
	done
	cat > main.c <<'C'
extern const char blob[], part[], found[];
void emit_part(void);
int f1(int), f2(int), f3(int);
const char *const table[] = { blob, part, found };
int main(void) { emit_part(); return table[0][0] + table[1][0] + table[2][0] + f1(1) + f2(2) + f3(3); }
C
	mkdir -p asminc
	printf '!<arch>\n' > libempty.a
}

# set_blob TEXT, set_part TEXT, set_found TEXT: the files the asm reads
set_blob() { printf '%s' "$1" > 'blob $1.bin'; }
set_part() { printf '.ascii "%s"\n' "$1" > part.s; }
set_found() { printf '%s' "$1" > asminc/found.bin; }

# compile: the objects, GCC IR, with the assembler's -I for all of them
# (lto-wrapper drops -Wa options the objects do not all share); data.c
# again each time, as make would after the .incbin file changed (its IR stays
# the same)
compile() {
	for f in data inc found f1 f2 f3 main; do
		"${prefix}gcc" -O2 -flto -Wa,-Iasminc -c "$f.c" || return
	done
}

# link ROUTE OUT [CACHE]: link the program by ROUTE with the cache
# CACHE (default: the route's own; empty: none), verbose output in OUT.log:
#   link     lto-ld's own link: the link cache, then the LTRANS cache
#   ltrans   lto-ld's own link searching a library: the LTRANS cache alone
#   gcc      gcc -flto -B<dir with lto-ld as ld>: the LTRANS cache alone
link() {
	objs="data.o inc.o found.o f1.o f2.o f3.o main.o" c=${3-$PWD/cache-$1}
	case $1 in
	link) LTO_LD_VERBOSE=1 LTO_LD_CACHE=$c "$ld" --lto-flags=-flto-partition=1to1 \
		-e main -o "$2" $objs > "$2.log" 2>&1 ;;
	ltrans) LTO_LD_VERBOSE=1 LTO_LD_CACHE=$c "$ld" --lto-flags=-flto-partition=1to1 \
		-e main -o "$2" $objs -L. -lempty > "$2.log" 2>&1 ;;
	gcc) LTO_LD_VERBOSE=1 LTO_LD_CACHE=$c "${prefix}gcc" -B"$WORK/gccdir/" \
		-O2 -flto -flto-partition=1to1 -frandom-seed=lto-ld -o "$2" $objs > "$2.log" 2>&1 ;;
	esac
}

# has OUT TEXT...: OUT holds each TEXT (the bytes the asm read)
has() {
	out=$1; shift
	for t; do grep -q "$t" "$out" || return 1; done
}

# cache_says ROUTE LOG: what the cache did in LOG, in a few words
cache_says() {
	if grep -q 'WPA and LTRANS skipped' "$2"; then echo "link cache hit"; return; fi
	sed -n 's/^[a-z-]*: LTO cache .*: \([0-9]* hits, [0-9]* misses\).*/\1/p' "$2" | tail -1
}

# step ROUTE N DESCRIPTION TEXT...: link by ROUTE as OUT-N, which must
# hold each TEXT and what a link without the cache writes
step() {
	route=$1 n=$2 desc=$3; shift 3
	if ! link "$route" "$route-$n"; then
		not_ok "$name $route: $desc: the link"; diag "$(cat "$route-$n.log")"; return
	fi
	link "$route" "none-$n" ""
	if has "$route-$n" "$@" && cmp -s "$route-$n" "none-$n"; then
		ok "$name $route: $desc: the new bytes ($(cache_says "$route" "$route-$n.log"))"
	else
		not_ok "$name $route: $desc: the new bytes, as without the cache"
		diag "$(strings "$route-$n" | grep -E 'blob|part|found')" "$(cat "$route-$n.log")"
	fi
}

# expect_cache ROUTE N WHAT: the cache in OUT-N's log did WHAT ("N hits, M
# misses", or "link cache hit")
expect_cache() {
	expect "$name $1: ...$3" matches "$(cache_says "$1" "$1-$2.log")" "$3" ||
		diag "$(grep 'LTO cache' "$1-$2.log")"
}

# route ROUTE HITS: the changes, one by one, through ROUTE (its own
# cache); HITS is what a link of unchanged inputs must report
route() {
	r=$1 again=$2
	set_blob blob-one; set_part part-one; set_found found-one; rm -f found.bin
	compile || { not_ok "$name: compile the sources"; return; }
	step "$r" 1 "a first link" blob-one part-one found-one
	step "$r" 2 "the same inputs" blob-one part-one found-one
	expect_cache "$r" 2 "$again"
	set_blob blob-TWO
	compile
	step "$r" 3 "the .incbin file changed, data.c compiled again to the same IR" blob-TWO part-one found-one
	expect_cache "$r" 3 "[1-9]* hits, [1-9]* misses"
	set_part part-TWO
	step "$r" 4 "part.s (.include in a function) changed" blob-TWO part-TWO found-one
	set_found found-TWO
	step "$r" 5 "asminc/found.bin (found through -Wa,-Iasminc) changed" blob-TWO part-TWO found-TWO
	step "$r" 6 "nothing changed" blob-TWO part-TWO found-TWO
	expect_cache "$r" 6 "$again"
	set_blob blob-TWO
	step "$r" 7 "the .incbin file written again with the same bytes" blob-TWO part-TWO found-TWO
	expect_cache "$r" 7 "$again"
	printf 'found-SHADOW' > found.bin
	step "$r" 8 "found.bin made in the working directory, which the assembler searches first" \
		blob-TWO part-TWO found-SHADOW
	rm found.bin
	step "$r" 9 "...and removed again" blob-TWO part-TWO found-TWO
	rm 'blob $1.bin'
	link "$r" none-gone ""; rc_none=$?
	link "$r" "$r-gone"; rc=$?
	want=$(grep -o 'Error: file not found: blob \$1.bin' none-gone.log)
	expect "$name $r: the .incbin file deleted: the link fails as without the cache ($want)" \
		eval '[ $rc -ne 0 ] && [ $rc_none -ne 0 ] && [ -n "$want" ] && grep -q "$want" "$r-gone.log" &&
		      [ ! -e "$r-gone" ]' || diag "rc $rc, $rc_none" "$(cat "$r-gone.log")"
	expect "$name $r: ...and LTO_LD_VERBOSE says why the entry missed" \
		grep -q 'LTO cache .*blob $1.bin: No such file or directory' "$r-gone.log" || diag "$(cat "$r-gone.log")"
	set_blob blob-TWO
}

# damaged: an entry whose list of the assembler's files is damaged (a
# digit of a checksum changed; cut short inside the list) is compiled
# again, never linked
damaged() {
	entry=$(grep -l 'blob \$1.bin' $(find cache-ltrans -type f ! -name '*.tmp-*') | head -1)
	# (the list starts after the 88-byte header, with a hex digit)
	c=$(dd if="$entry" bs=1 skip=88 count=1 2>/dev/null)
	[ "$c" = 0 ] && c=1 || c=0
	printf '%s' "$c" | dd of="$entry" bs=1 seek=88 conv=notrunc 2>/dev/null
	step ltrans 10 "a checksum in an entry's list of files damaged" blob-TWO part-TWO found-TWO
	expect_cache ltrans 10 "[1-9]* hits, 1 misses"
	entry=$(grep -l 'blob \$1.bin' $(find cache-ltrans -type f ! -name '*.tmp-*') | head -1)
	head -c 120 "$entry" > cut && cat cut > "$entry"
	step ltrans 11 "an entry cut short inside its list of files" blob-TWO part-TWO found-TWO
	expect_cache ltrans 11 "[1-9]* hits, 1 misses"
}

# save_temps: with LTO_LD_SAVE_TEMPS=1 the assembler reads its input
# from lto-ld's kept folder, which is not on the entries' lists: the
# cache still answers the link after
save_temps() {
	mkdir -p kept
	saved_tmpdir=${TMPDIR-}
	export TMPDIR=$PWD/kept LTO_LD_SAVE_TEMPS=1
	for n in 12 13; do
		step link "$n" "LTO_LD_SAVE_TEMPS=1, link $n" blob-TWO part-TWO found-TWO
	done
	unset LTO_LD_SAVE_TEMPS
	TMPDIR=$saved_tmpdir
	[ -n "$TMPDIR" ] || unset TMPDIR
	expect_cache link 13 "link cache hit"
	rm -rf kept
}

# scenario PREFIX NAME: every route for one toolchain
scenario() {
	prefix=$1 name=$2
	mkdir "$name" && cd "$name" || return
	ld=$BIN/${prefix}lto-ld
	sources
	route link "link cache hit"
	save_temps
	route ltrans "[1-9]* hits, 0 misses"
	damaged
	route gcc "[1-9]* hits, 0 misses"
	cd ..
}

mkdir gccdir && ln -s "$LTO_LD" gccdir/ld
for_each_target scenario
done_testing
