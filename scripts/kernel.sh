#!/bin/sh
# The kernel flow: prepare linux-source-6.12 with the series in
# kernel-patches/6.12, build ARM kernels with and without GCC LTO through
# lto-ld, boot them in QEMU, check that the LTO kernel behaves like the
# non-LTO one, and write the results tables.
#
# Usage: scripts/kernel.sh LTO_LD COMMAND...
#   tree                  prepare (or reuse) the patched tree
#   build TARGET VARIANT  TARGET: mps2 | virt | stm32; VARIANT: nolto | lto
#                         (whole-program vmlinux.o) | ltoplain (plain ld -r);
#                         the levers: nolto-gc, lto-gc (gc-sections),
#                         lto-one (-flto-partition=one), lto-weak
#                         (--lto-final-weak); compiler flags, each
#                         without and with LTO: nolto-sra, lto-sra
#                         (-fipa-sra), nolto-partial, lto-partial
#                         (-fno-partial-inlining), nolto-stack, lto-stack
#                         (-fno-conserve-stack)
#   boot TARGET VARIANT [KERNEL-ARGUMENTS]
#                         boot mps2 or virt, keep the console
#   parity TARGET         build and boot both variants of mps2 or virt and
#                         compare them: KUnit, initcall order, console, and
#                         on virt the module and kallsyms
#   faults                boot the virt LTO kernel in a broken state (one
#                         initcall left out, a failing module): the parity
#                         checks must catch both
#   check                 parity mps2, parity virt, faults, an edit of virt
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
#                         link); the keep-reason table goes in the README
#                         where it has markers (stm32)
#   edit-levers TARGET [LEVERS]
#                         the rebuild after an edit with LTO as configured
#                         and with each lever that makes WPA cheaper
#                         (zstd1, ggc, icf; default all), beside no LTO: edit
#                         times, sizes and peak memory, in turns
#   suite [TARGETS]       the measured run: clean builds, rebuilds, sizes,
#                         parity of the bootable targets, and both tables
#                         (default: mps2 virt stm32)
# Targets: mps2 is mps2_defconfig (Cortex-M3, no MMU) with the KUnit
# suites and a FLAT /init; virt is tinyconfig plus tests/kernel/configs/
# virt.config (Cortex-A15, MMU, modules) with the KUnit suites, a static
# /init and the test module; stm32 is stm32_defconfig, built only.
# Environment: LTO_LD_KERNEL_DIR (default _build/ in the project) holds the
# tree and the builds (LTO_LD_CACHE is lto-ld's LTRANS cache, which the
# kernels keep in their build folders); KERNEL_CC defaults to arm-linux-gnueabihf-gcc (CI
# sets "ccache arm-linux-gnueabihf-gcc").
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
lto_ld=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); shift
cache=${LTO_LD_KERNEL_DIR:-$top/_build}
# (the kernels' own .lto-ld-cache, unless a test sets it)
unset LTO_LD_CACHE
# What would make two builds of one tree differ (the suite compares them)
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026" \
	KBUILD_BUILD_USER=lto-ld KBUILD_BUILD_HOST=lto-ld
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
	ln -sf "$(dirname "$lto_ld")/lto-sizediff" "$bin/${cross}lto-sizediff"
}

# lever_cflags LEVER: the compiler flags a flag lever adds (KCFLAGS)
lever_cflags() {
	case $1 in
		sra) echo -fipa-sra ;;
		partial) echo -fno-partial-inlining ;;
		stack) echo -fno-conserve-stack ;;
		zstd1) echo -flto-compression-level=1 ;;
	esac
}

# lever_lto_flags VARIANT: the flags a lever gives the LTO step
# (LTO_LD_LTO_FLAGS; kbuild does not see the environment, so each such
# lever has a folder of its own)
lever_lto_flags() {
	case $1 in
		lto-one) echo -flto-partition=one ;;
		lto-zstd1) echo -flto-compression-level=1 ;;
		# GC only once WPA's heap passes 1 GiB (GCC's default on this
		# machine: 128 MiB, then whenever it grew by the expand percentage)
		lto-ggc) echo --param=ggc-min-expand=100 --param=ggc-min-heapsize=1048576 ;;
		# WPA's identical code folding (0.4 s of its 5.3 s on mps2)
		lto-icf) echo -fno-ipa-icf ;;
	esac
}

# kmake TARGET VARIANT ARGS...: make in the build folder of TARGET-VARIANT.
# Under CCACHE_BASEDIR ccache hands gcc the sources as paths relative to
# the build folder (../../linux-6.12/...), which kbuild's
# -fmacro-prefix-map=$(srctree)/= does not match: __FILE__ would carry
# them into the image (stm32: 5 KB of .rodata), so that prefix is mapped too.
kmake() {
	t=$1 v=$2; shift 2
	o=$cache/kbuild/$t-$v
	set -- O="$o" ARCH=arm CROSS_COMPILE=$cross CC="$kernel_cc" \
		KCPPFLAGS="-fmacro-prefix-map=$("$top/scripts/relpath.sh" "$o" "$tree")/=" "$@"
	case $v in lto*) set -- LD="$cache/bin/${cross}lto-ld" "$@" ;; esac
	case $v in *-sra|*-partial|*-stack|*-zstd1) set -- KCFLAGS="$(lever_cflags "${v#*-}")" "$@" ;; esac
	case $v in
		lto-one|lto-zstd1|lto-ggc|lto-icf)
			$run env LTO_LD_LTO_FLAGS="$(lever_lto_flags "$v")" make -C "$tree" -s "$@" ;;
		lto-weak) $run env LTO_LD_FINAL_WEAK=1 make -C "$tree" -s "$@" ;;
		*) $run make -C "$tree" -s "$@" ;;
	esac
}
run=

configs=$top/tests/kernel/configs

# mps2_init: the mps2 userspace, a FLAT /init in an initramfs list
mps2_init() {
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

# base_config TARGET: the kernel's config target the build starts from
base_config() {
	case $1 in
		virt) echo tinyconfig ;;
		*) echo "$1_defconfig" ;;
	esac
}

# fragments TARGET VARIANT: the project's config fragments for TARGET
fragments() {
	case $1 in
		mps2) echo "$configs/kunit.config $configs/mps2.config" ;;
		virt) echo "$configs/virt.config $configs/kunit.config" ;;
	esac
	case $2 in
		lto|lto-one|lto-weak|lto-sra|lto-partial|lto-stack|lto-zstd1|lto-ggc|lto-icf) echo "$configs/lto.config" ;;
		ltoplain) echo "$configs/lto.config $configs/lto-plain.config" ;;
		lto-gc) echo "$configs/lto.config $configs/gc.config" ;;
		nolto-gc) echo "$configs/gc.config" ;;
	esac
	return 0
}

# check_config CONFIG FRAGMENTS...: every option of the fragments kept its
# value (the last fragment's) through olddefconfig: a dependency missing
# would drop it silently
check_config() {
	cfg=$1; shift
	cat "$@" | sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)/\1 \2/p' |
		awk '{ value[$1] = substr($0, length($1) + 2); if (!($1 in seen)) order[++n] = $1; seen[$1] = 1 }
		END { for (i = 1; i <= n; i++) print order[i], value[order[i]] }' |
		while read -r name value; do
			got=$(sed -n "s/^$name=//p" "$cfg")
			[ "$value" = n ] && [ -z "$got" ] && continue
			[ "$got" = "$value" ] && continue
			echo "kernel: $cfg: $name is '${got:-not set}', the fragment asks for $value" >&2
			return 1
		done
}

# configure TARGET VARIANT: the base config, the fragments, the initramfs
configure() {
	kmake "$1" "$2" "$(base_config "$1")"
	cfg=$cache/kbuild/$1-$2/.config
	frags=$(fragments "$1" "$2")
	if [ -n "$frags" ]; then
		"$tree/scripts/kconfig/merge_config.sh" -m -Q -O "$cache/kbuild/$1-$2" "$cfg" $frags > /dev/null
	fi
	if [ "$1" = mps2 ]; then
		mps2_init
		"$tree/scripts/config" --file "$cfg" --enable BLK_DEV_INITRD \
			--set-str INITRAMFS_SOURCE "$cache/mps2-init/initramfs.list"
	fi
	if [ "$1" = virt ]; then
		"$tree/scripts/config" --file "$cfg" \
			--set-str UNUSED_KSYMS_WHITELIST "$top/tests/kernel/module/ksyms.txt"
	fi
	kmake "$1" "$2" olddefconfig
	check_config "$cfg" $frags
	case $2 in lto*) fresh_plugin "$1" "$2" ;; esac
}

# fresh_plugin TARGET VARIANT: kbuild cannot see that the compiler plugin
# changed (its command lines name the same file), so a build folder whose
# objects another plugin compiled, or an unknown one, starts clean
fresh_plugin() {
	b=$cache/kbuild/$1-$2
	sum=$(sha256sum < "$("$cache/bin/${cross}lto-ld" --print-cc-plugin)")
	[ "$(cat "$b/.lto-ld-cc-plugin" 2>/dev/null)" = "$sum" ] && return 0
	if [ -f "$b/vmlinux.a" ]; then
		echo "kernel: $1-$2: built with another compiler plugin: make clean" >&2
		kmake "$1" "$2" clean
	fi
	echo "$sum" > "$b/.lto-ld-cc-plugin"
}

# module VARIANT: the test module, built against virt-VARIANT like any
# out-of-tree module (its ld -r is an LTO link in the lto variant)
module() {
	m=$cache/kbuild/virt-$1/lto_ld_test
	rm -rf "$m"
	mkdir -p "$m"
	cp "$top"/tests/kernel/module/* "$m/"
	kmake virt "$1" M="$m" modules
}

# virt_initrd VARIANT: the initramfs of virt-VARIANT: /init and the module
virt_initrd() {
	b=$cache/kbuild/virt-$1
	${cross}gcc -std=gnu11 -static -O2 -Wall -Wextra -o "$b/lto-ld-init" "$top/tests/kernel/init-virt.c"
	cat > "$b/initrd.list" <<LIST
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
file /init $b/lto-ld-init 0755 0 0
file /lto_ld_test.ko $b/lto_ld_test/lto_ld_test.ko 0644 0 0
LIST
	"$b/usr/gen_init_cpio" "$b/initrd.list" > "$b/initrd.cpio"
}

# images TARGET VARIANT: build what QEMU boots (a configured tree)
images() {
	case $1 in
		mps2) kmake "$1" "$2" -j"$jobs" vmlinux arm/mps2-an385.dtb ;;
		virt) kmake "$1" "$2" -j"$jobs" vmlinux zImage modules
		      module "$2"
		      virt_initrd "$2" ;;
		*) kmake "$1" "$2" -j"$jobs" vmlinux ;;
	esac
}

# build TARGET VARIANT: configure, then build the images
build() {
	configure "$1" "$2"
	images "$1" "$2"
}

# boot TARGET VARIANT [ARGS [NAME]]: boot TARGET-VARIANT, keep the
# console in the build folder (console.log; with extra arguments
# console-NAME.log, console-fault.log by default)
boot() {
	b=$cache/kbuild/$1-$2
	log=$b/console.log
	[ -n "${3:-}${4:-}" ] && log=$b/console-${4:-fault}.log
	case $1 in
		mps2) "$top/tests/kernel/boot-mps2.sh" "$b/vmlinux" \
			"$b/arch/arm/boot/dts/arm/mps2-an385.dtb" "$log" 600 ;;
		virt) syms=$("$top/tests/kernel/parity.sh" symbols "$b/vmlinux" 6)
		      "$top/tests/kernel/boot-virt.sh" "$b/arch/arm/boot/zImage" \
			"$b/initrd.cpio" "$log" 600 "initramfs_async=0 ltoinit_syms=$syms ${3:-}" ;;
		*) echo "kernel: $1 is not booted" >&2; return 1 ;;
	esac
}

# The one-line edit a rebuild is measured with: the text of a notice
# init/main.c prints at every boot.
edit_text="Kernel command line (lto-ld edit): "

# edit_main: make the edit (init/main.c's original kept beside it)
edit_main() {
	m=$tree/init/main.c
	[ -f "$m.lto-ld-orig" ] || cp "$m" "$m.lto-ld-orig"
	sed "s/pr_notice(\"Kernel command line: /pr_notice(\"$edit_text/" "$m.lto-ld-orig" > "$m"
	grep -q "$edit_text" "$m" || { echo "kernel: $m: no notice to edit" >&2; return 1; }
}

# unedit_main: init/main.c as the series has it (a new time, so make sees it)
unedit_main() {
	m=$tree/init/main.c
	[ -f "$m.lto-ld-orig" ] || return 0
	cat "$m.lto-ld-orig" > "$m" && rm -f "$m.lto-ld-orig"
}

# ltrans_counts LOG: "HITS hits, MISSES misses" of the LTO cache of the
# last LTO link in LOG (lto-ld's verbose output)
ltrans_counts() {
	sed -n 's/^[^:]*: LTO cache .*: \([0-9]* hits, [0-9]* misses\).*/\1/p' "$1" | tail -1
}

# edit_rebuild TARGET VARIANT LABEL: after edit_main, rebuild the images
# of TARGET-VARIANT (lto-ld verbose, into edit.log; LABEL: time it too)
edit_rebuild() {
	log=$cache/kbuild/$1-$2/edit.log
	[ -n "$3" ] && run="/usr/bin/time -f $3,%e,%U,%S -a -o $times"
	LTO_LD_VERBOSE=1 kmake "$1" "$2" -j"$jobs" vmlinux 2> "$log" || {
		run=; cat "$log" >&2; return 1; }
	run=
	images "$1" "$2" 2>> "$log" || { cat "$log" >&2; return 1; }
}

# edit_boot TARGET: boot TARGET-lto as edit_rebuild left it; its console
# must have the edited notice
edit_boot() {
	boot "$1" lto "kunit.enable=0" edit || true
	if grep -q "$edit_text" "$cache/kbuild/$1-lto/console-edit.log"; then
		echo "kernel: $1-lto after the edit, LTRANS cache $(ltrans_counts "$cache/kbuild/$1-lto/edit.log"): the booted kernel prints the edited notice"
		return 0
	fi
	echo "kernel: $1-lto after the edit: the edited notice is not on its console (console-edit.log)" >&2
	return 1
}

# ikconfig_change TARGET LINE ARGS...: change TARGET-lto's .config with
# scripts/config ARGS, rebuild vmlinux with its in-tree LTO cache, and
# check that the config in the image (CONFIG_IKCONFIG: an .incbin that
# the IR only names) now has LINE
ikconfig_change() {
	t=$1 want=$2; shift 2
	b=$cache/kbuild/$t-lto
	"$tree/scripts/config" --file "$b/.config" "$@"
	kmake "$t" lto olddefconfig
	grep -qx "$want" "$b/.config" || {
		echo "kernel: $t-lto: '$want' did not reach .config" >&2; return 1; }
	LTO_LD_VERBOSE=1 kmake "$t" lto -j"$jobs" vmlinux 2> "$b/ikconfig.log" || {
		cat "$b/ikconfig.log" >&2; return 1; }
	if "$tree/scripts/extract-ikconfig" "$b/vmlinux" | grep -qx "$want"; then
		echo "kernel: $t-lto after '$want', LTRANS cache $(ltrans_counts "$b/ikconfig.log"): the image's config has it"
		return 0
	fi
	echo "kernel: $t-lto after '$want': the image's config (extract-ikconfig) does not have it: stale" >&2
	return 1
}

# ikconfig TARGET: two option changes, each rebuilt through the cache:
# one that changes no compiled code, and one that does (the version)
ikconfig() {
	r=ok stale=0
	ikconfig_change "$1" CONFIG_HEADERS_INSTALL=y --enable HEADERS_INSTALL || r=FAILED stale=1
	"$results" line "$r" "$1 ikconfig: CONFIG_HEADERS_INSTALL=y, rebuilt with the LTO cache, is in the image's config" >> "$lines"
	r=ok
	ikconfig_change "$1" 'CONFIG_LOCALVERSION="-lto-ld-ikconfig"' \
		--set-str LOCALVERSION -lto-ld-ikconfig || r=FAILED stale=1
	"$results" line "$r" "$1 ikconfig: CONFIG_LOCALVERSION changed, rebuilt with the LTO cache, is in the image's config" >> "$lines"
	[ $stale = 0 ]
}

# compare TARGET: the parity checks of TARGET-lto against TARGET-nolto;
# "NAME,RESULT" lines in parity-TARGET.csv, fails when one fails
compare() {
	ref=$cache/kbuild/$1-nolto cand=$cache/kbuild/$1-lto
	out=$cache/parity-$1.csv
	parity=$top/tests/kernel/parity.sh
	: > "$out"
	status=0
	# record NAME COMMAND...: run one check, keep its verdict and output
	record() {
		name=$1; shift
		if "$@" > "$cand/parity-$name.txt"; then
			echo "$name,ok" >> "$out"
		else
			echo "$name,FAILED" >> "$out"; status=1
		fi
		cat "$cand/parity-$name.txt"
	}
	record kunit "$parity" kunit "$ref/console.log" "$cand/console.log"
	record initcalls "$parity" initcalls "$ref/console.log" "$cand/console.log"
	record console "$top/tests/kernel/compare-console.sh" "$ref/console.log" "$cand/console.log"
	if [ "$1" = virt ]; then
		for v in nolto lto; do
			record "module-$v" "$parity" module "$cache/kbuild/$1-$v/console.log"
			record "kallsyms-$v" "$parity" kallsyms "$cache/kbuild/$1-$v/vmlinux" \
				"$cache/kbuild/$1-$v/console.log"
		done
		record kallsyms-size "$parity" kallsyms-size "$ref" "$cand"
	fi
	return $status
}

# parity TARGET: both variants built and booted, then compared
parity() {
	for v in nolto lto; do
		build "$1" $v
		boot "$1" $v || { echo "kernel: $1-$v did not run /init to its end (see its console.log)" >&2; return 1; }
	done
	compare "$1"
}

# faults: the virt LTO kernel booted without one initcall and with a
# module that fails its checks; the parity checks must report both
# ("NAME,RESULT" lines in faults.csv, as compare's)
faults() {
	b=$cache/kbuild/virt-lto ref=$cache/kbuild/virt-nolto/console.log
	parity=$top/tests/kernel/parity.sh
	skipped=proc_uptime_init
	: > "$cache/faults.csv"
	boot virt lto "initcall_blacklist=$skipped ltoinit_modparams=fault=1 kunit.enable=0" || true
	status=0 r=ok
	if "$parity" initcalls "$ref" "$b/console-fault.log" > /dev/null 2> "$b/fault-initcalls.txt" ||
		! grep -q "reference: $skipped " "$b/fault-initcalls.txt"; then
		echo "kernel: faults: the initcall check did not name $skipped:" >&2
		status=1 r=FAILED
	fi
	echo "initcall left out caught,$r" >> "$cache/faults.csv"
	sed "s/^/kernel: faults: expected: /" "$b/fault-initcalls.txt"
	r=ok
	if "$parity" module "$b/console-fault.log" > /dev/null 2> "$b/fault-module.txt" ||
		! grep -q 'int_sqrt: got' "$b/fault-module.txt"; then
		echo "kernel: faults: the module check did not report the failed check:" >&2
		status=1 r=FAILED
	fi
	echo "failing module caught,$r" >> "$cache/faults.csv"
	sed "s/^/kernel: faults: expected: /" "$b/fault-module.txt"
	[ $status = 0 ] && echo "kernel: faults: both broken states caught"
	return $status
}

# kunit_py VARIANT: the kernel's own KUnit runner for ARM (QEMU virt)
# with the project's suites; the lto variant adds the LTO options
kunit_py() {
	set -- run --arch=arm --cross_compile="$cross" --build_dir="$cache/kbuild/kunit-$1" \
		--kunitconfig="$configs/kunit.config" --jobs="$jobs" --timeout=900 \
		--make_options "CC=$kernel_cc" $([ "$1" = lto ] &&
		echo "--make_options LD=${cross}lto-ld --kconfig_add CONFIG_LTO_GCC=y")
	PATH=$cache/bin:$PATH "$tree/tools/testing/kunit/kunit.py" "$@"
}

# parity_value TARGET NAME: the verdict of one parity check of TARGET
parity_value() {
	awk -F, -v k="$2" '$1 == k {print $2}' "$cache/parity-$1.csv"
}

# parity_text TARGET NAME SED-SCRIPT: a figure from one check's output
parity_text() {
	sed -n "$3" "$cache/kbuild/$1-lto/parity-$2.txt" 2>/dev/null | paste -sd/ -
}

# parity_kunit TARGET WHICH: "P of T" KUnit tests of the reference or
# the candidate kernel
parity_kunit() {
	parity_text "$1" kunit "s/^parity: kunit: $2: [0-9]* suites, \([0-9]*\) tests: \([0-9]*\) passed.*/\2 of \1/p"
}

# parity_table TARGETS: the markdown parity table from the checks' outputs
parity_table() {
	echo "| target | KUnit tests passed without LTO | with LTO | initcalls | console | module loaded (virt) | kallsyms lookups right (virt) | kallsyms bytes/symbol (virt) | verdict |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for t in "$@"; do
		ic=$(parity_text "$t" initcalls 's/^parity: initcalls: \([0-9]*\) initcalls, same.*/\1, same order/p')
		mod= ks= kb=
		if [ "$t" = virt ]; then
			mod="$(parity_value virt module-nolto) / $(parity_value virt module-lto)"
			ks="$(parity_text virt kallsyms-nolto 's/^parity: kallsyms: \([0-9]*\) lookups.*/\1/p') / $(parity_text virt kallsyms-lto 's/^parity: kallsyms: \([0-9]*\) lookups.*/\1/p')"
			kb=$(parity_text virt kallsyms-size 's/.*reference \([0-9]*\) symbols, table \([0-9.]*\) bytes each, names \([0-9.]*\); candidate \([0-9]*\) symbols, table \([0-9.]*\) bytes each, names \([0-9.]*\)/table \2 \/ \5, names \3 \/ \6 (\1 \/ \4 symbols)/p')
		fi
		verdict=same
		grep -q FAILED "$cache/parity-$t.csv" && verdict=DIFFERENT
		echo "| $t | $(parity_kunit "$t" reference) | $(parity_kunit "$t" candidate) | ${ic:-$(parity_value "$t" initcalls)} | $(parity_value "$t" console) | $mod | $ks | $kb | $verdict |"
	done
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

# targets_booted TARGETS: those of TARGETS that QEMU boots
targets_booted() {
	for t in "$@"; do
		case $t in mps2|virt) echo "$t" ;; esac
	done
}

# measure TARGET: clean builds (LTO with and without its LTRANS cache),
# rebuilds after touching and after editing init/main.c, side by side;
# then, for a target QEMU boots, the edited LTO kernel's boot and the
# parity checks
measure() {
	rm -rf "$cache/kbuild/$1-nolto"
	configure "$1" nolto
	timed "$1-nolto-build" "$1" nolto -j"$jobs" vmlinux
	# without the cache first: the cached build then starts with none
	rm -rf "$cache/kbuild/$1-lto"
	configure "$1" lto
	export LTO_LD_CACHE=
	timed "$1-lto-nocache-build" "$1" lto -j"$jobs" vmlinux
	unset LTO_LD_CACHE
	mv "$cache/kbuild/$1-lto/vmlinux" "$cache/kbuild/$1-lto-nocache.vmlinux"
	rm -rf "$cache/kbuild/$1-lto"
	configure "$1" lto
	timed "$1-lto-build" "$1" lto -j"$jobs" vmlinux
	# two clean builds of one tree, with and without the cache
	if cmp -s "$cache/kbuild/$1-lto-nocache.vmlinux" "$cache/kbuild/$1-lto/vmlinux"; then
		echo "$1-lto-reproducible,bit-identical" >> "$times"
	else
		echo "$1-lto-reproducible,DIFFERENT" >> "$times"
	fi
	rm -f "$cache/kbuild/$1-lto-nocache.vmlinux"
	for v in nolto lto; do
		touch "$tree/init/main.c"
		timed "$1-$v-rebuild" "$1" "$v" -j"$jobs" vmlinux
	done
	edit_main
	for v in nolto lto; do
		edit_rebuild "$1" "$v" "$1-$v-edit"
	done
	echo "$1-lto-edit-ltrans,$(ltrans_counts "$cache/kbuild/$1-lto/edit.log")" >> "$times"
	if [ -n "$(targets_booted "$1")" ]; then
		if edit_boot "$1"; then echo "$1-lto-edit-boot,edited notice printed" >> "$times"
		else echo "$1-lto-edit-boot,FAILED" >> "$times"; fi
	fi
	unedit_main
	[ -n "$(targets_booted "$1")" ] || return 0
	for v in nolto lto; do
		images "$1" $v
		if boot "$1" $v; then echo "$1-$v-boot,userspace /init ran" >> "$times"
		else echo "$1-$v-boot,FAILED" >> "$times"; fi
	done
	compare "$1" || echo "$1-parity,FAILED" >> "$times"
}

# table TARGETS: the markdown results table from $times and the sizes
table() {
	echo "| target | build | text | data | bss | dec | full build wall (CPU) | rebuild after touch init/main.c | rebuild after a one-line edit of init/main.c | boot (QEMU) |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	for t in "$@"; do
		for v in nolto lto; do
			set -- $(size_of "$t" $v)
			b=$(awk -F, -v k="$t-$v-build" '$1 == k {printf "%.0f s (%.0f s)", $2, $3 + $4}' "$times")
			r=$(awk -F, -v k="$t-$v-rebuild" '$1 == k {printf "%.1f s", $2}' "$times")
			e=$(awk -F, -v k="$t-$v-edit" '$1 == k {printf "%.1f s", $2}' "$times")
			boot=$(awk -F, -v k="$t-$v-boot" '$1 == k {print $2}' "$times")
			if [ $v = lto ]; then
				e="$e (LTRANS cache: $(awk -F, -v k="$t-lto-edit-ltrans" '$1 == k {print $2}' "$times"))"
				eb=$(awk -F, -v k="$t-lto-edit-boot" '$1 == k {print $2}' "$times")
				[ -n "$eb" ] && boot="$boot; edited kernel: $eb"
			fi
			echo "| $t | $v | $1 | $2 | $3 | $4 | $b | $r | $e | ${boot:-not booted} |"
			eval "${v}_dec=$4"
		done
		awk -F, -v t="$t" -v a="$nolto_dec" -v b="$lto_dec" -f - "$times" <<'AWK'
$1 == t "-nolto-build" { nb = $2; nc = $3 + $4 }
$1 == t "-lto-build" { lb = $2; lc = $3 + $4 }
$1 == t "-lto-nocache-build" { ub = $2; uc = $3 + $4 }
$1 == t "-lto-reproducible" { same = $2 }
$1 == t "-nolto-rebuild" { nr = $2 }
$1 == t "-lto-rebuild" { lr = $2 }
$1 == t "-nolto-edit" { ne = $2 }
$1 == t "-lto-edit" { le = $2 }
END {
	printf "| %s | LTO vs no LTO | | | | %+.1f%% | %.2fx wall, %.2fx CPU | %.1fx | %.1fx | |\n", t, (b - a) * 100 / a, lb / nb, lc / nc, lr / nr, le / ne
	printf "| %s | LTO, full build with an empty LTRANS cache vs none (%.0f s, %.0f s CPU); vmlinux of the two: %s | | | | | %+.1f%% wall, %+.1f%% CPU | | | |\n", t, ub, uc, same, (lb - ub) * 100 / ub, (lc - uc) * 100 / uc
}
AWK
	done
	echo "| stm32 (2018 article, v4.15, GCC 6.3) | LTO vs no LTO | | | | -21.8% | 2.3x wall, 1.9x CPU | 15.8x | | |"
}

# size_row TARGET: the sizes of the three variants of TARGET, a table row
size_row() {
	set -- "$1" $(size_of "$1" nolto) $(size_of "$1" ltoplain) $(size_of "$1" lto)
	awk -v t="$1" -v nt="$2" -v nd="$5" -v pt="$6" -v pd="$9" -v wt="${10}" -v wd="${13}" 'BEGIN {
		printf "| %s | %d / %d | %d / %d (%+.1f%% / %+.1f%%) | %d / %d (%+.1f%% / %+.1f%%) |\n",
			t, nt, nd, pt, pd, (pt - nt) * 100 / nt, (pd - nd) * 100 / nd,
			wt, wd, (wt - nt) * 100 / nt, (wd - nd) * 100 / nd }'
}

# sizes TARGETS: build no LTO, plain ld -r LTO and whole-program LTO of
# each target; the size table (text / dec of vmlinux)
sizes() {
	[ $# -gt 0 ] || set -- mps2 virt stm32
	for t in "$@"; do
		for v in nolto ltoplain lto; do
			configure "$t" "$v"
			kmake "$t" "$v" -j"$jobs" vmlinux
		done
	done
	{
		echo "| target | no LTO: text / dec | LTO, plain ld -r vmlinux.o | LTO, whole-program vmlinux.o |"
		echo "|---|---|---|---|"
		for t in "$@"; do size_row "$t"; done
		echo "| stm32 (2018 article, v4.15, GCC 6.3) | | | dec -21.8% |"
		echo
		echo "Measured $(date -u +%Y-%m-%d) by \`scripts/kernel.sh LTO_LD sizes $*\` (\`size\` of vmlinux, bytes)."
	} > "$cache/sizes.md"
	cat "$cache/sizes.md"
	readme_table kernel-sizes "$cache/sizes.md"
}

# link_cost TARGET VARIANT: "WALL s, PEAK MiB" of relinking from vmlinux.o
# on (for an LTO variant, the LTO step; peak: the largest process), with
# no LTRANS cache: a cached link would measure the cache, not the lever
link_cost() {
	out=$cache/kbuild/$1-$2/link-cost.txt
	rm -f "$cache/kbuild/$1-$2/vmlinux.o"
	run="/usr/bin/time -f %e,%M -o $out"
	kmake "$1" "$2" -j"$jobs" LTO_LD_CACHE= vmlinux
	run=
	awk -F, '{ printf "%.0f s, %.0f MiB", $1, $2 / 1024 }' "$out"
}

# pct NEW OLD: NEW against OLD in percent, signed
pct() { awk -v n="$1" -v o="$2" 'BEGIN { printf "%+.1f%%", (n - o) * 100 / o }'; }

# dec TARGET VARIANT: the "size" dec of its vmlinux
dec() { size_of "$1" "$2" | cut -d' ' -f4; }

# lever_variants LEVER: the variants a lever is measured with
lever_variants() {
	case $1 in
		weak) echo lto-weak ;;
		one) echo lto-one ;;
		gc|sra|partial|stack) echo "nolto-$1 lto-$1" ;;
		*) echo "kernel: unknown lever '$1' (weak, one, gc, sra, partial, stack)" >&2; return 1 ;;
	esac
}

# lever_row TARGET LEVER: its row of the levers table, if it was measured
lever_row() {
	b=$cache/kbuild/$1
	n=$(dec "$1" nolto) l=$(dec "$1" lto)
	case $2 in
	gc|sra|partial|stack)
		[ -f "$b-lto-$2/link-cost.md" ] || return 0
		ng=$(dec "$1" "nolto-$2") lg=$(dec "$1" "lto-$2")
		case $2 in
			gc) what="gc-sections (\`LD_DEAD_CODE_DATA_ELIMINATION\`)" ;;
			sra) what="IPA-SRA (\`-fipa-sra\`; arch/arm turns it off for GCC PR65932)" ;;
			partial) what="no partial inlining (\`-fno-partial-inlining\`)" ;;
			stack) what="inlining not held back by stack growth (\`-fno-conserve-stack\`)" ;;
		esac
		echo "| $what | $ng ($(pct "$ng" "$n")) | $lg ($(pct "$lg" "$n"); $(pct "$lg" "$l") against LTO) | $(cat "$b-lto-$2/link-cost.md") |" ;;
	one|weak)
		v=lto-$2
		[ -f "$b-$v/link-cost.md" ] || return 0
		d=$(dec "$1" "$v")
		what="\`-flto-partition=one\`"
		[ "$2" = weak ] && what="weak definitions internalized (\`--lto-final-weak\`)"
		echo "| $what | | $d ($(pct "$d" "$n"); $(pct "$d" "$l") against LTO) | $(cat "$b-$v/link-cost.md") |" ;;
	esac
}

# levers TARGET [LEVERS]: each lever (weak, one, gc, sra, partial, stack;
# default all) built on TARGET beside what it changes: gc-sections and
# the compiler flags without and with LTO, one LTO partition and
# internalized weak definitions against the LTO build as configured; the
# table of sizes (dec) and link costs holds every lever measured so far
levers() {
	t=$1; shift
	[ $# -gt 0 ] || set -- weak one gc sra partial stack
	measured="$*"
	variants="nolto lto"
	for l in "$@"; do variants="$variants $(lever_variants "$l")"; done
	for v in $variants; do
		configure "$t" "$v"
		kmake "$t" "$v" -j"$jobs" vmlinux
		case $v in lto*) link_cost "$t" "$v" > "$cache/kbuild/$t-$v/link-cost.md" ;; esac
	done
	n=$(dec "$t" nolto) l=$(dec "$t" lto)
	{
		echo "| $t | no LTO: dec | LTO (whole-program): dec | LTO: vmlinux.o link and after (wall, peak RSS) |"
		echo "|---|---|---|---|"
		echo "| as configured | $n | $l ($(pct "$l" "$n")) | $(cat "$cache/kbuild/$t-lto/link-cost.md") |"
		for l in weak one gc sra partial stack; do lever_row "$t" "$l"; done
		echo
		echo "Measured $(date -u +%Y-%m-%d) by \`scripts/kernel.sh LTO_LD levers $t $measured\` (\`size\` dec of vmlinux, bytes; $(nproc) cores, kernel compiles through ccache, the \`vmlinux.o\` links without the LTRANS cache)."
	} > "$cache/levers-$t.md"
	cat "$cache/levers-$t.md"
	readme_table "kernel-levers-$t" "$cache/levers-$t.md"
}

# edit_nth N: the one-line edit of init/main.c, numbered N, so that each
# rebuild compiles new IR (neither cache may answer it whole)
edit_nth() {
	edit_main
	sed -i "s/(lto-ld edit)/(lto-ld edit $1)/" "$tree/init/main.c"
}

# median: the middle one of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# edit_levers TARGET [LEVERS]: the rebuild after a one-line edit of
# init/main.c, without LTO, with LTO as configured and with each lever
# that makes WPA cheaper (zstd1: IR written at zstd level 1 instead of
# GCC's 3; ggc: WPA's garbage collector held back up to a 1 GiB heap;
# icf: WPA without identical code folding),
# each built beside the others (compiles through ccache) and then edited
# ROUNDS (3) times in turns; the table of edit times (median), sizes and
# the peak memory of the rebuild
edit_levers() {
	t=$1; shift
	[ $# -gt 0 ] || set -- zstd1 ggc icf
	measured="$*" variants="nolto lto" rounds=${ROUNDS:-3}
	for l in "$@"; do variants="$variants lto-$l"; done
	for v in $variants; do
		configure "$t" "$v"
		kmake "$t" "$v" -j"$jobs" vmlinux
		: > "$cache/kbuild/$t-$v/edit-times.txt"
	done
	for n in $(seq 1 "$rounds"); do
		edit_nth "$n"
		for v in $variants; do
			run="/usr/bin/time -f %e,%M -a -o $cache/kbuild/$t-$v/edit-times.txt"
			kmake "$t" "$v" -j"$jobs" vmlinux || { run=; unedit_main; return 1; }
			run=
		done
	done
	unedit_main
	n=$(dec "$t" nolto) l=$(dec "$t" lto)
	nt=$(cut -d, -f1 "$cache/kbuild/$t-nolto/edit-times.txt" | median)
	{
		echo "| $t, rebuild after a one-line edit of init/main.c | wall (median of $rounds) | against no LTO | dec | peak RSS of the rebuild |"
		echo "|---|---|---|---|---|"
		for v in $variants; do
			f=$cache/kbuild/$t-$v/edit-times.txt
			w=$(cut -d, -f1 "$f" | median)
			m=$(cut -d, -f2 "$f" | sort -n | tail -1)
			d=$(dec "$t" "$v")
			case $v in
				nolto) what="no LTO" ;;
				lto) what="LTO as configured" ;;
				lto-zstd1) what="IR at zstd level 1 (\`-flto-compression-level=1\`, compile and link)" ;;
				lto-ggc) what="WPA's garbage collector from a 1 GiB heap (\`--param=ggc-min-heapsize=1048576\`)" ;;
				lto-icf) what="WPA without identical code folding (\`-fno-ipa-icf\`)" ;;
			esac
			ratio=$(awk -v a="$w" -v b="$nt" 'BEGIN { printf "%.2fx", a / b }')
			size="$d"
			[ "$v" = nolto ] || size="$d ($(pct "$d" "$n"); $(pct "$d" "$l") against LTO)"
			echo "| $what | $w s | $ratio | $size | $(awk -v k="$m" 'BEGIN { printf "%.0f MiB", k / 1024 }') |"
		done
		echo
		echo "Measured $(date -u +%Y-%m-%d) by \`scripts/kernel.sh LTO_LD edit-levers $t $measured\` ($(nproc) cores; builds through ccache, then $rounds edits, each rebuilt in every folder in turn with its LTRANS cache; \`size\` dec of vmlinux, bytes)."
	} > "$cache/edit-levers-$t.md"
	cat "$cache/edit-levers-$t.md"
	readme_table "kernel-edit-levers-$t" "$cache/edit-levers-$t.md"
}

# sizediff TARGET: lto-sizediff of TARGET-nolto and TARGET-lto with the
# LTO report of TARGET-lto's vmlinux.o (relinked for it, then vmlinux
# from it), in TARGET-lto's folder: sizediff.txt, sizediff.json and
# sizediff.html (the treemap page, every change in its table); the
# keep-reason table into the README
sizediff() {
	t=$1 kb=$cache/kbuild
	out=$kb/$t-lto report=$t-lto/lto-report.json
	set --
	for b in "$t-nolto" "$t-lto"; do
		for a in vmlinux.a lib/lib.a arch/arm/lib/lib.a; do
			[ -f "$kb/$b/$a" ] && set -- "$@" --objects="$b/$a"
		done
	done
	# the report of the vmlinux.o link alone (later links would replace
	# it), in JSON for the join
	rm -f "$out/vmlinux.o" "$kb/$report"
	LTO_LD_REPORT=$kb/$report kmake "$t" lto -j"$jobs" vmlinux_o
	kmake "$t" lto -j"$jobs" vmlinux
	# paths from kbuild/: the tables name stm32-lto/vmlinux, not this machine's folders
	set -- "$@" --report="$report" "$t-nolto/vmlinux" "$t-lto/vmlinux"
	status=0
	(cd "$kb" && "$bin/${cross}lto-sizediff" --top=15 "$@") \
		> "$out/sizediff.txt" 2> "$out/sizediff.err" || status=$?
	# (nm's "no symbols" for objects that define nothing is noise here)
	grep -v ': no symbols$' "$out/sizediff.err" >&2 || true
	if [ "$status" -ne 0 ]; then
		echo "kernel: lto-sizediff failed (exit $status)" >&2
		return 1
	fi
	if ! (cd "$kb" && "$bin/${cross}lto-sizediff" --json --top=0 \
		--html="$out/sizediff.html" "$@") 2> "$out/sizediff-json.err" > "$out/sizediff.json"; then
		grep -v ': no symbols$' "$out/sizediff-json.err" >&2
		echo "kernel: lto-sizediff --json --html failed" >&2
		return 1
	fi
	cat "$out/sizediff.txt"
	echo "kernel: the treemap page: $out/sizediff.html"
	{
		echo '```'
		sed -n '/^by keep reason/,$p' "$out/sizediff.txt"
		echo '```'
		echo
		echo "Measured $(date -u +%Y-%m-%d) by \`scripts/kernel.sh LTO_LD sizediff $t\` (the LTO image's sized symbols, \`nm -S\`)."
	} > "$cache/keep-reasons-$t.md"
	readme_table "keep-reasons-$t" "$cache/keep-reasons-$t.md"
}

# readme_table NAME FILE: put FILE between the NAME markers of docs/results.md
readme_table() {
	awk -v table="$2" -v begin="<!-- $1 -->" -v end="<!-- /$1 -->" '
		$0 == begin { print; while ((getline line < table) > 0) print line; skip = 1; next }
		$0 == end { skip = 0 }
		!skip { print }' "$top/docs/results.md" > "$top/docs/results.md.tmp" &&
	mv "$top/docs/results.md.tmp" "$top/docs/results.md"
}

# check: parity of mps2 and virt, the fault checks, virt's edit and
# option changes rebuilt through the cache, the parity table;
# one TAP result per check in kernel-check.log (tests/kernel/results.sh)
check() {
	# (not "status": the functions it calls set that one)
	failed=0
	results=$top/tests/kernel/results.sh lines=$cache/kernel-check.results
	: > "$lines"
	rm -f "$cache/kernel-check.log" "$cache/faults.csv"
	for t in mps2 virt; do
		rm -f "$cache/parity-$t.csv"
		parity "$t" || failed=1
		"$results" csv "$t" "$cache/parity-$t.csv" >> "$lines"
	done
	faults || failed=1
	"$results" csv "virt faults:" "$cache/faults.csv" >> "$lines"
	# a real edit, rebuilt with the LTRANS cache and booted
	if edit_main && edit_rebuild virt lto "" && edit_boot virt; then r=ok; else failed=1 r=FAILED; fi
	"$results" line "$r" "virt edit: rebuilt with the LTRANS cache, booted" >> "$lines"
	unedit_main
	# the image's copy of .config follows option changes through the cache
	ikconfig virt || failed=1
	"$results" tap < "$lines" > "$cache/kernel-check.log"
	cat "$cache/kernel-check.log"
	parity_table mps2 virt | tee "$cache/parity.md"
	return $failed
}

# suite TARGETS: measure every target, then print the tables and put them in the README
suite() {
	[ $# -gt 0 ] || set -- mps2 virt stm32
	times=$cache/times.txt
	: > "$times"
	for t in "$@"; do measure "$t"; done
	{
		table "$@"
		echo
		echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores, kernel compiles without ccache, by \`scripts/kernel.sh LTO_LD suite $*\`."
	} > "$cache/results.md"
	parity_table $(targets_booted "$@") > "$cache/parity.md"
	cat "$cache/results.md" "$cache/parity.md"
	readme_table kernel-results "$cache/results.md"
	readme_table kernel-parity "$cache/parity.md"
	grep -q 'FAILED\|DIFFERENT' "$times" && return 1
	return 0
}

prepare_tree
# (a run stopped between edit_main and unedit_main left the edit)
unedit_main
trap unedit_main EXIT
tool_dir
case ${1:-} in
	tree) echo "$tree" ;;
	build) build "$2" "$3" ;;
	boot) shift; boot "$@" ;;
	parity) parity "$2" ;;
	faults) faults ;;
	check) check ;;
	kunit-py) kunit_py "$2" ;;
	sizes) shift; sizes "$@" ;;
	levers) shift; levers "$@" ;;
	sizediff) sizediff "$2" ;;
	edit-levers) shift; edit_levers "$@" ;;
	suite) shift; suite "$@" ;;
	*) echo "usage: $0 LTO_LD tree|build TARGET VARIANT|boot TARGET VARIANT [ARGS]|parity TARGET|faults|check|kunit-py VARIANT|sizes [TARGETS]|levers TARGET [LEVERS]|sizediff TARGET|edit-levers TARGET [LEVERS]|suite [TARGETS]" >&2
	   exit 2 ;;
esac
