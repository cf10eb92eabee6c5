# scripts/kernel.sh's builds and boots: the images QEMU boots and their
# userspace (initramfs, the test module), the boot of a target, and the
# one-line edit of init/main.c that a rebuild is checked and timed with.
# Sourced by scripts/kernel.sh.

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

# module TARGET VARIANT: the test module, built against TARGET-VARIANT
# (a virt) like any out-of-tree module (its ld -r is an LTO link in the
# lto variant)
module() {
	m=$cache/kbuild/$1-$2/lto_ld_test
	rm -rf "$m"
	mkdir -p "$m"
	cp "$top"/tests/kernel/module/* "$m/"
	kmake "$1" "$2" M="$m" modules
}

# module_files TARGET VARIANT: the in-tree modules TARGET-VARIANT built;
# of multi_v7's hundreds, modules.config's three KUnit suites (/init
# loads each with insmod, which does not load what a module needs first)
module_files() {
	sed "s|^|$cache/kbuild/$1-$2/|; s|\.o\$|.ko|" "$cache/kbuild/$1-$2/modules.order" |
		case $(board "$1") in
			multi_v7) grep -E '/(test_linear_ranges|test_bits|is_signed_type_kunit)\.ko$' ;;
			*) cat ;;
		esac
}

# initrd TARGET VARIANT MODULE...: the initramfs of TARGET-VARIANT: the
# project's /init, and each MODULE (a .ko) at the top
initrd() {
	b=$cache/kbuild/$1-$2
	target_env "$1"
	shift 2
	${cross}gcc -std=gnu11 -static -O2 -Wall -Wextra -o "$b/lto-ld-init" "$top/tests/kernel/init-virt.c"
	{
		cat <<LIST
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
file /init $b/lto-ld-init 0755 0 0
LIST
		for m; do echo "file /$(basename "$m") $m 0644 0 0"; done
	} > "$b/initrd.list"
	"$b/usr/gen_init_cpio" "$b/initrd.list" > "$b/initrd.cpio"
}

# objtool_logged TARGET VARIANT ARGS...: kmake, keeping its messages in
# objtool.log when it linked vmlinux.o again (objtool runs on it there,
# and on the modules it links: the parity check reads its warnings)
objtool_logged() {
	b=$cache/kbuild/$1-$2
	before=$(stat -c %.9Y "$b/vmlinux.o" 2>/dev/null || echo none)
	kmake "$@" 2> "$b/make.log" || { cat "$b/make.log" >&2; return 1; }
	cat "$b/make.log" >&2
	[ "$(stat -c %.9Y "$b/vmlinux.o")" = "$before" ] || cp "$b/make.log" "$b/objtool.log"
}

# images TARGET VARIANT: build what QEMU boots (a configured tree)
images() {
	case $(board "$1") in
		mps2) kmake "$1" "$2" -j"$jobs" vmlinux arm/mps2-an385.dtb ;;
		virt) kmake "$1" "$2" -j"$jobs" vmlinux zImage modules
		      module "$1" "$2"
		      initrd "$1" "$2" "$cache/kbuild/$1-$2/lto_ld_test/lto_ld_test.ko" ;;
		vexpress) kmake "$1" "$2" -j"$jobs" vmlinux zImage modules arm/vexpress-v2p-ca9.dtb
		      initrd "$1" "$2" $(module_files "$1" "$2") ;;
		multi_v7) kmake "$1" "$2" -j"$jobs" vmlinux zImage modules
		      initrd "$1" "$2" $(module_files "$1" "$2") ;;
		x86_64) objtool_logged "$1" "$2" -j"$jobs" vmlinux bzImage modules
		      initrd "$1" "$2" $(module_files "$1" "$2") ;;
		*) kmake "$1" "$2" -j"$jobs" vmlinux ;;
	esac
}

# image_of TARGET VARIANT: the compressed image the boot loads
image_of() {
	case $(board "$1") in
		x86_64) echo "$cache/kbuild/$1-$2/arch/x86/boot/bzImage" ;;
		*) echo "$cache/kbuild/$1-$2/arch/arm/boot/zImage" ;;
	esac
}

# build TARGET VARIANT: configure, then build the images
build() {
	configure "$1" "$2"
	images "$1" "$2"
}

# modules_args TARGET VARIANT: the arguments of a defconfig target's boot:
# /init loads its modules, checks kallsyms and sums /proc/config.gz
modules_args() {
	syms=$("$top/tests/kernel/parity.sh" symbols "$cache/kbuild/$1-$2/vmlinux" 6)
	mods=$(module_files "$1" "$2" | sed 's|.*/|/|' | paste -sd, -)
	echo "initramfs_async=0 ltoinit_syms=$syms ltoinit_module=$mods ltoinit_cksum=/proc/config.gz"
}

# boot TARGET VARIANT [ARGS [NAME]]: boot TARGET-VARIANT, keep the
# console in the build folder (console.log; with extra arguments
# console-NAME.log, console-fault.log by default)
boot() {
	b=$cache/kbuild/$1-$2
	target_env "$1"
	log=$b/console.log
	[ -n "${3:-}${4:-}" ] && log=$b/console-${4:-fault}.log
	case $(board "$1") in
		mps2) "$top/tests/kernel/boot-mps2.sh" "$b/vmlinux" \
			"$b/arch/arm/boot/dts/arm/mps2-an385.dtb" "$log" 600 ;;
		virt) syms=$("$top/tests/kernel/parity.sh" symbols "$b/vmlinux" 6)
		      "$top/tests/kernel/boot-virt.sh" "$b/arch/arm/boot/zImage" \
			"$b/initrd.cpio" "$log" 600 "initramfs_async=0 ltoinit_syms=$syms ${3:-}" ;;
		vexpress) "$top/tests/kernel/boot-vexpress.sh" "$b/arch/arm/boot/zImage" \
			"$b/arch/arm/boot/dts/arm/vexpress-v2p-ca9.dtb" "$b/initrd.cpio" "$log" 600 \
			"$(modules_args "$1" "$2") ${3:-}" ;;
		multi_v7) "$top/tests/kernel/boot-virt.sh" "$b/arch/arm/boot/zImage" \
			"$b/initrd.cpio" "$log" 600 "$(modules_args "$1" "$2") ${3:-}" ;;
		x86_64) "$top/tests/kernel/boot-x86_64.sh" "$(image_of "$1" "$2")" \
			"$b/initrd.cpio" "$log" 600 "$(modules_args "$1" "$2") ${3:-}" ;;
		*) echo "kernel: $1 is not booted" >&2; return 1 ;;
	esac
}

# targets_booted TARGETS: those of TARGETS that QEMU boots
targets_booted() {
	for t in "$@"; do
		case $(board "$t") in mps2|virt|vexpress|x86_64|multi_v7) echo "$t" ;; esac
	done
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

# edit_nth N: the one-line edit of init/main.c, numbered N, so that each
# rebuild compiles new IR (neither cache may answer it whole)
edit_nth() {
	edit_main
	sed -i "s/(lto-ld edit)/(lto-ld edit $1)/" "$tree/init/main.c"
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
