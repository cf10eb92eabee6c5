#!/bin/sh
# lto-ld-plugin.so in front of GCC's plugin: with no policy the link is
# GCC's; --lto-whole-program internalizes in ld -r what nothing outside
# the IR uses, keeping what non-IR objects reference, what the keep set
# names, and what the compiler may call without an IR reference.  Keep
# entries that match no IR symbol are warnings; an internalized
# definition the output still references is an error.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

need_plugin

# a.c defines three globals, b.c calls one, c.s (native) calls another
# (lib.sh's write_globals_sources).
write_globals_sources
cat > libc.c <<'C'
/* a definition of a name the compiler itself may call */
void *memset(void *d, int c, unsigned long n) { char *p = d; while (n--) *p++ = (char)c; return d; }
__attribute__((weak)) int weak_default(void) { return 1; }
C

# A definition only a top-level asm() uses: no IR symbol shows the call,
# so whole-program LTO drops target_fn and f_caller's call is left
# undefined.  helper pulls target.o out of an archive.
cat > target.c <<'C'
int target_fn(int x) { return x * 7; }
int helper(int x) { return x + 2; }
C

# defined PREFIX FILE: the defined global functions of FILE, sorted
defined() { "${1}nm" "$2" | awk '$2 == "T" || $2 == "W" {print $3}' | sort | tr '\n' ' '; }

# scenario PREFIX NAME (for_each_target)
scenario() {
	prefix=$1 name=$2
	asm_syntax "$name"
	mkdir "$name" && cd "$name" || return
	ld="$BIN/${prefix}lto-ld"
	for f in a b libc; do "${prefix}gcc" -O2 -flto -c "../$f.c" -o "$f.o"; done
	printf '\t.text\n\t.globl from_asm\nfrom_asm:\n\t%s asm_ref_target\n' "$call" > c.s
	"${prefix}as" -o c.o c.s

	"$ld" -r -o plain.o a.o b.o c.o
	got=$(defined "$prefix" plain.o)
	expect "$name: plain ld -r keeps every global" test "$got" = "asm_ref_target entry from_asm unused_global used_global "

	LTO_LD_PLUGIN=$("${prefix}gcc" -print-file-name=liblto_plugin.so) "$ld" -r -o gcc.o a.o b.o c.o
	expect "$name: with no policy the proxy links like GCC's plugin" test "$(defined "$prefix" gcc.o)" = "$got"

	"$ld" -r --lto-whole-program -o wp.o a.o b.o c.o
	got=$(defined "$prefix" wp.o)
	expect "$name: whole-program ld -r keeps only what native code references" test "$got" = "asm_ref_target from_asm "

	"$ld" -r --lto-whole-program --lto-keep-symbol=entry -o keep.o a.o b.o c.o
	got=$(defined "$prefix" keep.o)
	expect "$name: --lto-keep-symbol keeps entry (used_global inlined into it)" \
		test "$got" = "asm_ref_target entry from_asm "

	printf '# kept for the final link\nent*\n\nunused_*\n' > keep.txt
	"$ld" -r --lto-whole-program --lto-keep=keep.txt -o keepf.o a.o b.o c.o
	got=$(defined "$prefix" keepf.o)
	expect "$name: --lto-keep=FILE with globs and comments" test "$got" = "asm_ref_target entry from_asm unused_global "

	LTO_LD_WHOLE_PROGRAM=1 "$ld" -r -o lib.o a.o libc.o c.o
	got=$(defined "$prefix" lib.o)
	expect "$name: memset (a libcall) and a weak definition are never internalized" matches "$got" '*memset*weak_default*'
	# the kernel's vmlinux.o: no later link overrides a weak definition
	"$ld" -r --lto-whole-program --lto-final-weak -o final.o a.o libc.o c.o
	got=$(defined "$prefix" final.o)
	expect "$name: --lto-final-weak internalizes the weak definition, not memset" \
		eval '! matches "$got" "*weak_default*" && matches "$got" "*memset*"' || diag "$got"
	LTO_LD_FINAL_WEAK=1 "$ld" -r --lto-whole-program -o final-env.o a.o libc.o c.o
	expect "$name: LTO_LD_FINAL_WEAK=1 is --lto-final-weak" cmp -s final.o final-env.o

	keep_warnings "$prefix" "$name"
	keep_text_forms "$prefix" "$name"
	lost_definition "$prefix" "$name" "$call"
	cd ..
}

# keep_text_forms PREFIX NAME: a keep file with CRLF lines, no final
# newline and a line longer than any buffer is read whole; a NUL byte is
# an error naming the line
keep_text_forms() {
	prefix=$1 name=$2
	{ printf 'unused_global\r\n'; printf '%5000s' ''; printf 'entry\r\nused_*'; } > keepcr.txt
	"$ld" -r --lto-whole-program --lto-keep=keepcr.txt -o keepcr.o a.o b.o c.o
	got=$(defined "$prefix" keepcr.o)
	expect "$name: keep file with CRLF, a 5,000-byte line and no final newline" \
		test "$got" = "asm_ref_target entry from_asm unused_global used_global "
	printf 'entry\nused_global\0 junk\n' > keepnul.txt
	expect_fails "$name: a NUL byte in a keep file: error naming file and line" \
		"keepnul.txt:2: NUL byte in the keep file" \
		"$ld" -r --lto-whole-program --lto-keep=keepnul.txt -o keepnul.o a.o b.o c.o
	expect "$name: ...no output" test ! -e keepnul.o
}

# keep_warnings PREFIX NAME: keep entries no IR symbol matches (in the
# scenario's directory)
keep_warnings() {
	prefix=$1 name=$2
	printf 'used_global\nent*\nno_such_fn\n' > keep3.txt
	expect "$name: a keep-file name that matches nothing is one warning naming file:line" \
		warns_once keep3.o "asm_ref_target entry from_asm used_global " \
		"warning: lto-ld-plugin: keep3.txt:3: 'no_such_fn' matches no IR symbol of this link$" --lto-keep=keep3.txt
	expect "$name: --lto-keep-symbol=nothing_here warns and links" \
		warns_once keep4.o "asm_ref_target from_asm " \
		"warning: lto-ld-plugin: --lto-keep-symbol: 'nothing_here' matches no IR symbol of this link$" \
		--lto-keep-symbol=nothing_here

	# built-in compiler names (memset here) and matching entries: silent
	out=$("$ld" -r --lto-whole-program --lto-keep-symbol='used_*' -o keep5.o a.o libc.o c.o 2>&1); rc=$?
	expect "$name: no warning when every keep entry matches" eval '[ $rc -eq 0 ] && ! text_has "$out" lto-ld-plugin' ||
		diag "$out"
}

# warns_once OUTPUT DEFINED WARNING OPTION: the whole-program ld -r of
# a.o b.o c.o with OPTION links, OUTPUT defines the functions DEFINED, and
# the one warning of a keep entry that matches nothing is WARNING (a
# pattern); else it prints what the link said
warns_once() {
	warns_out=$("$ld" -r --lto-whole-program "$4" -o "$1" a.o b.o c.o 2>&1) &&
		[ "$(defined "$prefix" "$1")" = "$2" ] &&
		[ "$(printf '%s\n' "$warns_out" | grep -c 'matches no IR symbol')" = 1 ] &&
		text_has "$warns_out" "$3" && return 0
	printf '%s\n' "$warns_out"; return 1
}

# lost_definition PREFIX NAME CALL-INSN
lost_definition() {
	prefix=$1 name=$2 call=$3
	sed "s/CALL/$call/" > caller.c <<'C'
/* f_caller, a top-level asm, calls target_fn: no IR symbol says so */
__asm__(".text\n\t.globl f_caller\nf_caller:\n\tCALL target_fn\n");
int helper(int);
int use_helper(int x) { return helper(x); }
C
	"${prefix}gcc" -O2 -flto -c caller.c -o caller.o
	"${prefix}gcc" -O2 -flto -c ../target.c -o target.o

	# The real ld with the plugin alone: the output really lost target_fn.
	cc=$(command -v "${prefix}gcc")
	COLLECT_GCC=$cc COLLECT_GCC_OPTIONS="'-flto=1'" "${prefix}ld" -r \
		-plugin "$TOP_BUILDDIR/lto-ld-plugin.so" \
		-plugin-opt=lto-ld:gcc-plugin="$("${prefix}gcc" -print-file-name=liblto_plugin.so)" \
		-plugin-opt=lto-ld:whole-program -plugin-opt=lto-ld:symbols=raw.txt \
		-plugin-opt="$("${prefix}gcc" -print-prog-name=lto-wrapper)" \
		-plugin-opt=-fresolution=raw.res -plugin-opt=-linker-output-known \
		-plugin-opt=-flinker-output=nolto-rel -o raw.o caller.o target.o 2>raw.err; rc=$?
	expect "$name: real ld + plugin: target_fn internalized (listed) and left undefined in the output" \
		eval '[ $rc -eq 0 ] && "${prefix}nm" raw.o | grep -q " U target_fn\$" &&
		      ! "${prefix}nm" raw.o | grep -q " T target_fn\$" &&
		      grep -q "^sym	target_fn	def	[A-Z_]*	PREVAILING_DEF_IRONLY	internalized	" raw.txt' ||
		diag "$(cat raw.err raw.txt 2>&1)" "$("${prefix}nm" raw.o 2>&1)"

	expect_fails "$name: lto-ld: a lost definition is an error naming the symbol and its object" \
		"error: lost\.o: target_fn, defined in IR by target\.o, was made internal by --lto-whole-program but the output still references it; keep it \(--lto-keep-symbol=target_fn\)" \
		"$ld" -r --lto-whole-program -o lost.o caller.o target.o
	left=$(ls -A | grep 'lost\.o' | tr '\n' ' ')
	expect "$name: the failed link left no output" test -z "$left"

	out=$("$ld" -r --lto-whole-program --lto-keep-symbol=target_fn -o kept.o caller.o target.o 2>&1); rc=$?
	expect "$name: with --lto-keep-symbol=target_fn it links and defines target_fn" \
		eval '[ $rc -eq 0 ] && [ "$(defined "$prefix" kept.o)" = "f_caller target_fn " ] &&
		      ! "${prefix}nm" kept.o | grep -q " U target_fn\$"' || diag "$out" "$("${prefix}nm" kept.o 2>&1)"

	rm -f libt.a libthin.a
	"$BIN/${prefix}lto-ar" rcs libt.a a.o target.o
	"$BIN/${prefix}lto-ar" rcsT libthin.a a.o target.o
	o1=$("$ld" -r --lto-whole-program -o lost.o caller.o libt.a 2>&1)
	o2=$("$ld" -r --lto-whole-program -o lost.o caller.o libthin.a 2>&1)
	expect "$name: archive members are named archive(member), regular and thin" \
		eval 'text_has "$o1" "target_fn, defined in IR by libt\.a(target\.o), was made" &&
		      text_has "$o2" "target_fn, defined in IR by libthin\.a(target\.o), was made" && [ ! -e lost.o ]' ||
		diag "$o1" "$o2"
}

for_each_target scenario

expect_fails "a missing keep file is an error naming it" "nothere.txt: keep file not found" \
	"$BIN/lto-ld" -r --lto-whole-program --lto-keep=nothere.txt -o x.o host/a.o

# A symbol only code generation references: the x86 stack protector's
# guard, named by -mstack-protector-guard-symbol, defined in IR.
case $(uname -m) in
x86_64 | i?86)
	mkdir guard && cd guard || exit 99
	printf 'void fill(char *);\nint user(void) { char buf[64]; fill(buf); return buf[3]; }\n' > sp.c
	printf 'unsigned long my_guard = 0x12345678;\nvoid fill(char *b) { __builtin_memset(b, 1, 64); }\n' > guard.c
	gcc -O2 -flto -fstack-protector-all -mstack-protector-guard=tls \
		-mstack-protector-guard-reg=fs -mstack-protector-guard-symbol=my_guard -c sp.c
	gcc -O2 -flto -c guard.c
	expect_fails "stack protector guard defined in IR: the lost definition is an error" \
		"error: sp1\.o: my_guard, defined in IR by guard\.o, was made internal by --lto-whole-program but the output still references it" \
		"$BIN/lto-ld" -r --lto-whole-program --lto-keep-symbol=user -o sp1.o sp.o guard.o
	expect "stack protector guard: no output after the error; kept, it stays defined" \
		eval '[ ! -e sp1.o ] && "$BIN/lto-ld" -r --lto-whole-program --lto-keep-symbol=user \
		      --lto-keep-symbol=my_guard -o sp2.o sp.o guard.o &&
		      nm sp2.o | grep -q " D my_guard\$" && ! nm sp2.o | grep -q " U my_guard\$"' || diag "$(nm sp2.o 2>&1)"
	cd ..

	# Many: 20 named, then how many more.
	mkdir many && cd many || exit 99
	i=0; : > defs.c; : > asm.c
	while [ $i -lt 25 ]; do
		printf 'int lost_%d(int x) { return x + %d; }\n' $i $i >> defs.c
		printf '__asm__(".text\\n\\tcall lost_%d\\n");\n' $i >> asm.c
		i=$((i + 1))
	done
	printf 'int keep_me(void) { return 1; }\n' >> asm.c
	gcc -O2 -flto -c defs.c && gcc -O2 -flto -c asm.c
	out=$("$BIN/lto-ld" -r --lto-whole-program --lto-keep-symbol=keep_me -o m.o asm.o defs.o 2>&1)
	n=$(printf '%s\n' "$out" | grep -c 'was made internal by --lto-whole-program')
	expect "25 lost definitions: 20 named, then the count" \
		eval '[ "$n" = 20 ] && text_has "$out" "error: m\.o: 5 more symbols like these (25 in all)\$" && [ ! -e m.o ]' ||
		diag "$n named" "$out"
	cd ..
	;;
*) skip "the stack protector guard symbol option is x86's" ;;
esac
done_testing
