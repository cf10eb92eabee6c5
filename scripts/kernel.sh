#!/bin/sh
# The kernel flow: prepare linux-source-6.12 with the series in
# kernel-patches/6.12, build ARM kernels with and without GCC LTO through
# lto-ld, boot them in QEMU, check that the LTO kernel behaves like the
# non-LTO one, and write the results tables.
#
# Usage: scripts/kernel.sh LTO_LD COMMAND...
#   tree                  prepare (or reuse) the patched tree
#   build TARGET VARIANT  TARGET: below; VARIANT: nolto | lto
#                         (whole-program vmlinux.o) | ltoplain (plain ld -r);
#                         the levers: nolto-gc, lto-gc (gc-sections),
#                         lto-one (-flto-partition=one), lto-weak
#                         (--lto-final-weak); compiler flags, each
#                         without and with LTO: nolto-sra, lto-sra
#                         (-fipa-sra), nolto-partial, lto-partial
#                         (-fno-partial-inlining), nolto-stack, lto-stack
#                         (-fno-conserve-stack)
#   boot TARGET VARIANT [KERNEL-ARGUMENTS]
#                         boot a target of mps2, virt, vexpress or x86_64,
#                         keep the console
#   parity TARGET [VARIANT]
#                         build and boot TARGET without LTO and with
#                         VARIANT (default lto; lto-trim: with
#                         TRIM_UNUSED_KSYMS) and compare them: KUnit,
#                         initcall order, console; on
#                         virt the module, on vexpress and x86_64 the
#                         modules and /proc/config.gz, on x86_64 objtool's
#                         warnings; kallsyms on both
#   faults                boot the virt LTO kernel in a broken state (one
#                         initcall left out, a failing module): the parity
#                         checks must catch both
#   check                 parity mps2, virt, virt-thumb2 and
#                         x86_64-tiny, faults, an edit of virt
#                         and two option changes (CONFIG_IKCONFIG's copy
#                         must follow) rebuilt with the LTO cache; the
#                         parity table; one TAP result per check in
#                         kernel-check.log
#   kunit-py VARIANT      tools/testing/kunit/kunit.py run --arch=arm with the
#                         project's suites (lto: with lto-ld and LTO_GCC)
#   sizes [TARGETS]       build every variant of each target (ccache is
#                         fine: only sizes) and write the size table
#   levers TARGET [LEVERS] build the variants of the levers (weak, one, gc,
#                         sra, partial, stack; default all) of TARGET:
#                         sizes, and the time and peak memory of the
#                         vmlinux.o link
#   sizediff TARGET       where the size went: lto-sizediff of TARGET's
#                         nolto and lto vmlinux by symbol, directory and
#                         keep reason (lto-ld's report of the vmlinux.o
#                         link); the keep-reason table goes in
#                         docs/results.md where it has markers (stm32)
#   edit-levers TARGET [LEVERS]
#                         the rebuild after an edit with LTO as configured
#                         and with each lever that makes WPA cheaper
#                         (zstd1, ggc, icf; default all), beside no LTO: edit
#                         times, sizes and peak memory, in turns
#   peers TARGET [VARIANTS]
#                         GCC without LTO (nolto), with lto-ld's LTO (lto,
#                         and lto-trim: TRIM_UNUSED_KSYMS) and Clang without
#                         LTO, with ThinLTO and full LTO (clang, clang-thin,
#                         clang-full), side by side: sizes, build and
#                         rebuild times, the vmlinux.o link, a boot each;
#                         those not measured yet on the same tree and tools
#                         (of VARIANTS, default all); the table of all
#                         measured so far (docs/peers-TARGET.txt)
#   suite [TARGETS]       the measured run: clean builds, rebuilds, sizes,
#                         parity of the bootable targets, and both tables
#                         (default: mps2 virt stm32)
# Targets: mps2 is mps2_defconfig (Cortex-M3, no MMU) with the KUnit
# suites and a FLAT /init; virt is tinyconfig plus tests/kernel/configs/
# virt.config (Cortex-A15, MMU, modules) with the KUnit suites, a static
# /init and the test module, virt-thumb2 the same in Thumb-2; vexpress is
# vexpress_defconfig (Cortex-A9 on QEMU vexpress-a9) with the KUnit
# suites, three of them as in-tree modules that /init loads;
# vexpress-small is vexpress in Thumb-2 with TRIM_UNUSED_KSYMS; stm32 is
# stm32_defconfig, built only; multi_v7 is multi_v7_defconfig (on QEMU
# virt) with the suites of vexpress, of its hundreds of modules /init
# loading vexpress's three; x86_64 is x86_64_defconfig (QEMU pc) with
# the suites and modules of vexpress, x86_64-tiny tinyconfig plus
# x86_64-tiny.config and trim.config with the same.
# Environment: LTO_LD_KERNEL_DIR (default _build/ in the project) holds the
# tree and the builds (LTO_LD_CACHE is lto-ld's LTRANS cache, which the
# kernels keep in their build folders); KERNEL_CC is ARM's compiler
# (default arm-linux-gnueabihf-gcc; x86_64 uses gcc, Clang's peers
# clang); KERNEL_CC_LAUNCHER goes in front of each (CI sets ccache).
# The jobs, one file each in scripts/kernel/: tree.sh (the patched tree,
# the tool folder, kmake, the configurations), build-boot.sh (images,
# their userspace, boots, the edit of init/main.c), parity.sh (parity,
# faults, check, the parity table, kunit-py), measure.sh (the suite,
# sizes, sizediff, their tables), levers.sh (levers, edit-levers),
# peers.sh (peers);
# scripts/results-table.sh puts a table into docs/results.md.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
lto_ld=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); shift
cache=${LTO_LD_KERNEL_DIR:-$top/_build}
# (the kernels' own .lto-ld-cache, unless a test sets it)
unset LTO_LD_CACHE
# What would make two builds of one tree differ (the suite compares them)
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026" \
	KBUILD_BUILD_USER=lto-ld KBUILD_BUILD_HOST=lto-ld
jobs=$(nproc)
# ccache (CI): paths below the cache folder count as relative, so a fresh
# tree at another path still hits the cache.
export CCACHE_BASEDIR="$cache" CCACHE_NOHASHDIR=1

. "$top/scripts/kernel/tree.sh"
. "$top/scripts/kernel/build-boot.sh"
. "$top/scripts/kernel/parity.sh"
. "$top/scripts/kernel/measure.sh"
. "$top/scripts/kernel/levers.sh"
. "$top/scripts/kernel/peers.sh"
. "$top/scripts/results-table.sh"

# ($arch, $cross, $kernel_cc: ARM's until a job names its target)
target_env arm
prepare_tree
# (a run stopped between edit_main and unedit_main left the edit)
unedit_main
trap unedit_main EXIT
tool_dir
case ${1:-} in
	tree) echo "$tree" ;;
	build) build "$2" "$3" ;;
	boot) shift; boot "$@" ;;
	parity) shift; parity "$@" ;;
	faults) faults ;;
	check) check ;;
	kunit-py) kunit_py "$2" ;;
	sizes) shift; sizes "$@" ;;
	levers) shift; levers "$@" ;;
	sizediff) sizediff "$2" ;;
	edit-levers) shift; edit_levers "$@" ;;
	suite) shift; suite "$@" ;;
	peers) shift; peers "$@" ;;
	*) echo "usage: $0 LTO_LD tree|build TARGET VARIANT|boot TARGET VARIANT [ARGS]|parity TARGET [VARIANT]|faults|check|kunit-py VARIANT|sizes [TARGETS]|levers TARGET [LEVERS]|sizediff TARGET|edit-levers TARGET [LEVERS]|suite [TARGETS]|peers TARGET [VARIANTS]" >&2
	   exit 2 ;;
esac
