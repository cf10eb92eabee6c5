#!/bin/sh
# A static that asm text names (drivers/bus/arm-cci.c's naked
# cci_enable_port_for_self() reads the statics cpu_port and ports): in
# the LTO step GCC renames a static two partitions use, and puts the asm
# and the static where it likes, so the asm's name may name nothing.
# lto-ld's compiler plugin gives such statics a name of its own in the
# IR and the asm text alike, and keeps them: the program links and runs
# with a partition per function (-flto-partition=max), as without LTO.
# The output of the LTO link has their source names again, and the
# report knows them by either name (a link from the cache has the
# source's).
# A static named like an instruction its unit's asm uses (x86's static
# inline cpuid() and wrmsr()) is not named by that asm: it keeps its
# name, and the instruction stays an instruction.  A local label of
# top-level asm that C uses (x86's int3_magic, optprobe_template_func)
# is out of reach of C in another partition: the plugin makes it a
# hidden global of a name of its own.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

need_plugin

# a.c: asm_reads() reads the static counter and calls the static
# add_one from asm; read_counter() reads counter from C.  main() returns
# 6 + 5.
cat > a.c <<'C'
static int counter = 5;
static int __attribute__((noinline, used)) add_one(int x) { return x + 1; }
static int __attribute__((noinline)) nop(int x) { return x - 1; }
int read_counter(void) { __asm__ volatile("nop"); return nop(counter + 1); }
int asm_reads(void)
{
	int v;
#ifdef __x86_64__
	__asm__ volatile("movl counter(%%rip), %0\n\tmovl %0, %%edi\n\tcall add_one\n\tmovl %%eax, %0"
			 : "=r"(v) : : "rdi", "rax", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "memory");
#else
	__asm__ volatile("ldr r0, =counter\n\tldr r0, [r0]\n\tbl add_one\n\tmov %0, r0"
			 : "=r"(v) : : "r0", "r1", "r2", "r3", "ip", "lr", "memory");
#endif
	return v;
}
C
printf 'int read_counter(void);\nint asm_reads(void);\nint main(void) { return asm_reads() + read_counter(); }\n' > main.c
# label.c: magic_value, a local label of top-level asm, read by two
# functions (two partitions), and here_ip, a label of a function's
# extended asm (x86's int3_selftest_ip), whose address C takes; main
# returns 7 + 8 + 0 + 1.
cat > label.c <<'C'
extern const int magic_value;
__asm__(".pushsection .rodata\n\t.p2align 2\nmagic_value:\n\t.long 7\n\t.popsection\n");
int __attribute__((noinline)) read_magic1(void) { return magic_value; }
int __attribute__((noinline)) read_magic2(void) { return magic_value + 1; }
extern void here_ip(void);
int __attribute__((noinline)) at_here(int x) { __asm__ volatile("here_ip:\n\tnop" : "+r"(x)); return x; }
int __attribute__((noinline)) here_known(void) { return here_ip != 0; }
C
printf 'int read_magic1(void);\nint read_magic2(void);\nint at_here(int);\nint here_known(void);\nint main(void) { return read_magic1() + read_magic2() + at_here(0) + here_known(); }\n' > label-main.c

# scenario PREFIX NAME [RUN...] (for_each_target --run)
scenario() {
	prefix=$1 name=$2; shift 2
	mkdir "$name" && cd "$name" || return
	ld="$BIN/${prefix}lto-ld"
	plugin=$("$ld" --print-cc-plugin) &&
		"${prefix}gcc" -O2 -flto -fplugin="$plugin" -c ../a.c ../main.c ||
		{ not_ok "$name: the sources compile with the plugin"; cd ..; return; }
	expect "$name: whole-program ld -r, a partition per function" \
		env LTO_LD_LTO_FLAGS=-flto-partition=max "$ld" -r --lto-whole-program \
		--lto-keep-symbol=main -o wp.o a.o main.o
	expect "$name: ...the IR names the asm's statics its own way" \
		output_has '^counter\.lto_priv\.[0-9]*$' sh -c "${prefix}nm a.o | awk '{print \$NF}'"
	expect "$name: ...and the output by their source names, local" \
		output_has '^[dt] counter$' sh -c "${prefix}nm wp.o | awk '{print \$(NF-1), \$NF}'"
	expect "$name: ...the static named like the nop instruction is not renamed" \
		eval "! ${prefix}nm a.o | grep -q 'nop\.lto_priv'"
	# the report, of the link and of the same link from the cache (a
	# cached output has the source names already)
	for run in miss hit; do
		LTO_LD_CACHE=$PWD/cache LTO_LD_LTO_FLAGS=-flto-partition=max "$ld" -r \
			--lto-whole-program --lto-keep-symbol=main --lto-report=$run.json \
			-o cached.o a.o main.o
		expect "$name: ...the report (cache $run) keeps the statics: still emitted" \
			output_has '"name": "counter\.lto_priv\.[0-9]*", "fate": "kept", "reason": "still emitted"' \
			cat $run.json
	done
	expect "$name: ...the second link came from the cache" \
		output_has '"link_hit": true' cat hit.json
	expect "$name: ...the program links" "${prefix}gcc" -o prog wp.o
	"$@" ./prog
	expect "$name: ...and runs (exit status 11)" test $? = 11
	expect "$name: a local label of top-level asm read by C in two partitions" \
		eval '"${prefix}gcc" -O2 -flto -fplugin="$plugin" -c ../label.c ../label-main.c &&
		LTO_LD_LTO_FLAGS=-flto-partition=max "$ld" -r --lto-whole-program \
			--lto-keep-symbol=main -o label-wp.o label.o label-main.o &&
		"${prefix}gcc" -o label-prog label-wp.o'
	"$@" ./label-prog
	expect "$name: ...links and runs (exit status 16)" test $? = 16
	cd ..
}

for_each_target --run scenario
done_testing
