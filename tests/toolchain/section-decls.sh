#!/bin/sh
# Declarations in a named section that holds const and writable
# variables (x86's pcpu_hot and const_pcpu_hot, its const alias, which
# the linker script defines): GCC 12 computes the section of every
# variable its IR's symbol table names, declarations too, and stops a
# -flto compile with "section type conflict"; without -flto the same
# unit compiles.  lto-ld's compiler plugin leaves such declarations
# without their section: the unit compiles, links through a
# whole-program ld -r and runs.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

need_plugin

# a.c declares hot and its const alias in one section; b.c defines hot;
# the final link defines const_hot as hot.  main() returns 5 + 5.
cat > a.c <<'C'
extern int hot __attribute__((section(".data.hot")));
extern const int const_hot __attribute__((section(".data.hot")));
int __attribute__((noinline)) get(void) { return hot + const_hot; }
C
echo 'int hot __attribute__((section(".data.hot"))) = 5;' > b.c
printf 'int get(void);\nint main(void) { return get(); }\n' > main.c

# scenario PREFIX NAME [RUN...] (for_each_target --run)
scenario() {
	prefix=$1 name=$2; shift 2
	mkdir "$name" && cd "$name" || return
	ld="$BIN/${prefix}lto-ld"
	plugin=$("$ld" --print-cc-plugin) || { not_ok "$name: the plugin"; cd ..; return; }
	expect "$name: without -flto the declarations compile" "${prefix}gcc" -O2 -c -o plain.o ../a.c
	expect_fails "$name: with -flto and no plugin GCC stops: section type conflict" \
		'section type conflict' "${prefix}gcc" -O2 -flto -c -o noplugin.o ../a.c
	expect "$name: with the plugin they compile" \
		"${prefix}gcc" -O2 -flto -fplugin="$plugin" -c ../a.c ../b.c ../main.c || { cd ..; return; }
	expect "$name: ...the whole-program ld -r links them" \
		"$ld" -r --lto-whole-program --lto-partial=native --lto-keep-symbol=main \
		--lto-keep-symbol=hot -o wp.o a.o b.o main.o
	expect "$name: ...the program links, const_hot defined as hot" \
		"${prefix}gcc" -o prog wp.o -Wl,--defsym=const_hot=hot
	"$@" ./prog
	expect "$name: ...and runs (exit status 10)" test $? = 10
	cd ..
}

for_each_target --run scenario
done_testing
