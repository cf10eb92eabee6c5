#!/bin/sh
# The kernel flow: prepare linux-source-6.12 with the series in
# kernel-patches/6.12, build ARM kernels with and without GCC LTO through
# lto-ld, boot mps2 in QEMU, and write the results table.
#
# Usage: scripts/kernel.sh LTO_LD COMMAND...
#   tree                  prepare (or reuse) the patched tree
#   build TARGET VARIANT  TARGET: mps2 | stm32; VARIANT: nolto | lto
#   boot VARIANT          boot the mps2 kernel of VARIANT, check the console
# Environment: LTO_LD_CACHE (default _build/ in the project) holds the
# tree and the builds; KERNEL_CC defaults to arm-linux-gnueabihf-gcc (CI
# sets "ccache arm-linux-gnueabihf-gcc").
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
lto_ld=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); shift
cache=${LTO_LD_CACHE:-$top/_build}
tarball=/usr/src/linux-source-6.12.tar.xz
series_dir=$top/kernel-patches/6.12
cross=arm-linux-gnueabihf-
kernel_cc=${KERNEL_CC:-${cross}gcc}
jobs=$(nproc)

# series_id: a hash of the series, so a changed series gets a fresh tree
series_id() {
	cat "$series_dir/series" $(sed "s|^|$series_dir/|" "$series_dir/series") |
		sha256sum | cut -c1-12
}

# prepare_tree: extract the tarball and apply the series, once per series
prepare_tree() {
	tree=$cache/linux-6.12-$(series_id)
	[ -f "$tree/.lto-ld-series-applied" ] && return 0
	echo "kernel: extracting $tarball into $tree"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xf "$tarball" -C "$tree.tmp" --strip-components=1
	while read -r patch; do
		case $patch in ''|'#'*) continue;; esac
		patch -d "$tree.tmp" -p1 -s --no-backup-if-mismatch < "$series_dir/$patch"
	done < "$series_dir/series"
	touch "$tree.tmp/.lto-ld-series-applied"
	mv "$tree.tmp" "$tree"
}

# tool_dir: a folder with the prefixed lto-ld names the build uses
tool_dir() {
	bin=$cache/bin
	mkdir -p "$bin"
	for n in lto-ld lto-nm lto-ar; do ln -sf "$lto_ld" "$bin/$cross$n"; done
}

# kmake TARGET VARIANT ARGS...: make in the build folder of TARGET-VARIANT
kmake() {
	t=$1 v=$2; shift 2
	set -- O="$cache/kbuild/$t-$v" ARCH=arm CROSS_COMPILE=$cross CC="$kernel_cc" "$@"
	[ "$v" = lto ] && set -- LD="$cache/bin/${cross}lto-ld" "$@"
	make -C "$tree" -s "$@"
}

# configure TARGET VARIANT: defconfig, plus LTO_GCC for the lto variant
configure() {
	kmake "$1" "$2" "$1_defconfig"
	cfg=$cache/kbuild/$1-$2/.config
	if [ "$2" = lto ]; then
		"$tree/scripts/config" --file "$cfg" --disable LTO_NONE --enable LTO_GCC
		kmake "$1" "$2" olddefconfig
		grep -q '^CONFIG_LTO_GCC=y' "$cfg" || {
			echo "kernel: CONFIG_LTO_GCC=y did not survive olddefconfig" >&2
			exit 1
		}
	fi
}

# build TARGET VARIANT: configure and build vmlinux (and the mps2 DTB)
build() {
	configure "$1" "$2"
	extra=
	[ "$1" = mps2 ] && extra=arm/mps2-an385.dtb
	kmake "$1" "$2" -j"$jobs" vmlinux $extra
}

# boot VARIANT: boot mps2-VARIANT, keep the console in the build folder
boot() {
	b=$cache/kbuild/mps2-$1
	"$top/tests/kernel/boot-mps2.sh" "$b/vmlinux" \
		"$b/arch/arm/boot/dts/arm/mps2-an385.dtb" "$b/console.log" 120
}

prepare_tree
tool_dir
case ${1:-} in
	tree) echo "$tree" ;;
	build) build "$2" "$3" ;;
	boot) boot "$2" ;;
	*) echo "usage: $0 LTO_LD tree|build TARGET VARIANT|boot VARIANT" >&2; exit 2 ;;
esac
