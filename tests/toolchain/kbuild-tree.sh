#!/bin/sh
# A kbuild-style userland tree (busybox-like): two directories, each
# `ld -r`'d by lto-ld in its default (fat) mode into built-in.o, then the
# program linked by `gcc -flto -B<dir with lto-ld as ld>/`.  LTO must work
# across the directories (a function of one inlined into the other, an
# unused one removed), while nm, size and objdump still read the partial
# outputs and a link without LTO still uses their native code.  Native
# mode is the control: there every global of a directory stays.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

mkdir -p src/lib src/app gccdir
ln -s "$LTO_LD" gccdir/ld
cat > src/lib/calc.c <<'EOF'
int scale(int x) { return x * 3; }
EOF
cat > src/lib/unused.c <<'EOF'
int never_called(int x) { return x * x + 17; }
EOF
cat > src/app/app.c <<'EOF'
int scale(int x);
int app_run(int x) { return scale(x) + 1; }
EOF
cat > src/main.c <<'EOF'
int app_run(int x);
int main(void) { return app_run(4); }
EOF

# tree PREFIX NAME RUNNER...: build, link and check the tree for PREFIX
tree() {
	prefix=$1 name=$2; shift 2
	mkdir "$name" && cd "$name" || return
	cc=${prefix}gcc nm=${prefix}nm ld="$BIN/${prefix}lto-ld"
	mkdir lib app
	for f in lib/calc lib/unused app/app main; do
		"$cc" -O2 -flto -c "../src/$f.c" -o "$f.o"
	done
	"$cc" -O2 -c ../src/main.c -o main-native.o

	expect "$name: ld -r of lib/ (default mode)" "$ld" -r -o lib/built-in.o lib/calc.o lib/unused.o
	expect "$name: ld -r of app/ (default mode)" "$ld" -r -o app/built-in.o app/app.o
	expect "$name: native ld -r of lib/ (the control)" \
		"$ld" -r --lto-partial=native -o lib/native.o lib/calc.o lib/unused.o

	# the partial output is an ELF relocatable that tools read
	expect "$name: lib/built-in.o is a relocatable object" output_has 'REL (Relocatable' readelf -h lib/built-in.o
	expect "$name: ...that carries GCC IR" test "$(readelf -SW lib/built-in.o | grep -c '\.gnu\.lto_')" -gt 0
	syms=$("$nm" lib/built-in.o 2>&1)
	expect "$name: nm lists its functions" \
		eval 'text_has "$syms" " T scale\$" && text_has "$syms" " T never_called\$" && ! text_has "$syms" "plugin needed"' ||
		diag "$syms"
	text=$(${prefix}size lib/built-in.o | awk 'NR == 2 {print $1}')
	expect "$name: size reads its native code ($text bytes of text)" test "${text:-0}" -gt 0
	expect "$name: objdump disassembles scale" output_has '<scale>:' "${prefix}objdump" -d lib/built-in.o

	# LTO across the directories at the final link through the gcc driver
	expect "$name: gcc -flto -B final link" \
		"$cc" -O2 -flto -B../gccdir/ -o prog main.o lib/built-in.o app/built-in.o
	"$@" ./prog; rc=$?
	expect "$name: the program returns 13" test $rc -eq 13
	expect "$name: the unused function of lib/ is gone" test "$("$nm" prog | grep -c ' never_called$')" -eq 0
	expect "$name: scale and app_run were inlined across directories" \
		test "$("$nm" prog | grep -Ec ' (scale|app_run)$')" -eq 0
	# LTRANS in parallel unless the driver's options choose
	out=$(LTO_LD_VERBOSE=1 LTO_LD_JOBS=3 "$cc" -O2 -flto -B../gccdir/ -o prog-j main.o lib/built-in.o app/built-in.o 2>&1)
	expect "$name: the driver's LTO link gets -flto=LTO_LD_JOBS" text_has "$out" "COLLECT_GCC_OPTIONS+='-flto=3'"
	expect "$name: LTO_LD_VERBOSE says what IR the driver's link holds, and who runs LTO" \
		eval 'text_has "$out" "3 objects with GCC IR (0 in archives, 2 fat)" &&
		      text_has "$out" "the caller loaded the LTO plugin: it runs LTO"' || diag "$out"
	out=$(LTO_LD_VERBOSE=1 LTO_LD_JOBS=3 "$cc" -O2 -flto=1 -B../gccdir/ -o prog-j main.o lib/built-in.o app/built-in.o 2>&1)
	expect "$name: ...but not when it says -flto=1" eval '! text_has "$out" "COLLECT_GCC_OPTIONS+="' || diag "$out"
	expect "$name: control: the final link of the native lib/" \
		"$cc" -O2 -flto -B../gccdir/ -o prog-native main.o lib/native.o app/built-in.o
	expect "$name: control: native mode keeps never_called" test "$("$nm" prog-native | grep -c ' never_called$')" -eq 1

	# a link without LTO uses the native code of the fat outputs
	out=$("$cc" -fno-lto -o prog-nolto main-native.o lib/built-in.o app/built-in.o 2>&1); rc=$?
	expect "$name: a link without LTO takes the native code, silently" \
		eval '[ $rc -eq 0 ] && ! text_has "$out" "plugin needed"' || diag "$out"
	"$@" ./prog-nolto; rc=$?
	expect "$name: ...and the program returns 13" test $rc -eq 13

	# a fat output of fat outputs (a directory of directories)
	expect "$name: ld -r of the two built-in.o" "$ld" -r -o built-in.o lib/built-in.o app/built-in.o
	expect "$name: ...and its final link" "$cc" -O2 -flto -B../gccdir/ -o prog2 main.o built-in.o
	"$@" ./prog2; rc=$?
	expect "$name: nested: returns 13, never_called and scale gone" \
		eval '[ $rc -eq 13 ] && [ "$("$nm" prog2 | grep -Ec " (never_called|scale)\$")" -eq 0 ]' || diag "got $rc"
	cd ..
}

for_each_target --run tree
done_testing
