#!/bin/sh
# lto-ld-asm-names.so, the GCC compiler plugin: a global that a unit names
# in asm text (a top-level asm() as EXPORT_SYMBOL writes it, a call in a
# function's basic asm) stays global through a whole-program ld -r, with
# no annotation in the source.  Without the plugin the same link loses
# those definitions, and lto-ld says so.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

need_plugin

# a.c: exported_fn is named only by a top-level asm (an export table
# entry) and by user(), which nothing outside uses; asm_callee is called
# from basic asm in caller(); unused_fn is never named.  b.c calls caller.
# far.c calls far_callee, defined in callee.c, from asm: another unit.
cat > b.c <<'C'
void caller(void);
int entry(void) { caller(); return 0; }
C
printf 'int far_callee(void) { return 9; }\n' > callee.c

# defined PREFIX FILE: the defined global functions of FILE, sorted
defined() { "${1}nm" "$2" | awk '$2 == "T" {print $3}' | sort | tr '\n' ' '; }

# compile PREFIX FLAGS FILE...: -O2 -flto objects next to the sources
compile() {
	cprefix=$1 cflags=$2; shift 2
	for f; do "${cprefix}gcc" -O2 -flto $cflags -c "$f.c" -o "$f.o" || return; done
}

# scenario PREFIX NAME (for_each_target)
scenario() {
	prefix=$1 name=$2
	asm_syntax "$name"
	mkdir "$name" && cd "$name" || return
	ld="$BIN/${prefix}lto-ld"
	cp ../b.c ../callee.c .
	cat > a.c <<C
int exported_fn(int x) { return x * 3; }
int unused_fn(int x) { return x - 1; }
int user(int x) { return exported_fn(x) + 1; }
__asm__(".pushsection .rodata.exports,\\"a\\"\\n"
	"exports_table:\\n\\t.word exported_fn\\n\\t.popsection");
int asm_callee(void) { return 7; }
void caller(void) { __asm__ volatile("$call asm_callee"); }
C
	cat > far.c <<C
int far_callee(void);
void far_caller(void) { __asm__ volatile("$call far_callee"); }
int entry2(void) { far_caller(); return 0; }
C

	if ! plugin=$("$ld" --print-cc-plugin) || [ ! -f "$plugin" ]; then
		not_ok "$name: --print-cc-plugin names the plugin ($plugin)"
		cd .. && return
	fi
	ok "$name: --print-cc-plugin names $(basename "$(dirname "$plugin")")/$(basename "$plugin")"

	compile "$prefix" "" a b
	expect_fails "$name: without the plugin whole-program ld -r loses what asm names" \
		"exported_fn, defined in IR by a.o, was made internal" \
		"$ld" -r --lto-whole-program --lto-keep-symbol=entry -o none.o a.o b.o
	expect "$name: no output after the error" test ! -e none.o

	compile "$prefix" "-fplugin=$plugin" a b far callee
	expect "$name: with the plugin the same link succeeds" \
		"$ld" -r --lto-whole-program --lto-keep-symbol=entry -o wp.o a.o b.o
	got=$(defined "$prefix" wp.o)
	expect "$name: names in top-level and in function asm stay global" \
		listed "$got" +exported_fn +asm_callee
	expect "$name: what no asm names is still dropped" listed "$got" -unused_fn -user

	# asm in far.c naming a definition of callee.c: far.o lists it in
	# .lto_ld.asm_names, the linker plugin keeps it (EXPORT_SYMBOL in a
	# file of its own, as lib/zlib_inflate/inflate_syms.c does)
	expect "$name: far.o lists far_callee, which it declares and names in asm" \
		output_has far_callee readelf -p .lto_ld.asm_names far.o
	expect "$name: asm naming another unit's definition keeps it" \
		"$ld" -r --lto-whole-program --lto-keep-symbol=entry2 \
		--lto-report=far.txt -o farout.o far.o callee.o
	expect "$name: ... global in the output" listed "$(defined "$prefix" farout.o)" +far_callee
	expect "$name: the list stays out of the linked output" eval '! readelf -SW farout.o | grep -q lto_ld'
	expect "$name: the report says why" \
		grep -q "kept (named in asm of another unit) *far_callee" far.txt || diag "$(cat far.txt)"

	# A weak definition named in asm (kernel/sched/clock.c exports its
	# weak sched_clock) loses to another unit's strong one: listed too.
	printf '__attribute__((weak)) int wclock(void) { return 0; }\n__asm__(".pushsection .rodata.exports,\\"a\\"\\n\\t.word wclock\\n\\t.popsection");\n' > weak.c
	printf 'int wclock(void) { return 42; }\nint entry4(void) { return wclock(); }\n' > strong.c
	compile "$prefix" "-fplugin=$plugin" weak strong
	expect "$name: a weak definition named in asm keeps the strong one that wins" \
		"$ld" -r --lto-whole-program --lto-keep-symbol=entry4 -o weak-out.o weak.o strong.o

	# Names in asm strings and comments refer to nothing: a whole-program
	# link still removes what only they name.
	cat > notes.c <<C
int commented_fn(int x) { return x + 5; }
int block_fn(int x) { return x + 6; }
int quoted_fn(int x) { return x + 7; }
void noted(void) { __asm__ volatile("nop $comment commented_fn\\n\\t/* block_fn */ nop"); }
__asm__(".pushsection .rodata.notes,\\"a\\"\\n\\t.asciz \\"quoted_fn\\"\\n\\t.popsection");
int entry5(void) { noted(); return 0; }
C
	compile "$prefix" "-fplugin=$plugin" notes
	expect "$name: asm with names in a comment ($comment, /* */) and a string" \
		"$ld" -r --lto-whole-program --lto-keep-symbol=entry5 -o notes-out.o notes.o
	expect "$name: ... what only they name is removed" \
		listed "$(defined "$prefix" notes-out.o)" -commented_fn -block_fn -quoted_fn +entry5

	# A name asm uses with no declaration in its unit is not guessed:
	# lto-ld reports the lost definition.
	printf 'void bare_caller(void) { __asm__ volatile("%s far_callee"); }\nint entry3(void) { bare_caller(); return 0; }\n' "$call" > bare.c
	compile "$prefix" "-fplugin=$plugin" bare
	expect_fails "$name: asm naming an undeclared definition of another unit is reported" \
		"far_callee, defined in IR by callee.o, was made internal" \
		"$ld" -r --lto-whole-program --lto-keep-symbol=entry3 -o bare-out.o bare.o callee.o
	cd ..
}

for_each_target scenario

# A named section with const data from one file and writable data from
# another (the kernel's __initconst on a non-const table): separate
# objects are fine, one LTRANS unit is a "section type conflict" for GCC.
# lto-ld loads the plugin into the LTO step, which makes them agree.
cat > sec1.c <<'C'
struct ops { int (*f)(void); };
static int one(void) { return 1; }
struct ops table_w __attribute__((section(".init.rodata"))) = { one };
int use_w(void) { return table_w.f(); }
C
cat > sec2.c <<'C'
const int table_r[4] __attribute__((section(".init.rodata"))) = { 1, 2, 3, 4 };
int use_r(int i) { return table_r[i & 3]; }
C
gcc -O2 -flto -c sec1.c sec2.c
expect_fails "one LTRANS unit with const and writable data in a section: GCC alone refuses" \
	"section type conflict" \
	gcc -O2 -flto -flto-partition=one -r -nostdlib -o sec-gcc.o sec1.o sec2.o
expect "lto-ld links them (the plugin in the LTO step)" \
	"$BIN/lto-ld" -r --lto-partial=native --lto-flags=-flto-partition=one -o sec.o sec1.o sec2.o
expect "...and merges their IR (fat ld -r: the plugin in the incremental link)" \
	"$BIN/lto-ld" -r --lto-partial=fat --lto-flags=-flto-partition=one -o sec-fat.o sec1.o sec2.o
expect "the section is writable, as ld makes it from separate objects" \
	output_has ' \.init\.rodata .* WA ' readelf -SW sec.o || diag "$(readelf -SW sec.o 2>&1 | grep init)"

# The plugin is per compiler: one built for another gcc refuses to load.
host_plugin=$("$BIN/lto-ld" --print-cc-plugin 2>/dev/null)
if have arm-linux-gnueabihf-gcc && [ -n "$host_plugin" ]; then
	expect_fails "the host's plugin in the ARM gcc is refused, naming it" \
		"lto-ld-asm-names.so" \
		arm-linux-gnueabihf-gcc -O2 -flto -fplugin="$host_plugin" -c b.c -o x.o
fi

done_testing
