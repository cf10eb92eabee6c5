#!/bin/sh
# The kernel flow: prepare linux-source-6.12 with the series in
# kernel-patches/6.12, build ARM kernels with and without GCC LTO through
# lto-ld, boot mps2 in QEMU, and write the results table.
#
# Usage: scripts/kernel.sh LTO_LD COMMAND...
#   tree                  prepare (or reuse) the patched tree
#   build TARGET VARIANT  TARGET: mps2 | stm32; VARIANT: nolto | lto
#   boot VARIANT          boot the mps2 kernel of VARIANT, check the console
#   check                 mps2 with and without LTO: build, boot, compare
#   suite [TARGETS]       the measured run: builds, rebuilds, sizes, boots,
#                         and the results table (default: mps2 stm32)
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
# ccache (CI): paths below the cache folder count as relative, so a fresh
# tree at another path still hits the cache.
export CCACHE_BASEDIR="$cache" CCACHE_NOHASHDIR=1

# series_id: a hash of the series, so a changed series gets a fresh tree
series_id() {
	cat "$series_dir/series" $(sed "s|^|$series_dir/|" "$series_dir/series") |
		sha256sum | cut -c1-12
}

# prepare_tree: extract the tarball and apply the series, again only when
# the series changed (the path stays the same, so ccache keeps hitting)
prepare_tree() {
	tree=$cache/linux-6.12
	id=$(series_id)
	[ "$(cat "$tree/.lto-ld-series" 2>/dev/null)" = "$id" ] && return 0
	echo "kernel: extracting $tarball into $tree"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xf "$tarball" -C "$tree.tmp" --strip-components=1
	while read -r patch; do
		case $patch in ''|'#'*) continue;; esac
		patch -d "$tree.tmp" -p1 -s --no-backup-if-mismatch < "$series_dir/$patch"
	done < "$series_dir/series"
	echo "$id" > "$tree.tmp/.lto-ld-series"
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
	$run make -C "$tree" -s "$@"
}
run=

# init_image: the mps2 userspace, a FLAT /init in an initramfs list
init_image() {
	d=$cache/mps2-init
	mkdir -p "$d"
	cc -std=c11 -O2 -Wall -Wextra -o "$d/mkflat" "$top/tests/kernel/mkflat.c"
	${cross}as -mcpu=cortex-m3 -mthumb -o "$d/init.o" "$top/tests/kernel/init-flat.S"
	${cross}ld -Ttext=0x40 -e _start -o "$d/init.elf" "$d/init.o"
	${cross}objcopy -O binary "$d/init.elf" "$d/init.bin"
	"$d/mkflat" -t "$d/init.bin" "$d/init"
	cat > "$d/initramfs.list" <<LIST
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
file /init $d/init 0755 0 0
LIST
}

# configure TARGET VARIANT: defconfig (+ initramfs for mps2), LTO_GCC for lto
configure() {
	kmake "$1" "$2" "$1_defconfig"
	cfg=$cache/kbuild/$1-$2/.config
	if [ "$1" = mps2 ]; then
		init_image
		"$tree/scripts/config" --file "$cfg" --enable BLK_DEV_INITRD \
			--set-str INITRAMFS_SOURCE "$cache/mps2-init/initramfs.list"
		kmake "$1" "$2" olddefconfig
	fi
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

# check: both mps2 kernels build and boot, with the same console
check() {
	for v in nolto lto; do
		build mps2 $v
		boot $v || { echo "kernel: mps2-$v did not run /init (see its console.log)" >&2; return 1; }
	done
	"$top/tests/kernel/compare-console.sh" "$cache/kbuild/mps2-nolto/console.log" \
		"$cache/kbuild/mps2-lto/console.log"
}

# timed LABEL TARGET VARIANT ARGS...: kmake, with "LABEL,wall,user,sys" in $times
timed() {
	label=$1; shift
	run="/usr/bin/time -f $label,%e,%U,%S -a -o $times"
	kmake "$@" || { run=; return 1; }
	run=
}

# size_of TARGET VARIANT: "text data bss dec" of its vmlinux
size_of() {
	${cross}size "$cache/kbuild/$1-$2/vmlinux" | awk 'NR == 2 {print $1, $2, $3, $4}'
}

# measure TARGET: clean builds and init/main.c rebuilds, side by side
measure() {
	for v in nolto lto; do
		rm -rf "$cache/kbuild/$1-$v"
		configure "$1" "$v"
		timed "$1-$v-build" "$1" "$v" -j"$jobs" vmlinux
	done
	for v in nolto lto; do
		touch "$tree/init/main.c"
		timed "$1-$v-rebuild" "$1" "$v" -j"$jobs" vmlinux
	done
	[ "$1" = mps2 ] || return 0
	for v in nolto lto; do
		kmake mps2 $v arm/mps2-an385.dtb
		if boot $v; then echo "mps2-$v-boot,userspace /init ran" >> "$times"
		else echo "mps2-$v-boot,FAILED" >> "$times"; fi
	done
	if "$top/tests/kernel/compare-console.sh" "$cache/kbuild/mps2-nolto/console.log" \
		"$cache/kbuild/mps2-lto/console.log"; then
		echo "mps2-console,same" >> "$times"
	else
		echo "mps2-console,DIFFERENT" >> "$times"
	fi
}

# table TARGETS: the markdown results table from $times and the sizes
table() {
	echo "| target | build | text | data | bss | dec | full build wall (CPU) | rebuild after touch init/main.c | boot (QEMU) |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for t in "$@"; do
		for v in nolto lto; do
			set -- $(size_of "$t" $v)
			b=$(awk -F, -v k="$t-$v-build" '$1 == k {printf "%.0f s (%.0f s)", $2, $3 + $4}' "$times")
			r=$(awk -F, -v k="$t-$v-rebuild" '$1 == k {printf "%.1f s", $2}' "$times")
			boot=$(awk -F, -v k="$t-$v-boot" '$1 == k {print $2}' "$times")
			echo "| $t | $v | $1 | $2 | $3 | $4 | $b | $r | ${boot:-not booted} |"
			eval "${v}_dec=$4"
		done
		awk -F, -v t="$t" -v a="$nolto_dec" -v b="$lto_dec" -f - "$times" <<'AWK'
$1 == t "-nolto-build" { nb = $2; nc = $3 + $4 }
$1 == t "-lto-build" { lb = $2; lc = $3 + $4 }
$1 == t "-nolto-rebuild" { nr = $2 }
$1 == t "-lto-rebuild" { lr = $2 }
END { printf "| %s | LTO vs no LTO | | | | %+.1f%% | %.2fx wall, %.2fx CPU | %.1fx | |\n", t, (b - a) * 100 / a, lb / nb, lc / nc, lr / nr }
AWK
	done
	echo "| stm32 (2018 article, v4.15, GCC 6.3) | LTO vs no LTO | | | | -21.8% | 2.3x wall, 1.9x CPU | 15.8x | |"
}

# readme_table FILE: put FILE between the kernel-results markers of README.md
readme_table() {
	awk -v table="$1" '
		/<!-- kernel-results -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
		/<!-- \/kernel-results -->/ { skip = 0 }
		!skip { print }' "$top/README.md" > "$top/README.md.tmp" &&
	mv "$top/README.md.tmp" "$top/README.md"
}

# suite TARGETS: measure every target, then print the table and put it in the README
suite() {
	[ $# -gt 0 ] || set -- mps2 stm32
	times=$cache/times.txt
	: > "$times"
	for t in "$@"; do measure "$t"; done
	{
		table "$@"
		echo
		echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores, kernel compiles without ccache, by \`scripts/kernel.sh LTO_LD suite $*\`."
	} > "$cache/results.md"
	cat "$cache/results.md"
	readme_table "$cache/results.md"
	grep -q 'FAILED\|DIFFERENT' "$times" && return 1
	return 0
}

prepare_tree
tool_dir
case ${1:-} in
	tree) echo "$tree" ;;
	build) build "$2" "$3" ;;
	boot) boot "$2" ;;
	check) check ;;
	suite) shift; suite "$@" ;;
	*) echo "usage: $0 LTO_LD tree|build TARGET VARIANT|boot VARIANT|check|suite [TARGETS]" >&2
	   exit 2 ;;
esac
