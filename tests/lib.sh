# Shared helpers for the toolchain tests: TAP output, a private work
# directory, and the lto-ld names a test needs.  Tests use the real gcc,
# ld, ar and QEMU; nothing here fakes a tool.

set -u
: "${LTO_LD:?LTO_LD must point at the built lto-ld}"
: "${TOP_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"

tap_n=0
tap_failed=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/lto-ld-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 99

# Names a tester would install: lto-ld, lto-ar... and the ARM prefixed ones.
mkdir -p bin
for n in lto-ld lto-ar lto-nm lto-ranlib; do
	ln -s "$LTO_LD" "bin/$n"
	ln -s "$LTO_LD" "bin/arm-linux-gnueabihf-$n"
done
BIN=$WORK/bin

ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok() { tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $*"; }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - # SKIP $*"; }
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }

# expect DESCRIPTION COMMAND...: one result, passed when the command
# succeeds; else failed, with the command and its output as diagnostics,
# and expect returns 1 (so "expect ... || diag MORE" adds context).  A
# shell condition is a command: expect DESC test ..., expect DESC grep -q
# ..., and a pipeline or list expect DESC eval '...'.  The command runs in
# a subshell: what it prints is kept for the diagnostics.
expect() {
	expect_desc=$1; shift
	if expect_out=$("$@" 2>&1); then ok "$expect_desc"; return 0; fi
	not_ok "$expect_desc"; diag "failed: $*" ${expect_out:+"$expect_out"}
	return 1
}

# matches STRING PATTERN: STRING matches the shell PATTERN, as in case
matches() { case $1 in $2) return 0 ;; esac; return 1; }

# listed LIST [+WORD|-WORD]...: the words of LIST (separated by spaces)
# include each +WORD and no -WORD
listed() {
	listed_list=" $1 "; shift
	for listed_word; do
		case $listed_word in
		+*) case $listed_list in *" ${listed_word#+} "*) ;; *) return 1 ;; esac ;;
		-*) case $listed_list in *" ${listed_word#-} "*) return 1 ;; esac ;;
		esac
	done
}

# output_has [-E] PATTERN COMMAND...: a line COMMAND writes on stdout
# matches PATTERN (grep, -E for an extended one)
output_has() {
	output_has_e=
	[ "$1" = -E ] && { output_has_e=-E; shift; }
	output_has_pattern=$1; shift
	"$@" | grep -q $output_has_e -- "$output_has_pattern"
}

# text_has TEXT GREP-ARGS...: grep -q GREP-ARGS finds a line in TEXT
text_has() { text_has_text=$1; shift; printf '%s\n' "$text_has_text" | grep -q "$@"; }

# expect_fails DESCRIPTION PATTERN COMMAND...: the command must fail and
# say something matching PATTERN (grep -E) on stderr/stdout.
expect_fails() {
	desc=$1; pattern=$2; shift 2
	if out=$("$@" 2>&1); then
		not_ok "$desc (command succeeded)"; diag "$out"
	elif printf '%s\n' "$out" | grep -Eq -- "$pattern"; then
		ok "$desc"
	else
		not_ok "$desc (message did not match /$pattern/)"; diag "$out"
	fi
}

have() { command -v "$1" >/dev/null 2>&1; }

# skip_missing WHAT [DETAIL]: WHAT (a tool or package) is not installed, so
# a part of the test does not run: "missing WHAT" is the skip's reason
# (run-tests.sh groups skips by it).  Under LTO_LD_REQUIRE_ALL=1 (CI, where
# scripts/setup.sh installs everything) it is a failure instead.  Skips for
# other reasons (root, the host's architecture) use skip.
skip_missing() {
	if [ "${LTO_LD_REQUIRE_ALL:-0}" = 1 ]; then
		not_ok "missing $1${2:+: $2} (LTO_LD_REQUIRE_ALL=1: every tool the tests use must be installed)"
	else
		skip "missing $1${2:+: $2}"
	fi
}

# missing TOOL...: the TOOLs not installed (on PATH), by skip_missing
missing() {
	absent=
	for t in "$@"; do have "$t" || absent="$absent${absent:+ and }$t"; done
	skip_missing "${absent:-$*}"
}

# for_each_target [--run] FUNCTION: FUNCTION PREFIX NAME for the host
# ("" host), then for ARM (arm-linux-gnueabihf- arm) when its cross gcc
# is installed, else a "missing" skip.  --run: the test runs programs, so
# ARM also needs qemu-arm, and FUNCTION gets the command that runs an ARM
# program as its last arguments (none on the host).
for_each_target() {
	target_tools=arm-linux-gnueabihf-gcc target_run=
	if [ "$1" = --run ]; then
		shift
		target_tools="$target_tools qemu-arm"
		target_run="qemu-arm -L /usr/arm-linux-gnueabihf"
	fi
	"$1" "" host
	for target_tool in $target_tools; do
		# shellcheck disable=SC2086
		have "$target_tool" || { missing $target_tools; return; }
	done
	# shellcheck disable=SC2086
	"$1" arm-linux-gnueabihf- arm $target_run
}

# asm_syntax NAME: call, the call instruction, and comment, the comment
# character, of the assembler of target NAME (host: x86, or arm)
asm_syntax() {
	case $1 in arm) call=bl comment=@ ;; *) call=call comment='#' ;; esac
}

done_testing() { echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]; }

# The seed article's example: foo.c, bar.c, main.c in files of their own.
write_seed_sources() {
	printf 'int foo(void) { return 1; }\n' > foo.c
	printf 'int foo(void);\nint bar(void) { return foo() + 2; }\n' > bar.c
	printf 'int foo(void);\nint main(void) { return foo() + 4; }\n' > main.c
}

# seed_ir_objects_private_tmp: foo.o, bar.o, main.o as GCC IR, and
# TMPDIR=$WORK/tmp (empty), so a test can see what a run leaves there
seed_ir_objects_private_tmp() {
	write_seed_sources
	for f in foo bar main; do gcc -O2 -flto -c "$f.c" -o "$f.o"; done
	mkdir tmp
	export TMPDIR="$WORK/tmp"
}

# need_plugin: skip the whole test when lto-ld-plugin.so was not built
need_plugin() {
	: "${TOP_BUILDDIR:?}"
	[ -f "$TOP_BUILDDIR/lto-ld-plugin.so" ] && return 0
	skip_missing binutils-dev "lto-ld-plugin.so not built"
	done_testing
	exit 0
}

# write_globals_sources: what a whole-program ld -r must get right, in C:
# a.c defines three globals, b.c calls one (the tests add a native c.s
# that calls asm_ref_target).  Only native code calls asm_ref_target, so
# it must stay; nothing calls unused_global, so it can go.
write_globals_sources() {
	cat > a.c <<'C'
int unused_global(int x) { return x * 3; }
int used_global(int x) { return x + 1; }
int asm_ref_target(int x) { return x - 1; }
C
	cat > b.c <<'C'
int used_global(int);
int entry(int x) { return used_global(x) * 2; }
C
}
