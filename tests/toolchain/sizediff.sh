#!/bin/sh
# lto-sizediff: where the size went between a non-LTO and an LTO build of
# one program.  What it says is checked against nm of the images and of
# the objects: the totals, clones (.constprop.N) and privatized statics
# (.lto_priv.N) under their base names, what vanished, the directory
# sums (recomputed here from nm by the documented policy), the JSON, the
# target-prefixed name on ARM, and the errors.  With lto-ld's report of a
# whole-program ld -r (--report): the LTO image's bytes by keep reason,
# recomputed from nm and the report, and the reports it must refuse.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

: "${TOP_BUILDDIR:?}"
for n in lto-sizediff arm-linux-gnueabihf-lto-sizediff; do
	ln -s "$TOP_BUILDDIR/lto-sizediff" "$BIN/$n"
done

# a/ and b/ each hold a static pick(); scratch, a static of 7 bytes in
# a/a1.c, 4 in b/b1.c and 2 in b/b2.c, is split 1:2 between a and b
# (13 bytes: 4 and 8, the byte left over to a); scale() is only called with a
# constant factor (scale.constprop.N); bias_a and mult_b are never
# written, so LTO folds them into their readers (pick and scale shrink,
# the variables go); removed_fn is never called (LTO drops it); LTO
# inlines use_a, use_b, use_b2 and keep_a2 into main.
mkdir -p src/a src/b
cat > src/a/a1.c <<'C'
int bias_a = 5;
static __attribute__((noinline)) int scale(int x, int k) { return x * k + (x >> 3) * k + bias_a; }
static __attribute__((noinline)) int pick(int x) { return x * bias_a + (x >> 2); }
int table_a[64] = { 1 };
const char msg_a[] = "directory a";
static volatile char scratch[7];
int use_a(int x) { scratch[x & 3] = 1; return scale(x, 7) + scale(x + 1, 7) + pick(x) + table_a[x & 63] + msg_a[x & 7]; }
C
cat > src/a/a2.c <<'C'
int removed_fn(int x) { return x * x * 13 + (x >> 1) * 5 - 77; }
int keep_a2(int x) { return x + 42; }
C
cat > src/b/b1.c <<'C'
int mult_b = 3;
static __attribute__((noinline)) int pick(int x) { return x * mult_b - (x >> 4); }
int bss_b[32];
static volatile char scratch[4];
int use_b(int x) { bss_b[x & 31] = x; scratch[x & 3] = 2; return pick(x) + bss_b[(x + 1) & 31]; }
C
cat > src/b/b2.c <<'C'
const int consts_b[16] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3 };
static volatile char scratch[2];
int use_b2(int x) { scratch[x & 1] = 3; return consts_b[x & 15]; }
C
cat > src/main.c <<'C'
int use_a(int), use_b(int), use_b2(int), keep_a2(int);
int main(int argc, char **argv) { (void)argv; return (use_a(argc) + use_b(argc) + use_b2(argc) + keep_a2(argc)) & 0x7f; }
C
units="a/a1 a/a2 b/b1 b/b2 main"

# What nm says, for the checks below: names with GCC's suffixes removed,
# and an image's sizes and counts by such name.
cat > "$WORK/nmfacts.py" <<'PY'
import re

SUFFIX = re.compile(r'\.(?:(?:lto_priv|constprop|isra|part|cold|clone)\.[0-9]+|cold|localalias|[0-9]+)$')

def norm(name):
    at = name.find('@')
    base, ver = (name, '') if at < 0 else (name[:at], name[at:])
    while True:
        m = SUFFIX.search(base)
        if not m or m.start() == 0:
            return base + ver
        base = base[:m.start()]

def image(path):
    size, count, n, total = {}, {}, 0, 0
    for line in open(path):
        f = line.split()
        if len(f) == 4 and f[2] in 'tTdDbBrRwWvV':
            k, s = norm(f[3]), int(f[1], 16)
            size[k] = size.get(k, 0) + s
            count[k] = count.get(k, 0) + 1
            n, total = n + 1, total + s
    return size, count, n, total
PY

# The independent account, from nm's output alone: CHECK JSON OLD.nm
# NEW.nm [OBJMAP] (OBJMAP: "object<TAB>directory<TAB>name" lines in
# --objects order).  The JSON must be from --top=0.
cat > "$WORK/check.py" <<'PY'
import json, sys
from nmfacts import norm, image

def order(rows):
    return sorted(rows, key=lambda r: (r["diff"] >= 0, -abs(r["diff"]), r["name"].encode()))

r = json.load(open(sys.argv[1]))
old, new = image(sys.argv[2]), image(sys.argv[3])
for key, (size, count, n, total) in (("old", old), ("new", new)):
    assert r[key]["size"] == total and r[key]["symbols"] == n, (key, r[key], n, total)
    assert r[key]["names"] == len(size), (key, r[key]["names"], len(size))
t = r["totals"]
assert (t["old"], t["new"], t["diff"]) == (old[3], new[3], new[3] - old[3]), t
names = sorted(set(old[0]) | set(new[0]))
want = []
for k in names:
    o, n = old[0].get(k, 0), new[0].get(k, 0)
    oc, nc = old[1].get(k, 0), new[1].get(k, 0)
    if o == n:
        continue
    st = "vanished" if not nc else "appeared" if not oc else "decreased" if n < o else "increased"
    want.append({"name": k, "status": st, "old": o, "new": n, "diff": n - o,
                 "old_count": oc, "new_count": nc})
assert r["symbols"] == order(want), ("symbols", r["symbols"], order(want))
gone = [k for k in names if k not in new[0]]
came = [k for k in names if k not in old[0]]
assert t["vanished"] == {"names": len(gone), "size": sum(old[0][k] for k in gone)}, t
assert t["appeared"] == {"names": len(came), "size": sum(new[0][k] for k in came)}, t
assert t["common_names"] == len(names) - len(gone) - len(came), t

if len(sys.argv) > 4:
    defs, seen = {}, set()
    for line in open(sys.argv[4]):
        obj, d, name = line.rstrip('\n').split('\t')
        k = norm(name)
        if (obj, k) in seen:
            continue
        seen.add((obj, k))
        lst = defs.setdefault(k, [])
        for e in lst:
            if e[0] == d:
                e[1] += 1
                break
        else:
            lst.append([d, 1])
    dirs, amb, unk = {}, [], []
    for k in names:
        sz = (old[0].get(k, 0), new[0].get(k, 0))
        lst = defs.get(k) or [["(unknown)", 1]]
        (amb if len(lst) > 1 else unk if k not in defs else []).append(k)
        w = sum(c for _, c in lst)
        for side in (0, 1):
            given = 0
            for d, c in lst:
                share = sz[side] * c // w
                dirs.setdefault(d, [0, 0])[side] += share
                given += share
            dirs[lst[0][0]][side] += sz[side] - given
    want = [{"directory": d, "old": o, "new": n, "diff": n - o}
            for d, (o, n) in dirs.items() if o or n]
    want.sort(key=lambda x: (-abs(x["diff"]), x["directory"].encode()))
    assert r["directories"] == want, ("directories", r["directories"], want)
    assert sum(d["old"] for d in want) == old[3] and sum(d["new"] for d in want) == new[3]
    a = t["attribution"]
    assert a["ambiguous"] == {"names": len(amb), "old": sum(old[0].get(k, 0) for k in amb),
                              "new": sum(new[0].get(k, 0) for k in amb)}, (a, amb)
    assert a["unknown"]["names"] == len(unk), (a, unk)
else:
    assert r["directories"] == [] and t["attribution"] is None, r
PY

# objmap NM PLUGIN OBJECT...: what each object defines, as check.py reads it
objmap() {
	nmprog=$1 plugin=$2; shift 2
	for o; do
		"$nmprog" --defined-only --plugin "$plugin" "$o" |
		awk -v o="$o" -v d="$(dirname "$o")" 'NF >= 3 && $2 ~ /^[tTdDbBrRwWvVcCgGsSiu]$/ &&
			$3 !~ /^__gnu_lto_/ { print o "\t" d "\t" $3 }'
	done
}

# nmsum NMFILE REGEX: the sizes nm gave the counted symbols named REGEX
nmsum() {
	python3 -c 'import re, sys
print(sum(int(f[1], 16) for f in (l.split() for l in open(sys.argv[1]))
          if len(f) == 4 and f[2] in "tTdDbBrRwWvV" and re.fullmatch(sys.argv[2], f[3])))' "$1" "$2"
}

# accounted DESC JSON [OBJMAP]: check.py agrees with the JSON
accounted() {
	expect "$1" python3 "$WORK/check.py" "$2" old.nm new.nm ${3:+"$3"}
}

# json_is DESC JSON PYTHON-EXPRESSION (r is the report)
json_is() {
	expect "$1" python3 -c "import json, sys; r = json.load(open(sys.argv[1])); assert $3, r" "$2"
}

# scenario PREFIX NAME: build the program twice, compare
scenario() {
	prefix=$1 name=$2
	sd=$BIN/${prefix}lto-sizediff nm=${prefix}nm
	mkdir -p "$name/a" "$name/b" && cd "$name" || return
	here=$(pwd)
	for u in $units; do
		"${prefix}gcc" -O2 -c "../src/$u.c" -o "$u.o" &&
		"${prefix}gcc" -O2 -flto -c "../src/$u.c" -o "$u.lto.o" || return
	done
	"${prefix}gcc" -O2 -o prog-nolto main.o a/a1.o a/a2.o b/b1.o b/b2.o &&
	"${prefix}gcc" -O2 -flto -o prog-lto main.lto.o a/a1.lto.o a/a2.lto.o \
		b/b1.lto.o b/b2.lto.o || return
	"${prefix}ar" rcs b/libb.a b/b1.o b/b2.o
	"$BIN/${prefix}lto-ar" rcsT ir.a a/a1.lto.o a/a2.lto.o b/b1.lto.o b/b2.lto.o
	plugin=$("${prefix}gcc" -print-file-name=liblto_plugin.so)
	"$nm" -S --defined-only prog-nolto > old.nm
	"$nm" -S --defined-only prog-lto > new.nm

	# the clones this test is about must really be there
	if grep -Eq ' t scale\.constprop\.[0-9]+$' new.nm &&
	   [ "$(grep -Ec ' t pick\.lto_priv\.[0-9]+$' new.nm)" -eq 2 ] &&
	   grep -q ' T removed_fn$' old.nm && ! grep -q removed_fn new.nm &&
	   [ "$(nmsum old.nm 'scratch(\.[0-9]+)?')" -eq 13 ] &&
	   [ "$(nmsum new.nm 'scratch\.lto_priv\.[0-9]+')" -eq 13 ]; then
		ok "$name: the LTO image has scale.constprop.N, two pick.lto_priv.N and the scratch.lto_priv.N; removed_fn is gone"
	else
		not_ok "$name: the images are not what the test needs"; diag "$(cat old.nm new.nm)"
	fi

	expect "$name: ${prefix}lto-sizediff OLD NEW, text and --json" \
		eval '"$sd" prog-nolto prog-lto > text.txt 2>err.txt &&
		      "$sd" --json --top=0 prog-nolto prog-lto > all.json 2>>err.txt' || diag "$(cat err.txt)"
	accounted "$name: totals, symbol and name counts, every changed name and its status agree with nm" all.json

	old=$(nmsum old.nm '.*') new=$(nmsum new.nm '.*')
	expect "$name: the text total is nm's sum ($old -> $new)" \
		eval 'grep -Eq "^total: $old -> $new bytes, [+-][0-9]+ " text.txt && [ "$old" -gt "$new" ]' ||
		diag "$(head -5 text.txt)"

	# scale.constprop.N, pick.lto_priv.N: under their names, sizes summed
	s_old=$(nmsum old.nm 'scale\.constprop\.[0-9]+') s_new=$(nmsum new.nm 'scale\.constprop\.[0-9]+')
	p_old=$(nmsum old.nm 'pick') p_new=$(nmsum new.nm 'pick\.lto_priv\.[0-9]+')
	json_is "$name: scale.constprop.N is reported as scale ($s_old -> $s_new)" all.json \
		"[(s['old'], s['new'], s['old_count'], s['new_count'], s['status']) for s in r['symbols'] if s['name'] == 'scale'] == [($s_old, $s_new, 1, 1, 'decreased')] and not [s for s in r['symbols'] if '.' in s['name']]"
	json_is "$name: pick and pick (OLD) vs pick.lto_priv.0/1 (NEW): one name, count 2->2 ($p_old -> $p_new)" all.json \
		"[(s['old'], s['new'], s['old_count'], s['new_count']) for s in r['symbols'] if s['name'] == 'pick'] == [($p_old, $p_new, 2, 2)]"
	expect "$name: the text lists pick with both sizes and 2->2" grep -Eq "^ +$p_old +$p_new +-[0-9]+  2->2 +pick$" text.txt ||
		diag "$(cat text.txt)"

	# removed_fn, bias_a and mult_b vanished; swapped, they appear
	rf=$(nmsum old.nm removed_fn)
	expect "$name: removed_fn ($rf bytes) is listed as vanished" \
		output_has -E "^ +$rf +0 +-$rf  1->0 +removed_fn$" sed -n '/^vanished, only in old/,/^$/p' text.txt ||
		diag "$(cat text.txt)"
	json_is "$name: JSON: removed_fn, bias_a and mult_b have status vanished" all.json \
		"sorted(s['name'] for s in r['symbols'] if s['status'] == 'vanished' and s['name'] in ('removed_fn', 'bias_a', 'mult_b')) == ['bias_a', 'mult_b', 'removed_fn']"
	"$sd" --json --top=0 prog-lto prog-nolto > swapped.json
	json_is "$name: NEW and OLD swapped: removed_fn appeared, the totals swap" swapped.json \
		"[s['status'] for s in r['symbols'] if s['name'] == 'removed_fn'] == ['appeared'] and r['totals']['old'] == $new and r['totals']['new'] == $old and r['totals']['appeared']['names'] > 0"

	# by directory: native objects and a regular archive in b/
	objmap "$nm" "$plugin" a/a1.o a/a2.o b/b1.o b/b2.o > native.map
	if "$sd" --json --top=0 --objects=a/a1.o --objects a/a2.o --objects=b/libb.a \
		prog-nolto prog-lto > dirs.json 2>err.txt; then
		accounted "$name: --objects (objects, a regular archive in b/): directory sums as nm of the objects gives them" dirs.json native.map
		json_is "$name: 3 files, 4 objects; pick and scratch (in a/ and b/) are the names split; main and libc's in (unknown)" dirs.json \
			"r['totals']['attribution']['files'] == 3 and r['totals']['attribution']['objects'] == 4 and r['totals']['attribution']['ambiguous'] == {'names': 2, 'old': $p_old + 13, 'new': $p_new + 13} and sorted(d['directory'] for d in r['directories']) == ['(unknown)', 'a', 'b']"
	else
		not_ok "$name: --objects"; diag "$(cat err.txt)"
	fi
	"$sd" --objects=a/a1.o --objects=a/a2.o --objects=b/libb.a prog-nolto prog-lto > dirs.txt
	sed -n '/^by directory/,/^from/p' dirs.txt | awk 'NF == 4 && $1 ~ /^[0-9]+$/ { print $4, $1, $2, $3 + 0 }' > dirs-text.txt
	python3 -c 'import json, sys
for d in json.load(open(sys.argv[1]))["directories"]:
    print(d["directory"], d["old"], d["new"], d["diff"])' dirs.json > dirs-json.txt
	expect "$name: the text's directory table is the JSON's" eval '[ -s dirs-text.txt ] && cmp -s dirs-text.txt dirs-json.txt' ||
		diag "$(cat dirs.txt dirs-json.txt)"

	# thin archives name their members relative to themselves: b/thin.a
	# holds b1.o and b2.o; given with top.a (a/a1.o a/a2.o) they are
	# named from the topmost one, alone from b/ itself
	rm -f top.a b/thin.a
	"${prefix}ar" rcsT top.a a/a1.o a/a2.o && (cd b && "${prefix}ar" rcsT thin.a b1.o b2.o)
	"$sd" --json --top=0 --objects=top.a --objects=b/thin.a prog-nolto prog-lto > thin.json
	accounted "$name: --objects=top.a --objects=b/thin.a (thin, b/'s relative to b/): the same directory sums" thin.json native.map
	(cd / && "$sd" --json --top=0 --objects="$here/b/thin.a" "$here/prog-nolto" "$here/prog-lto") > thin-alone.json
	json_is "$name: b/thin.a alone, from /: its members are in its own directory, '.'" thin-alone.json \
		"sorted(d['directory'] for d in r['directories']) == ['(unknown)', '.']"

	# GCC IR objects in a thin archive, read through the LTO plugin
	objmap "$nm" "$plugin" a/a1.lto.o a/a2.lto.o b/b1.lto.o b/b2.lto.o > ir.map
	if "$sd" --json --top=0 --objects=ir.a prog-nolto prog-lto > ir.json 2>err.txt; then
		accounted "$name: --objects=thin archive of GCC IR objects: directory sums as nm --plugin gives them" ir.json ir.map
		json_is "$name: IR objects: removed_fn and table_a are found in a/" ir.json \
			"[d['old'] for d in r['directories'] if d['directory'] == 'a'][0] >= $rf and r['totals']['attribution']['objects'] == 4"
	else
		not_ok "$name: --objects=ir.a"; diag "$(cat err.txt)"
	fi
	# kbuild's case: a thin archive named from elsewhere, members by the
	# paths it holds (a, b), not the caller's
	(cd / && "$sd" --json --top=0 --objects="$here/ir.a" "$here/prog-nolto" "$here/prog-lto") > ir-abs.json
	json_is "$name: the thin archive given by its absolute path from /: the same directories" ir-abs.json \
		"r['directories'] == json.load(open('ir.json'))['directories']"
	"$sd" --json --top=0 --objects=./ir.a prog-nolto prog-lto > ir-dot.json
	(cd a && "$sd" --json --top=0 --objects=../ir.a ../prog-nolto ../prog-lto) > ir-up.json
	json_is "$name: ... as ./ir.a, and as ../ir.a from a/: the same directories" ir-dot.json \
		"r['directories'] == json.load(open('ir.json'))['directories'] == json.load(open('ir-up.json'))['directories']"
	cd ..
}

# ---- --report: the bytes of the LTO image by keep reason ----

# k/: a program linked by a whole-program ld -r and a final link.
# exported_fn is named only by tab.c's top-level asm (an export table);
# weak_fn is weak; asm_target is called from start.S and from main,
# which GCC splits (asm_target.part.0 is its body); emitted_fn and sink
# could be internal but stay (ex.c's weak emitted_fn, listed first, does
# not prevail: the kept one speaks for the name); main is the keep set;
# removed_fn is never called; inlined_fn is inlined into main; core.c's
# weak twin loses to nat.c's, a native object of the same link (not
# prevailing).  start.S's s_entry and s_data, the statics, crt's and the
# linker's are in no report.
mkdir -p k
cat > k/ex.c <<'C'
int exported_fn(int x) { return x * 3 + (x >> 2) * 7 - 11; }
__attribute__((weak)) int emitted_fn(int x) { return x; }
C
cat > k/tab.c <<'C'
int exported_fn(int);
__asm__(".pushsection .data.exports,\"aw\"\n"
	".globl export_table\nexport_table:\n\t.dc.a exported_fn\n\t.popsection");
C
cat > k/weak.c <<'C'
__attribute__((weak)) int weak_fn(int x) { return x * 5 + (x >> 1) * 3 - 2; }
C
cat > k/inl.c <<'C'
int inlined_fn(int x) { return x + 42; }
C
cat > k/nat.c <<'C'
int twin(int x) { return x * 9 + (x >> 4); }
C
cat > k/core.c <<'C'
extern const void *export_table;
int weak_fn(int), inlined_fn(int);
volatile int sink[16];
__attribute__((weak)) int twin(int x) { return x - 3; }
int asm_target(int x, int k)
{
	if (__builtin_expect(x < 100000, 1))
		return x + k;
	for (int i = 0; i < 16; i++)
		sink[i] = sink[(i * k) & 15] * x + i + sink[(i + x) & 15];
	for (int i = 0; i < 16; i++)
		sink[i] ^= sink[(i * x) & 15] * k;
	return sink[3];
}
static __attribute__((noinline)) int helper(int x) { return x * x + 17 * (x >> 1); }
__attribute__((noinline)) int emitted_fn(int x) { return helper(x) * 3 + (x >> 5); }
int removed_fn(int x) { return x * x * 13 + (x >> 1) * 5 - 77; }
static int local_table[40] = { 1, 2, 3 };
int main(int argc, char **argv)
{
	(void)argv;
	return (asm_target(argc, 7) + asm_target(argc * 5, 3) + emitted_fn(argc) +
		inlined_fn(argc) + weak_fn(argc) + twin(argc) + local_table[argc & 31] +
		(export_table != 0)) & 0x7f;
}
C
cat > k/start.S <<'S'
	.text
	.globl	s_entry
	.type	s_entry, %function
s_entry:
#ifdef __x86_64__
	jmp	asm_target
#else
	b	asm_target
#endif
	.size	s_entry, .-s_entry
	.section .rodata
	.globl	s_data
	.type	s_data, %object
s_data:	.long 1, 2, 3, 4
	.size	s_data, .-s_data
	.section .note.GNU-stack,"",%progbits
S
# other/: another program, whose report keeps o_a, o_b, o_c and main
cat > k/other.c <<'C'
int o_a(int x) { return x + 1; }
int o_b(int x) { return x * 2; }
int o_c(int x) { return x - 3; }
int main(void) { return 0; }
C

# The independent account: CHECK SIZEDIFF-JSON REPORT NEW.nm.  Each name
# of NEW (suffixes removed as check.py does) goes under the reason the
# report keeps it for (a kept definition of the name, else its first),
# the fate when not kept, native code when a native object of the link
# defines it, "not in the report" otherwise.
cat > "$WORK/check-reasons.py" <<'PY'
import json, sys
from nmfacts import norm, image

r = json.load(open(sys.argv[1]))["reasons"]
rep = json.load(open(sys.argv[2]))
size, count, n, total = image(sys.argv[3])
speaks = {}
for o in rep["objects"]:
    for s in o["symbols"]:
        k = norm(s["name"])
        if k not in speaks or (s["fate"] == "kept" and speaks[k]["fate"] != "kept"):
            speaks[k] = s
NATIVE = "native code (assembler, objects without IR)"
native = {norm(d) for o in rep["native_objects"] for d in o["defines"]}
kept, unexplained = {}, {"not in the report": [0, 0, 0]}
if native:
    kept[NATIVE] = [0, 0, 0]
for s in speaks.values():
    if s["fate"] == "kept":
        kept.setdefault(s["reason"], [0, 0, 0])
for k in size:
    s = speaks.get(k)
    line = (kept.setdefault(s["reason"], [0, 0, 0]) if s and s["fate"] == "kept" else
            unexplained.setdefault(s["fate"], [0, 0, 0]) if s else
            kept[NATIVE] if k in native else unexplained["not in the report"])
    line[0] += 1; line[1] += count[k]; line[2] += size[k]
def obj(d):
    return {k: {"names": v[0], "symbols": v[1], "bytes": v[2]} for k, v in d.items()}
assert r["kept"] == obj(kept), ("kept", r["kept"], obj(kept))
assert r["unexplained"] == obj(unexplained), ("unexplained", r["unexplained"], obj(unexplained))
lines = list(r["kept"].values()) + list(r["unexplained"].values())
assert r["total"] == {"names": len(size), "symbols": n, "bytes": total}, (r["total"], n, total)
assert sum(l["bytes"] for l in lines) == total and sum(l["symbols"] for l in lines) == n
knames = [k for k, s in speaks.items() if s["fate"] == "kept"]
assert r["kept_names"] == len(knames) and r["kept_names_in_new"] == len([k for k in knames if k in size]), r
assert r["definitions"] == sum(len(o["symbols"]) for o in rep["objects"]), r
PY

# reason_bytes JSON REASON: the bytes of a kept reason in lto-sizediff's JSON
reason_bytes() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["reasons"]["kept"][sys.argv[2]]["bytes"])' "$1" "$2"
}

# reasons PREFIX NAME: build k/ without LTO and with a whole-program ld -r
# and its report, and join them
reasons() {
	prefix=$1 name=$2
	sd=$BIN/${prefix}lto-sizediff nm=${prefix}nm ld=$BIN/${prefix}lto-ld
	if [ ! -f "$TOP_BUILDDIR/lto-ld-plugin.so" ]; then
		skip_missing binutils-dev "$name: --report: lto-ld-plugin.so not built"
		return
	fi
	mkdir "$name-keep" && cd "$name-keep" || return
	cp ../k/* .
	if ! ccplugin=$("$ld" --print-cc-plugin); then
		not_ok "$name: --report: the compiler plugin"; cd .. && return
	fi
	for u in ex tab weak inl core other; do
		"${prefix}gcc" -O2 -c "$u.c" -o "$u.o" &&
		"${prefix}gcc" -O2 -flto -fplugin="$ccplugin" -c "$u.c" -o "$u.lto.o" ||
			{ not_ok "$name: --report: compiling $u.c"; cd .. && return; }
	done
	"${prefix}gcc" -c start.S -o start.o && "${prefix}gcc" -O2 -c nat.c -o nat.o ||
		{ not_ok "$name: --report: compiling start.S, nat.c"; cd .. && return; }
	objs="ex tab weak inl core"
	if "${prefix}gcc" -o prog-nolto $(for u in $objs; do echo "$u.o"; done) start.o nat.o &&
	   "$ld" -r --lto-whole-program --lto-keep-symbol=main --lto-report=r.json \
		-o r.o $(for u in $objs; do echo "$u.lto.o"; done) start.o nat.o &&
	   "${prefix}gcc" -o prog-lto r.o 2>err.txt; then
		ok "$name: --report: a whole-program ld -r with --lto-report=r.json, a final link"
	else
		not_ok "$name: --report: the builds"; diag "$(cat err.txt)"; cd .. && return
	fi
	"$nm" -S --defined-only prog-lto > new.nm
	if grep -Eq ' t asm_target\.part\.[0-9]+$' new.nm && ! grep -q removed_fn new.nm &&
	   grep -q '"name": "twin", "fate": "not prevailing"' r.json && grep -q ' T twin$' new.nm &&
	   [ "$(grep -o '"name": "emitted_fn", "fate": "[a-z ]*"' r.json | tr '\n' ,)" = \
	     '"name": "emitted_fn", "fate": "not prevailing","name": "emitted_fn", "fate": "kept",' ] &&
	   grep -q '"name": "exported_fn", "fate": "kept", "reason": "named in asm of another unit"' r.json; then
		ok "$name: --report: asm_target.part.N, exported_fn named in asm, removed_fn gone, twin from nat.o, emitted_fn not prevailing then kept"
	else
		not_ok "$name: --report: the image and report are not what the test needs"; diag "$(cat new.nm r.json)"
	fi

	expect "$name: ${prefix}lto-sizediff --report=r.json OLD NEW, text and --json" \
		eval '"$sd" --report=r.json prog-nolto prog-lto > reasons.txt 2>err.txt &&
		      "$sd" --json --report=r.json prog-nolto prog-lto > reasons.json 2>>err.txt' || diag "$(cat err.txt)"
	expect "$name: every reason's names, symbols and bytes as recomputed from nm and the report; they add up to nm's total" \
		python3 "$WORK/check-reasons.py" reasons.json r.json new.nm
	for want in "non-IR reference=asm_target(\.part\.[0-9]+)?" "named in asm of another unit=exported_fn" \
		"weak=weak_fn" "keep set=main" "still emitted=(emitted_fn|sink)"; do
		reason=${want%%=*} re=${want#*=}
		got=$(reason_bytes reasons.json "$reason") exp=$(nmsum new.nm "$re")
		expect "$name: kept ($reason): $got bytes, nm's $re" eval '[ -n "$got" ] && [ "$got" -eq "$exp" ] && [ "$exp" -gt 0 ]' ||
			diag "nm's: $exp" "$(cat reasons.txt)"
	done
	json_is "$name: nat.o's twin is under 'not prevailing' (its IR definition's fate), start.S's s_entry and s_data under native code, core.c's statics under 'not in the report'" reasons.json \
		"r['reasons']['unexplained']['not prevailing'] == {'names': 1, 'symbols': 1, 'bytes': $(nmsum new.nm twin)} and r['reasons']['kept']['native code (assembler, objects without IR)']['bytes'] >= $(nmsum new.nm 's_entry|s_data') > 0 and r['reasons']['unexplained']['not in the report']['bytes'] >= $(nmsum new.nm 'helper|local_table') > 0"
	sed -n '/^by keep reason/,$p' reasons.txt | awk '$2 ~ /%$/ { $2 = ""; print }' > reasons-text.txt
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["reasons"]
for kind in ("kept", "unexplained"):
    for k, v in r[kind].items():
        print(v["bytes"], "", v["symbols"], v["names"], kind + ":", k)
t = r["total"]
print(t["bytes"], "", t["symbols"], t["names"], "total: new\x27s sized symbols")' reasons.json > reasons-json.txt
	expect "$name: the text's keep-reason table is the JSON's" \
		eval '[ -s reasons-text.txt ] && cmp -s reasons-text.txt reasons-json.txt' || diag "$(cat reasons.txt reasons-json.txt)"

	# a final link's report is of its output: final.elf, not prog-lto
	# (tab.o native: a final link does not keep what IR asm names)
	if "$ld" -e main --lto-report=final.json -o final.elf ex.lto.o tab.o \
		weak.lto.o inl.lto.o core.lto.o start.o nat.o 2>err.txt; then
		mkdir -p sub
		if (cd sub && "$sd" --json --report=../final.json ../prog-nolto ../final.elf) > final-ok.json 2>err.txt; then
			json_is "$name: a final link's report, given from another directory, joins its output" final-ok.json \
				"r['reasons']['mode'] == 'final' and r['reasons']['kept']['non-IR reference']['bytes'] > 0"
		else
			not_ok "$name: a final link's report joins its output"; diag "$(cat err.txt)"
		fi
		check_exit "$name: a final link's report with another image: exit 1, named" 1 \
			"final\.json: the report of the final link of final\.elf, not of prog-lto" \
			"$sd" --report=final.json prog-nolto prog-lto
	else
		not_ok "$name: a final link with --lto-report"; diag "$(cat err.txt)"
	fi
	# another program's report: it keeps main, o_a, o_b, o_c
	"$ld" -r --lto-whole-program --lto-keep-symbol=main --lto-keep-symbol='o_*' \
		--lto-report=other.json -o other.r.o other.lto.o
	check_exit "$name: the report of another link (1 of its 4 kept names in NEW): exit 1, named" 1 \
		"other\.json: not the report of a link that made prog-lto: 1 of the 4 names it keeps" \
		"$sd" --report=other.json prog-nolto prog-lto
	"${prefix}strip" -o stripped prog-lto
	check_exit "$name: --report with a stripped NEW: exit 1, named" 1 "stripped: no symbols \(stripped\?\)" \
		"$sd" --report=r.json prog-nolto stripped
	cd ..
}

# errors: 1 for inputs (named, with the reason), 2 for the command line
check_exit() {
	desc=$1 want=$2 pattern=$3; shift 3
	out=$("$@" 2>&1); rc=$?
	expect "$desc" eval '[ "$rc" -eq "$want" ] && text_has "$out" -E -- "$pattern"' || diag "exit $rc" "$out"
}

# target PREFIX NAME: scenario and reasons; on ARM, that the ARM nm runs
target() {
	scenario "$1" "$2"
	reasons "$1" "$2"
	[ "$2" = arm ] || return 0
	cd arm || exit 99
	out=$(LTO_LD_VERBOSE=1 "$BIN/arm-linux-gnueabihf-lto-sizediff" prog-nolto prog-lto 2>&1 >/dev/null)
	expect "arm: arm-linux-gnueabihf-lto-sizediff runs arm-linux-gnueabihf-nm" text_has "$out" \
		-E 'running: [^ ]*/arm-linux-gnueabihf-nm -S --defined-only -- prog-nolto$' || diag "$out"
	cd ..
}

for_each_target target

cd host || exit 99
S=$BIN/lto-sizediff

# the nm: LTO_SIZEDIFF_NM, --nm over it; the project's lto-nm works too
out=$(LTO_LD_VERBOSE=1 LTO_SIZEDIFF_NM="$BIN/lto-nm" "$S" prog-nolto prog-lto 2>&1 >/dev/null)
out2=$(LTO_LD_VERBOSE=1 LTO_SIZEDIFF_NM="$BIN/lto-nm" "$S" --nm=nm prog-nolto prog-lto 2>&1 >/dev/null)
expect "LTO_SIZEDIFF_NM chooses the nm, --nm wins over it" \
	eval 'text_has "$out" "running: $BIN/lto-nm -S" && text_has "$out2" -E "running: [^ ]*/nm -S" &&
	      ! text_has "$out2" lto-nm' || diag "$out" "$out2"
LTO_SIZEDIFF_NM="$BIN/lto-nm" "$S" --json --top=0 --objects=ir.a prog-nolto prog-lto > lto-nm.json
json_is "lto-nm as the nm: the same directories from the IR archive" lto-nm.json \
	"r['directories'] == json.load(open('ir.json'))['directories']"

# --top=N
"$S" --top=1 prog-nolto prog-lto > top1.txt
n=$(sed -n '/^largest decreases/,/^$/p' top1.txt | grep -c '^ *[0-9]')
expect "--top=1: one row per list" \
	eval 'grep -Eq "^largest decreases \(1 of [0-9]+ names, -[0-9]+ bytes in all\):\$" top1.txt && [ "$n" -eq 1 ]' ||
	diag "$(cat top1.txt)"
"$S" --json --top=1 --objects=a/a1.o prog-nolto prog-lto > top1.json
json_is "--json --top=1: at most one row of each list, one directory" top1.json \
	"1 <= len(r['symbols']) <= 4 and len(r['directories']) == 1 and r['totals']['top'] == 1"

# JSON strings: a file name with a quote, a backslash, a tab and a
# control character; one with a byte that is not UTF-8
weird=$(printf 'we"ird\\b\tx\001.elf')
cp prog-lto "$weird"
cp prog-lto "$(printf 'caf\351')"
cafe=$(printf 'caf\351')
names_back='import json, sys; r = json.load(open(sys.argv[1])); assert r["old"]["file"] == sys.argv[2] and r["new"]["file"] == "caf\u00e9", r'
expect "--json is valid JSON (python3 -m json.tool); names with quotes, backslashes, tabs, control and non-UTF-8 bytes come back" \
	eval '"$S" --json "$weird" "$cafe" > weird.json && python3 -m json.tool weird.json > /dev/null &&
	      python3 -c "$names_back" weird.json "$weird"' || diag "$(cat weird.json)"
expect "every --json output of the scenario parses" \
	eval 'python3 -m json.tool all.json > /dev/null && python3 -m json.tool dirs.json > /dev/null'

printf 'not an object\n' > notelf.txt
strip -o stripped prog-nolto
check_exit "a missing OLD: exit 1, named" 1 "cannot open nope\.elf: No such file or directory" "$S" nope.elf prog-lto
check_exit "a missing NEW: exit 1, named" 1 "cannot open nope\.elf: No such file or directory" "$S" prog-nolto nope.elf
check_exit "a non-ELF input: exit 1, named" 1 "notelf\.txt: not an ELF file$" "$S" prog-nolto notelf.txt
check_exit "a directory as input: exit 1" 1 "a: not a regular file" "$S" a prog-lto
check_exit "a stripped input: exit 1" 1 "stripped: no symbols" "$S" stripped prog-lto
check_exit "a non-ELF --objects file: exit 1, named" 1 "notelf\.txt: not an ELF file or archive" \
	"$S" --objects=notelf.txt prog-nolto prog-lto
check_exit "a missing --objects file: exit 1, named" 1 "cannot open nope\.o: No such file" \
	"$S" --objects=nope.o prog-nolto prog-lto
cp a/a2.o gone.o && "$BIN/lto-ar" rcsT broken.a gone.o && rm gone.o
check_exit "a thin archive whose member is missing: exit 1, named" 1 "broken\.a: .*nm failed" \
	"$S" --objects=broken.a prog-nolto prog-lto
if [ "$(id -u)" -ne 0 ]; then
	cp prog-lto unreadable && chmod 000 unreadable
	check_exit "an unreadable input: exit 1" 1 "cannot open unreadable: Permission denied" "$S" prog-nolto unreadable
else
	skip "unreadable input: running as root"
fi
check_exit "an nm that does not exist: exit 1" 1 "cannot find nm '/nonexistent/nm'" \
	"$S" --nm=/nonexistent/nm prog-nolto prog-lto
check_exit "an unknown option: exit 2 with usage" 2 "unknown option '--bogus'" "$S" --bogus prog-nolto prog-lto
expect "...and the usage is printed" eval '"$S" --bogus prog-nolto prog-lto 2>&1 | grep -q "^usage: lto-sizediff "'
check_exit "--top=x: exit 2" 2 "--top: 'x' is not a number" "$S" --top=x prog-nolto prog-lto
check_exit "--top=-1: exit 2" 2 "--top: '-1' is not a number" "$S" --top=-1 prog-nolto prog-lto
check_exit "--objects without its file: exit 2" 2 "option '--objects' needs an argument" "$S" prog-nolto prog-lto --objects
check_exit "one image only: exit 2" 2 "OLD and NEW are needed" "$S" prog-nolto
check_exit "three images: exit 2" 2 "only two images" "$S" prog-nolto prog-lto prog-lto
expect "--help: exit 0" "$S" --help
expect "--help describes --report" output_has '--report=FILE' "$S" --help
check_exit "--report without its file: exit 2" 2 "option '--report' needs an argument" "$S" prog-nolto prog-lto --report

# --report: what is not lto-ld's JSON report of the link is refused,
# naming the file and why (the report's own cases are in reasons above)
if [ -f ../host-keep/r.json ]; then
	k=../host-keep
	"$BIN/lto-ld" -r --lto-whole-program --lto-keep-symbol=main --lto-report=r.txt \
		-o r-text.o $k/ex.lto.o $k/tab.lto.o $k/weak.lto.o $k/inl.lto.o $k/core.lto.o $k/start.o $k/nat.o
	check_exit "--report: lto-ld's text report: exit 1, named, the JSON form asked for" 1 \
		"r\.txt: lto-ld's text report; the join needs its JSON form \(--lto-report=FILE\.json\)" \
		"$S" --report=r.txt $k/prog-nolto $k/prog-lto
	check_exit "--report: a missing report: exit 1, named" 1 "cannot read the report nope\.json: No such file" \
		"$S" --report=nope.json $k/prog-nolto $k/prog-lto
	check_exit "--report: JSON that is not lto-ld's (lto-sizediff's own): exit 1, named" 1 \
		"all\.json: not an lto-ld JSON report \(no string \"output\" and \"mode\"\)" \
		"$S" --report=all.json $k/prog-nolto $k/prog-lto
	head -c 400 $k/r.json > cut.json
	check_exit "--report: a truncated report: exit 1, with the line and column" 1 \
		"cut\.json:[0-9]+:[0-9]+: not an lto-ld JSON report \(not JSON: " \
		"$S" --report=cut.json $k/prog-nolto $k/prog-lto
	sed '0,/"fate": "kept", /s///' $k/r.json > nofate.json
	check_exit "--report: a definition without a fate: exit 1, which one named" 1 \
		"nofate\.json: not an lto-ld JSON report \(objects\[0\]\.symbols\[0\] has no string \"fate\"\)" \
		"$S" --report=nofate.json $k/prog-nolto $k/prog-lto
	sed 's/"defines": \[/"defines": [7, /' $k/r.json > nonames.json
	check_exit "--report: a native object whose names are not strings: exit 1, which one named" 1 \
		"nonames\.json: not an lto-ld JSON report \(native_objects\[0\] has no \"defines\" array of strings\)" \
		"$S" --report=nonames.json $k/prog-nolto $k/prog-lto
	printf '{"output": "x.o", "mode": "relocatable", "objects": [{"symbols": []}]}\n' > empty.json
	check_exit "--report: a report that keeps nothing: exit 1, named" 1 \
		"empty\.json: keeps no IR definition, so it is not of the link that made .*prog-lto" \
		"$S" --report=empty.json $k/prog-nolto $k/prog-lto
	python3 -c 'print("[" * 100 + "]" * 100)' > deep.json
	check_exit "--report: JSON nested 100 deep: exit 1" 1 "deep\.json:1:[0-9]+: .*nested too deep" \
		"$S" --report=deep.json $k/prog-nolto $k/prog-lto
	# escapes are read: main spelled m\u0061in, weak_fn weak\u005ffn
	sed 's/"main"/"m\\u0061in"/; s/"weak_fn"/"weak\\u005ffn"/' $k/r.json > escaped.json
	"$S" --json --report=escaped.json $k/prog-nolto $k/prog-lto > escaped-out.json
	json_is "--report: a report with \\u escapes joins as the plain one" escaped-out.json \
		"'m\\\\u0061in' in open('escaped.json').read() and r['reasons']['kept'] == json.load(open('$k/reasons.json'))['reasons']['kept']"
else
	skip_missing binutils-dev "--report: bad reports: lto-ld-plugin.so not built"
fi

# aliases: a linked image holds one body under two names once; in a
# relocatable object values are section offsets, so nothing is folded
cat > alias.c <<'C'
int body_fn(int x) { return x * 7 + (x >> 2) * 3 - 11; }
int alias_fn(int) __attribute__((alias("body_fn")));
int main(int argc, char **argv) { (void)argv; return body_fn(argc) & 0x7f; }
C
gcc -O2 -o alias-prog alias.c && gcc -O2 -c -o alias.o alias.c
"$S" --json alias-prog alias-prog > alias.json
"$S" --json alias.o alias.o > alias-rel.json
nm -S alias-prog > alias.nm
# the image's sized symbols of the counted types, each name once: the
# alias's bytes must not be in lto-sizediff's total
json_is "an alias in a linked image counts once: its bytes are its target's" alias.json \
	"r['new']['aliases'] >= 1 and [l.split()[3] for l in open('alias.nm') if l.split()[3:] == ['alias_fn']] and r['new']['size'] == sum(int(l.split()[1], 16) for l in open('alias.nm') if len(l.split()) == 4 and l.split()[2] in 'tTdDbBrRwWvV') - next(int(l.split()[1], 16) for l in open('alias.nm') if l.split()[3:] == ['alias_fn'])"
json_is "...and in a relocatable object nothing is taken for an alias" alias-rel.json \
	"r['new']['aliases'] == 0"

# no temporary files, in TMPDIR or here
mkdir tmpdir
before=$(ls -A | sort)
TMPDIR=$PWD/tmpdir "$S" --objects=ir.a --objects=b/libb.a prog-nolto prog-lto > /dev/null
TMPDIR=$PWD/tmpdir "$S" --objects=notelf.txt prog-nolto prog-lto > /dev/null 2>&1
expect "no temporary files left" eval '[ -z "$(ls -A tmpdir)" ] && [ "$(ls -A | sort)" = "$before" ]'
cd ..
done_testing
