#!/bin/sh
# __attribute__((flatten)) with LTO: the compile step's early inliner
# inlines into a flatten function what its unit defines, as a build
# without LTO does.  Left in the IR, the attribute made WPA inline the
# whole program's call tree below the function (the kernel's
# pcpu_build_alloc_info took WPA past 23 GB); lto-ld's compiler plugin
# drops it before WPA.  So top() keeps its own unit's callee inlined and
# calls big(), another unit's function, as it would without LTO.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

need_plugin

# a.c: top() (flatten) calls local_big (its unit) and big (b.c); both
# are too big for -O2's heuristics alone, called from two places, and
# differ (identical code folding would make them one).
cat > a.c <<'C'
int big(int);
static int local_big(int x)
{
	volatile int v = x;
	for (int i = 0; i < 8; i++) { v += i; v *= 3; v ^= v >> 2; v -= 7; v *= 5; v ^= v << 1; }
	return v;
}
__attribute__((flatten)) int top(int x) { return local_big(x) + big(x); }
int other(int x) { return local_big(x + 1); }
C
cat > b.c <<'C'
int big(int x)
{
	volatile int v = x;
	for (int i = 0; i < 8; i++) { v += i; v *= 3; v ^= v >> 2; v -= 7; v *= 5; v ^= v << 3; }
	return v;
}
int other2(int x) { return big(x + 2) * 2; }
C

# calls PREFIX FUNCTION: the functions FUNCTION's code refers to: its
# relocations (against the function, or the section of its own it has
# in the LTRANS code once it is local), and the targets objdump names
# for what the assembler resolved in the same section (x86's LTRANS
# functions share .text)
calls() {
	"${1}objdump" -dr wp.o | awk -v f="<$2>:" -v self="$2" '
		$2 == f { in_f = 1; next }
		/>:$/ { in_f = 0 }
		in_f && /R_/ { sub(/[-+].*/, "", $3); sub(/^\.text\./, "", $3); print $3; next }
		in_f && match($0, /<[^>]*>$/) {
			t = substr($0, RSTART + 1, RLENGTH - 2); sub(/[+].*/, "", t)
			if (t != self) print t
		}' |
		sort -u | tr '\n' ' '
}

scenario() {
	prefix=$1 name=$2
	mkdir "$name" && cd "$name" || return
	for f in a b; do "${prefix}gcc" -O2 -flto -c "../$f.c" -o "$f.o" || return; done
	expect "$name: whole-program ld -r of a flatten function" \
		"$BIN/${prefix}lto-ld" -r --lto-whole-program --lto-keep-symbol=top \
		--lto-keep-symbol=other --lto-keep-symbol=other2 -o wp.o a.o b.o
	got=$(calls "$prefix" top)
	expect "$name: top calls big, of another unit ($got)" listed "$got" +big
	expect "$name: top does not call local_big, of its own unit" \
		eval '! text_has "$got" local_big'
	cd ..
}

for_each_target scenario
done_testing
