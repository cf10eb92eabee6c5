#!/bin/sh
# Whole-object semantics: a thin archive written by `lto-ld -r` is linked
# as if its members were listed as objects, so a member that only holds a
# constructor, an initcall-style table entry or a `used` variable survives.
# The programs are run (ARM ones under qemu-arm), and a control link with
# plain ld shows that the same thin archive loses those members.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

cat > main.c <<'C'
extern int ctor_ran;
typedef int (*initcall_t)(void);
extern const initcall_t __start_myinit[], __stop_myinit[];
extern const char __start_mytags[], __stop_mytags[];
int main(void)
{
	int sum = 0;
	for (const initcall_t *f = __start_myinit; f < __stop_myinit; f++)
		sum += (*f)();
	if (ctor_ran != 42) return 1;		/* constructor-only member lost */
	if (sum != 7) return 2;			/* initcall member lost */
	if (__stop_mytags - __start_mytags != 3) return 3;	/* used variable lost */
	return 0;
}
/* Referenced only so that the section boundaries exist in every link. */
__attribute__((used, section("myinit"))) static const initcall_t none = 0;
__attribute__((used, section("mytags"))) static const char no_tag[0];
int ctor_ran;
C
cat > ctor.c <<'C'
extern int ctor_ran;
__attribute__((constructor)) static void set(void) { ctor_ran = 42; }
C
cat > initcall.c <<'C'
typedef int (*initcall_t)(void);
static int my_init(void) { return 7; }
__attribute__((used, section("myinit"))) static const initcall_t call = my_init;
C
cat > tag.c <<'C'
__attribute__((used, section("mytags"))) static const char tag[3] = "T1";
C
# main.c's null entry must not be called
sed -i 's/sum += (\*f)();/if (*f) sum += (*f)();/' main.c

# The gcc -B directory a toolchain install provides: an "ld" that is lto-ld.
mkdir gccb && ln -s "$LTO_LD" gccb/ld

# whole PREFIX NAME RUNNER...
whole() {
	prefix=$1 name=$2; shift 2
	mkdir "$name" && cd "$name" || return
	ld="$BIN/${prefix}lto-ld" cc="${prefix}gcc"
	for f in main ctor initcall tag; do "$cc" -O2 -flto -c "../$f.c" -o "$f.o"; done

	expect "$name: thin ld -r of the three members" \
		"$ld" -r --lto-partial=thin -o parts.o ctor.o initcall.o tag.o
	expect "$name: final link through gcc -B (lto-ld as ld)" \
		"$cc" -O2 -flto -B../gccb/ -o prog main.o parts.o
	"$@" ./prog; rc=$?
	expect "$name: constructor, initcall and used variable survive" test $rc -eq 0

	# control: the same thin archive given to plain ld loses its members
	"$cc" -O2 -flto -o control main.o parts.o 2>/dev/null
	"$@" ./control; rc=$?
	expect "$name: control: plain ld drops them (exit $rc)" test $rc -ne 0

	# nested: a thin ld -r of a thin ld -r output
	"$ld" -r --lto-partial=thin -o inner.o ctor.o initcall.o &&
	"$ld" -r --lto-partial=thin -o outer.o inner.o tag.o &&
	"$cc" -O2 -flto -B../gccb/ -o nested main.o outer.o
	"$@" ./nested; rc=$?
	expect "$name: thin ld -r of thin ld -r output" test $rc -eq 0

	# nested thin archives made by ar (kbuild style), linked --whole-archive
	mkdir -p sub
	cp ctor.o initcall.o sub/
	rm -f sub/built-in.a built-in.a
	"${prefix}ar" cDPrST sub/built-in.a sub/ctor.o sub/initcall.o
	"${prefix}ar" cDPrST built-in.a sub/built-in.a tag.o
	expect "$name: nested thin archives under --whole-archive" \
		"$cc" -O2 -flto -B../gccb/ -o kbuild main.o \
		-Wl,--whole-archive built-in.a -Wl,--no-whole-archive
	"$@" ./kbuild; rc=$?
	expect "$name: ...all members linked (LTO through lto-ld)" test $rc -eq 0
	cd ..
}

# A thin ld -r output found through -l, in both spellings: still whole objects.
lib_spellings() {
	mkdir lspell && cd lspell || return
	gcc -O2 -flto -c ../ctor.c -o ctor.o
	gcc -O2 -flto -c ../main.c -o main.o
	"$BIN/lto-ld" -r --lto-partial=thin -o libparts.a ctor.o
	for spelling in "-lparts" "-l parts"; do
		rm -f t
		# shellcheck disable=SC2086
		"$BIN/lto-ld" -e main --unresolved-symbols=ignore-all -o t main.o -L. $spelling
		expect "thin ld -r output given as '$spelling': its constructor is linked" \
			output_has '\.init_array' readelf -SW t
	done
	cd ..
}
lib_spellings

for_each_target --run whole
done_testing
