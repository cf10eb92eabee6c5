#!/bin/sh
# Install what lto-ld needs to build and test on Debian 12, then configure
# a build folder.  Safe to run again: only missing packages are installed.
# Usage: scripts/setup.sh [BUILD-DIR [configure options...]]
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)

# Packages: the build, the host and ARM toolchains the tests link with
# and their plugin headers (lto-ld-asm-names.so), qemu-arm to run ARM programs, gcc-11 for the foreign-IR test, procps
# for the signal test; for the kernel flow the kernel source, what
# kbuild needs, QEMU for ARM and x86 systems, ccache and GNU time; clang
# and its libFuzzer runtime for scripts/fuzz.sh; clang, lld and llvm 16
# for Clang's kernels (kernel.sh peers); for scripts/deb.sh the Debian
# packaging tools and lintian; man-db for the man page checks and
# chromium to render lto-sizediff --html in the tests; gdb to read the
# source lines of LTO output (tests, kernel parity); dpkg-source and
# the decompressors for busybox's source package (scripts/busybox.sh).
packages="build-essential autoconf automake binutils binutils-dev
	gcc-12-plugin-dev gcc-12-plugin-dev-arm-linux-gnueabihf g++
	gcc-arm-linux-gnueabihf binutils-arm-linux-gnueabihf
	libc6-dev-armhf-cross qemu-user gcc-11 procps
	linux-source-6.12 bc bison flex libssl-dev libelf-dev cpio perl python3
	qemu-system-arm qemu-system-x86 ccache time clang libclang-rt-14-dev
	clang-16 lld-16 llvm-16
	debhelper dpkg-dev lintian man-db chromium bzip2 xz-utils gdb"

missing=
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup: installing$missing"
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -q
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q $missing
fi

# configure_build DIR [OPTIONS...]: an out-of-tree build folder
configure_build() {
	dir=$1; shift
	[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi)
	mkdir -p "$dir"
	(cd "$dir" && "$top/configure" -q "$@")
}

if [ $# -gt 0 ]; then
	configure_build "$@"
fi
