# scripts/kernel.sh's tree: the patched linux-source-6.12, the folder of
# prefixed lto-ld names, make in a build folder (kmake) and the
# configuration of a build folder (base config, the project's fragments,
# the compiler plugin it was built with). Sourced by scripts/kernel.sh.

tarball=/usr/src/linux-source-6.12.tar.xz
series_dir=$top/kernel-patches/6.12

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

# tool_dir: a folder with the lto-ld names the builds use, prefixed for
# ARM, plain for x86_64 (the host's own gcc)
tool_dir() {
	bin=$cache/bin
	mkdir -p "$bin"
	for p in arm-linux-gnueabihf- ''; do
		for n in lto-ld lto-nm lto-ar; do ln -sf "$lto_ld" "$bin/$p$n"; done
		ln -sf "$(dirname "$lto_ld")/lto-sizediff" "$bin/${p}lto-sizediff"
	done
}

# target_env TARGET: the kernel architecture ($arch), the tool prefix
# ($cross) and the compiler ($kernel_cc: KERNEL_CC_LAUNCHER, such as
# ccache, in front; KERNEL_CC replaces ARM's) that TARGET builds with
target_env() {
	case $(board "$1") in
		x86_64) arch=x86_64 cross= kernel_cc=gcc ;;
		*) arch=arm cross=arm-linux-gnueabihf- kernel_cc=${KERNEL_CC:-arm-linux-gnueabihf-gcc} ;;
	esac
	kernel_cc="${KERNEL_CC_LAUNCHER:+$KERNEL_CC_LAUNCHER }$kernel_cc"
	# (tests/kernel/parity.sh's nm and size)
	export CROSS="$cross"
}

# kmake TARGET VARIANT ARGS...: make in the build folder of TARGET-VARIANT.
# Under CCACHE_BASEDIR ccache hands gcc the sources as paths relative to
# the build folder (../../linux-6.12/...), which kbuild's
# -fmacro-prefix-map=$(srctree)/= does not match: __FILE__ would carry
# them into the image (stm32: 5 KB of .rodata), so that prefix is mapped too.
kmake() {
	t=$1 v=$2; shift 2
	o=$cache/kbuild/$t-$v
	target_env "$t"
	cc=$kernel_cc
	# Clang's peers: all of LLVM's tools (clang, ld.lld, llvm-ar...), as
	# LLVM=1 gives, from $llvm; Clang's own LTO
	case $v in clang*) cc="${KERNEL_CC_LAUNCHER:+$KERNEL_CC_LAUNCHER }${llvm}clang"; set -- LLVM="$llvm" "$@" ;; esac
	set -- O="$o" ARCH=$arch CROSS_COMPILE=$cross CC="$cc" \
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
# (Clang's peers: Debian 12's clang 16, since its default clang, 14, has
# no -mfunction-return=thunk-extern: under it x86_64_defconfig resolves
# without return thunks and the mitigations that need them, another
# kernel than GCC's)
llvm=/usr/lib/llvm-16/bin/

configs=$top/tests/kernel/configs

# board TARGET: the machine TARGET is built for and booted on (a target
# named BOARD-SOMETHING is a configuration of BOARD: virt-thumb2)
board() { echo "${1%%-*}"; }

# base_config TARGET: the kernel's config target the build starts from
base_config() {
	case $1 in
		virt*|*-tiny) echo tinyconfig ;;
		*) echo "$(board "$1")_defconfig" ;;
	esac
}

# fragments TARGET VARIANT: the project's config fragments for TARGET
fragments() {
	case $1 in
		mps2) echo "$configs/kunit.config $configs/mps2.config" ;;
		virt) echo "$configs/virt.config $configs/kunit.config" ;;
		virt-thumb2) echo "$configs/virt.config $configs/kunit.config $configs/thumb2.config" ;;
		vexpress|x86_64|multi_v7) echo "$configs/kunit.config $configs/modules.config" ;;
		x86_64-tiny) echo "$configs/x86_64-tiny.config $configs/kunit.config $configs/modules.config $configs/trim.config" ;;
		vexpress-small) echo "$configs/kunit.config $configs/modules.config $configs/thumb2.config $configs/trim.config" ;;
	esac
	case $2 in
		lto|lto-one|lto-weak|lto-sra|lto-partial|lto-stack|lto-zstd1|lto-ggc|lto-icf) echo "$configs/lto.config" ;;
		lto-trim) echo "$configs/lto.config $configs/trim.config" ;;
		clang-thin) echo "$configs/clang-thin.config" ;;
		clang-full) echo "$configs/clang-full.config" ;;
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
	if [ "$(board "$1")" = virt ]; then
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
	# (any object: a build that stopped before vmlinux.a left some too;
	# not the host programs of scripts/, which configure builds)
	if [ -n "$(find "$b" -path "$b/scripts" -prune -o -name '*.o' -print -quit)" ]; then
		echo "kernel: $1-$2: built with another compiler plugin: make clean" >&2
		kmake "$1" "$2" clean
	fi
	echo "$sum" > "$b/.lto-ld-cc-plugin"
}
