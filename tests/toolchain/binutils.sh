#!/bin/sh
# lto-ar, lto-nm, lto-ranlib: the real tools with GCC's LTO plugin, so IR
# symbols show up in archive indexes and listings, for cross binutils too;
# and binutils on a thin `ld -r` output.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

write_seed_sources

# tools PREFIX NAME
tools() {
	prefix=$1 name=$2
	mkdir "$name" && cd "$name" || return
	for f in foo bar main; do "${prefix}gcc" -O2 -flto -c "../$f.c" -o "$f.o"; done

	expect "$name: lto-ar rcs" "$BIN/${prefix}lto-ar" rcs lib.a foo.o bar.o
	expect "$name: lto-ar's index lists IR symbols" output_has '^foo in foo.o' "${prefix}nm" -s lib.a
	expect "$name: lto-nm lists IR symbols" output_has ' T foo$' "$BIN/${prefix}lto-nm" foo.o
	"${prefix}ar" rcS noindex.a foo.o bar.o
	expect "$name: lto-ranlib" "$BIN/${prefix}lto-ranlib" noindex.a
	expect "$name: lto-ranlib's index lists IR symbols" output_has '^bar in bar.o' "${prefix}nm" -s noindex.a

	"$BIN/${prefix}lto-ld" -r --lto-partial=thin -o thin.o foo.o bar.o
	expect "$name: ar t on a thin ld -r output" "${prefix}ar" t thin.o
	expect "$name: lto-nm on a thin ld -r output" output_has ' T bar$' "$BIN/${prefix}lto-nm" thin.o
	expect "$name: size on a thin ld -r output" "${prefix}size" thin.o
	expect "$name: objdump -d on a thin ld -r output" "${prefix}objdump" -d thin.o
	[ "$name" = arm ] && arm_control
	cd ..
}

# arm_control: the control, ARM binutils without lto-ld's help
arm_control() {
	arm-linux-gnueabihf-ar rcs plain.a foo.o bar.o 2>/dev/null
	if arm-linux-gnueabihf-nm -s plain.a 2>/dev/null | grep -q '^foo in'; then
		diag "note: this arm-linux-gnueabihf-ar indexes IR by itself"
	else
		ok "control: plain arm-linux-gnueabihf-ar leaves IR symbols out of the index"
	fi
}

for_each_target tools
done_testing
