#!/bin/sh
# A whole-program ld -r (a kernel's vmlinux.o) puts its IR's code in the
# place of one input, between native objects: a Thumb-2 conditional
# branch from one native object to another (proc-v7.S to hyp-stub.S,
# R_ARM_THM_JUMP19, +-1 MiB) then crosses all of it.  lto-ld gives each
# LTRANS function a section of its own, so the native code stays
# together in .text, ahead of the functions: the far branch links and
# runs.  With the fix turned off (-fno-function-sections in the LTO
# flags) the final link fails, and ld names the branch and its target.
# x86's branches reach 2 GiB: there the functions share .text, since a
# kernel's 100,000 sections would cost objtool twice the memory.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

need_plugin

# On an x86 host: a whole-program ld -r of IR for x86 keeps one .text.
case $(uname -m) in x86_64 | i?86)
	cat > main.c <<'C'
int helper(int x);
int main(void) { return helper(40); }
C
	cat > helper.c <<'C'
__attribute__((noinline)) int helper(int x) { return x + 2; }
C
	gcc -O2 -flto -c main.c && gcc -O2 -flto -c helper.c ||
		{ not_ok "the host's inputs compile"; done_testing; exit 1; }
	expect "host: whole-program ld -r of x86 IR" \
		"$BIN/lto-ld" -r --lto-whole-program -e main -o host-wp.o main.o helper.o
	sections=$(readelf -SW host-wp.o 2>&1)
	if text_has "$sections" ' \.text ' && ! text_has "$sections" '\.text\.helper'; then
		ok "...its functions share .text (no .text.helper)"
	else
		not_ok "...its functions share .text (no .text.helper)"; diag "$sections"
	fi
	expect "...it links" gcc -o host-prog host-wp.o
	./host-prog
	expect "...and runs (exit status 42)" test $? = 42
	LTO_LD_LTO_FLAGS=-ffunction-sections "$BIN/lto-ld" -r --lto-whole-program \
		-e main -o host-fs.o main.o helper.o
	expect "...-ffunction-sections in the LTO flags still gives sections" \
		output_has '\.text\.helper' readelf -SW host-fs.o
	;;
esac

prefix=arm-linux-gnueabihf-
for t in ${prefix}gcc qemu-arm; do
	have "$t" || { missing ${prefix}gcc qemu-arm; done_testing; exit 0; }
done
ld="$BIN/${prefix}lto-ld"

# start.s branches on a condition to far_target (target.s), which calls
# big_entry: big.c's IR, with more than 1 MiB of code beside it.
cat > start.s <<'S'
	.syntax unified
	.thumb
	.section .note.GNU-stack, "", %progbits
	.text
	.globl	_start
	.type	_start, %function
_start:
	movs	r0, #0
	cmp	r0, #0
	beq	far_target
	b	.
S
cat > target.s <<'S'
	.syntax unified
	.thumb
	.section .note.GNU-stack, "", %progbits
	.text
	.globl	far_target
	.type	far_target, %function
far_target:
	bl	big_entry
	movs	r7, #1
	svc	#0
S
cat > big.c <<'C'
volatile int pad_wanted;
static void __attribute__((noinline)) pad(void) { __asm__ volatile(".space 0x110000"); }
int big_entry(void) { if (pad_wanted) pad(); return 42; }
C
${prefix}as start.s -o start.o && ${prefix}as target.s -o target.o &&
	${prefix}gcc -O2 -flto -c big.c -o big.o || { not_ok "the inputs compile"; done_testing; exit 1; }

expect "whole-program ld -r: native code between IR" \
	"$ld" -r --lto-whole-program -o wp.o start.o big.o target.o
expect "...the LTRANS functions have sections of their own" \
	output_has '\.text\.big_entry' ${prefix}readelf -SW wp.o
expect "...the far branch links" ${prefix}ld -o prog wp.o
qemu-arm ./prog
expect "...and runs (exit status 42)" test $? = 42

out=$(LTO_LD_LTO_FLAGS=-fno-function-sections "$ld" -r --lto-whole-program \
	-o off.o start.o big.o target.o 2>&1)
expect "without the fix the ld -r still links" test -f off.o || diag "$out"
expect_fails "...but the final link fails, and names the branch" \
	"relocation truncated to fit: R_ARM_THM_JUMP19 against symbol .far_target'" \
	${prefix}ld -o off-prog off.o
done_testing
