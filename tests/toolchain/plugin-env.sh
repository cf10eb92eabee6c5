#!/bin/sh
# What the compiler plugin (lto-ld-asm-names.so) reads from the
# environment: LTO_LD_VERBOSE by lto-ld's one rule (set to "" or "0" is
# off), and the list of exports to keep only from lto-ld's own channel,
# LTO_LD_INTERNAL_EXPORTS_FILE: the user's LTO_LD_EXPORTS is lto-ld's
# setting, and reaches no compile lto-ld does not run.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

need_plugin
plugin=$("$LTO_LD" --print-cc-plugin 2>/dev/null) || {
	skip "no compiler plugin for this gcc"; done_testing; exit 0; }

# an export entry, as the kernel's EXPORT_SYMBOL writes it
cat > lib.c <<'C'
int exported(int x) { return x * 5 + 3; }
asm(".section \".export_symbol\",\"a\"; __export_symbol_exported: ; .long exported ; .previous");
C
printf 'int exported(int);\nint main(void) { return exported(2); }\n' > main.c
: > none.txt

# notes VALUE: what the plugin says compiling lib.c with LTO_LD_VERBOSE=VALUE
notes() { LTO_LD_VERBOSE=$1 gcc -O2 -flto -fplugin="$plugin" -c lib.c -o lib.o 2>&1 | grep -c 'lto-ld'; }
expect "LTO_LD_VERBOSE=1: the plugin says what it keeps" test "$(notes 1)" -gt 0
expect "LTO_LD_VERBOSE=0: the plugin is quiet, as lto-ld" test "$(notes 0)" -eq 0
expect "LTO_LD_VERBOSE=(empty): the plugin is quiet" test "$(notes '')" -eq 0

gcc -O2 -flto -fplugin="$plugin" -c lib.c -o lib.o && gcc -O2 -flto -fplugin="$plugin" -c main.c -o main.o

# entries FILE: the symbols the .export_symbol relocations name
entries() { readelf -rW "$1" | awk '/^Relocation section/ { on = /export_symbol/ }
	on && NF >= 5 && $1 ~ /^[0-9a-f]+$/ { print $5 }' | tr '\n' ' '; }

# a gcc driver's own LTO (not lto-ld's) with the user's LTO_LD_EXPORTS set
gcc -O2 -flto -fplugin="$plugin" -r -nostdlib -flinker-output=nolto-rel -o plain.o lib.o main.o
LTO_LD_EXPORTS=none.txt gcc -O2 -flto -fplugin="$plugin" -r -nostdlib -flinker-output=nolto-rel -o env.o lib.o main.o
[ -n "$(entries plain.o)" ] && [ "$(entries env.o)" = "$(entries plain.o)" ] &&
	ok "the user's LTO_LD_EXPORTS does not reach the plugin in a compile lto-ld does not run" ||
	not_ok "the user's LTO_LD_EXPORTS does not reach the plugin in a compile lto-ld does not run ($(entries env.o) / $(entries plain.o))"

# lto-ld's own channel still carries --lto-exports (exports.sh has the rest)
"$BIN/lto-ld" -r --lto-whole-program --lto-keep-symbol=main --lto-exports=none.txt -o wp.o lib.o main.o
expect "--lto-exports still reaches the plugin, through lto-ld's channel" test -z "$(entries wp.o)"

# one reader of the name-list format for both plugins: a NUL byte in the
# list of exports is an error naming the line in the compiler plugin too
# (its channel set by hand here, as lto-ld sets it)
printf 'other\nexported\000\n' > nul.txt
expect_fails "a NUL byte in the list of exports: the compiler plugin names file and line" \
	"nul.txt:2: NUL byte in the list of exports" \
	env LTO_LD_INTERNAL_EXPORTS_FILE=nul.txt gcc -O2 -flto -fplugin="$plugin" -r -nostdlib \
	-flinker-output=nolto-rel -o nul.o lib.o main.o
expect_fails "...and in the linker plugin, as a keep file's" "nul.txt:2: NUL byte in the list of exports" \
	"$BIN/lto-ld" -r --lto-whole-program --lto-keep-symbol=main --lto-exports=nul.txt -o wp.o lib.o main.o

done_testing
