#!/bin/sh
# The main job, from a fresh checkout: set-up, build lto-ld, the seed
# example end to end (scripts/demo.sh), busybox plain and through lto-ld
# with its testsuite (scripts/busybox.sh), then the kernel: mps2, virt,
# stm32, vexpress and multi_v7 built with and without GCC LTO through
# lto-ld, mps2, virt, vexpress and multi_v7 (on QEMU virt) booted and
# checked for parity, multi_v7's vmlinux.o link measured, vexpress-small
# (Thumb-2, trimmed exports) booted and checked too, x86_64_defconfig
# built and booted with and without lto-ld's LTO and checked for parity,
# measured beside Clang without LTO, with ThinLTO and full LTO (peers),
# and the measured results tables (written into docs/results.md).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/_build/default
"$top/scripts/setup.sh" "$dir"
make -C "$dir" -s -j"$(nproc)"
"$top/scripts/demo.sh" "$dir/lto-ld"
"$top/scripts/busybox.sh" "$dir/lto-ld" lto thin native cache gcc
"$top/scripts/kernel.sh" "$dir/lto-ld" suite mps2 virt stm32
"$top/scripts/kernel.sh" "$dir/lto-ld" suite vexpress
"$top/scripts/kernel.sh" "$dir/lto-ld" suite multi_v7
"$top/scripts/kernel.sh" "$dir/lto-ld" sizes multi_v7
"$top/scripts/kernel.sh" "$dir/lto-ld" parity vexpress-small
"$top/scripts/kernel.sh" "$dir/lto-ld" sizes vexpress vexpress-small
"$top/scripts/kernel.sh" "$dir/lto-ld" peers x86_64
"$top/scripts/kernel.sh" "$dir/lto-ld" parity x86_64
exec "$top/scripts/kernel.sh" "$dir/lto-ld" sizediff x86_64
