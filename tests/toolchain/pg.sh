#!/bin/sh
# -pg under LTO (the kernel's ftrace): lto-wrapper does not take -pg from
# its inputs (it is neither a target nor an optimization option), so
# GCC 12 compiled the LTRANS code of objects built with -pg -mfentry
# -mrecord-mcount without it: no call __fentry__, no __mcount_loc.
# lto-ld reads each IR object's option record and gives the LTO step
# -pg when one was compiled with it.  A unit compiled without -pg (the
# kernel's CFLAGS_REMOVE_foo.o = $(CC_FLAGS_FTRACE)) must stay
# uninstrumented all the same: GCC marks its functions
# no_instrument_function when it compiles them, and the mark is in the
# IR.  a.c is compiled with -pg, b.c without; each link is checked in a
# program linked from its output: every function of a.c starts with
# call __fentry__ and is listed in __mcount_loc, no function of b.c is,
# whether b's function is inlined into a's, called from a's, or has a's
# inlined into it.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

need_plugin
ld="$BIN/lto-ld"
case $(gcc -dumpmachine) in
x86_64-*) ;;
*) skip "-mfentry and -mrecord-mcount are x86 options"; done_testing; exit 0 ;;
esac

# a_* are a.c's functions, b_* b.c's: a_inlines gets b_inlined inlined,
# a_calls calls b_called, b_calls_a gets a_small inlined.
cat > a.c <<'C'
int b_called(int);
int b_inlined(int);
__attribute__((noinline)) int a_calls(int x) { return b_called(x) + 1; }
__attribute__((noinline)) int a_inlines(int x) { return b_inlined(x) * 2; }
int a_small(int x) { return x + 7; }
int a_entry(int x) { return a_calls(x) + a_inlines(x); }
C
cat > b.c <<'C'
int a_small(int);
__attribute__((noinline)) int b_called(int x) { volatile int v = x; return v * 3; }
int b_inlined(int x) { return x - 5; }
int b_calls_a(int x) { return a_small(x) * 4; }
C
# what the checks link the outputs with: the entry points ftrace would call
printf '\t.text\n\t.globl __fentry__\n__fentry__:\n\tret\n' > fentry.s
as fentry.s -o fentry.o || { not_ok "fentry.s assembles"; done_testing; exit 1; }

cflags="-O2 -fno-pie -flto"
ftrace="-pg -mfentry -mrecord-mcount"
keep="--lto-keep-symbol=a_entry --lto-keep-symbol=b_inlined --lto-keep-symbol=b_calls_a"

# compile DIR [OPTIONS...]: a.o (with the ftrace options) and b.o in DIR
# shellcheck disable=SC2086
compile() {
	mkdir -p "$1" && dir=$1 && shift &&
		gcc $cflags $ftrace "$@" -c a.c -o "$dir/a.o" &&
		gcc $cflags "$@" -c b.c -o "$dir/b.o"
}

# functions PROG PREFIX: PROG's functions whose names start with PREFIX
functions() { nm "$1" | awk -v p="$2" '$2 ~ /^[Tt]$/ && index($3, p) == 1 { print $3 }'; }

# starts_with_fentry PROG FUNCTION: FUNCTION's first instruction is call __fentry__
starts_with_fentry() {
	objdump -d --no-show-raw-insn "$1" | awk -v f="<$2>:" '
		$2 == f { getline; found = /call.*<__fentry__>/ } END { exit !found }'
}
# in_mcount_loc PROG FUNCTION: FUNCTION's address is in __mcount_loc
in_mcount_loc() {
	addr=$(nm "$1" | awk -v f="$2" '$3 == f { sub(/^0*/, "", $1); print $1 }')
	objcopy -O binary -j __mcount_loc "$1" mcount.bin &&
		od -An -v -tx8 mcount.bin | tr ' ' '\n' | sed 's/^0*//' | grep -qx "$addr"
}

# check NAME PROG: a's functions are traced, b's are not
check() {
	prog=$2 a_fns=$(functions "$2" a_) b_fns=$(functions "$2" b_)
	expect "$1: a.c's and b.c's functions are there" test -n "$a_fns" -a -n "$b_fns" ||
		diag "$(nm "$prog")"
	for f in $a_fns; do
		expect "$1: $f starts with call __fentry__" starts_with_fentry "$prog" "$f" ||
			diag "$(objdump -d "$prog")"
		expect "$1: ...and is in __mcount_loc" in_mcount_loc "$prog" "$f"
	done
	for f in $b_fns; do
		expect "$1: $f (compiled without -pg) does not call __fentry__" \
			eval '! starts_with_fentry "$prog" "$f"'
		expect "$1: ...and is not in __mcount_loc" eval '! in_mcount_loc "$prog" "$f"'
	done
}

# calls PROG FUNCTION: the functions FUNCTION calls
calls() {
	objdump -d "$1" | awk -v f="<$2>:" '$2 == f { on = 1; next } />:$/ { on = 0 }
		on && /call/ { print $NF }' | tr -d '<>' | tr '\n' ' '
}

# link NAME PROG OBJECT...: PROG, a program made by plain ld from OBJECTs
link() {
	link_name=$1 link_prog=$2; shift 2
	expect "$link_name: linked by ld" ld -e a_entry -o "$link_prog" "$@" fentry.o
}

# pg_given VERBOSE-OUTPUT: lto-ld gave the LTO step -pg
pg_given() { text_has "$1" -F "'-pg'"; }

compile p -fplugin="$("$ld" --print-cc-plugin)" ||
	{ not_ok "the sources compile with the plugin"; done_testing; exit 1; }
compile np || { not_ok "the sources compile"; done_testing; exit 1; }

# The kernel's vmlinux.o: a whole-program native ld -r of a thin archive.
rm -f p/ab.a && ar rcsT p/ab.a p/a.o p/b.o
# shellcheck disable=SC2086
expect "whole-program ld -r of a thin archive" \
	"$ld" -r --lto-whole-program --lto-partial=native $keep -o wp.o \
	--whole-archive p/ab.a --no-whole-archive
expect "...its LTRANS code calls __fentry__" output_has '__fentry__' objdump -dr wp.o
expect "...and has a __mcount_loc" output_has '__mcount_loc' readelf -SW wp.o
link "whole-program ld -r" wp wp.o
check "whole-program ld -r" wp
got=$(calls wp a_inlines)
expect "...b_inlined was inlined into a_inlines (it calls: $got)" eval '! text_has "$got" b_inlined'
got=$(calls wp b_calls_a)
expect "...a_small was inlined into b_calls_a (it calls: $got)" eval '! text_has "$got" a_small'
expect "...a_calls calls b_called" text_has "$(calls wp a_calls)" b_called

# GCC marks the functions of a unit without -pg itself: no plugin needed.
# shellcheck disable=SC2086
expect "whole-program ld -r, compiled without the plugin" \
	"$ld" -r --lto-whole-program --lto-partial=native $keep -o wp-np.o np/a.o np/b.o
link "without the plugin" wp-np wp-np.o
check "without the plugin" wp-np

# A plain ld -r (fat: native code and the IR), then its IR linked again:
# the IR part was compiled with -pg too, and its option record says so.
expect "ld -r" "$ld" -r -o fat.o p/a.o p/b.o
link "ld -r" fat fat.o
check "ld -r" fat
expect "...its IR, linked again by lto-ld" \
	"$ld" -e a_entry -u b_inlined -u b_calls_a -o fat-lto fat.o fentry.o
check "...its IR, linked again by lto-ld" fat-lto

# A final link, the objects members of a regular archive, b.o first.
rm -f p/lib.a && ar rcs p/lib.a p/b.o p/a.o
expect "final link of a regular archive's members" \
	"$ld" -e a_entry -u a_entry -u b_inlined -u b_calls_a -o final fentry.o p/lib.a
check "final link" final

# No input compiled with -pg: the LTO step gets no -pg.
out=$(LTO_LD_VERBOSE=1 "$ld" -r --lto-partial=native -o b-only.o p/b.o 2>&1)
expect "no IR compiled with -pg: no -pg for the LTO step" eval '! pg_given "$out"'
# An IR object without its option record: no -pg from it, and no crash
# (lto1 may well refuse such an object).
objcopy --remove-section .gnu.lto_.opts p/a.o a-noopts.o
out=$(LTO_LD_VERBOSE=1 "$ld" -r --lto-partial=native -o noopts.o a-noopts.o p/b.o 2>&1)
status=$?
expect "an IR object without an option record: lto-ld ends by itself (status $status)" \
	test "$status" -lt 128
expect "...and gives the LTO step no -pg" eval '! pg_given "$out"'
done_testing
