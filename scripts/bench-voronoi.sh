#!/usr/bin/env bash
# The Voronoi benchmark tables: the same balls through Voronota (`voronota calculate-vertices`, when it is
# installed) and through accelgeom's JMH benchmark (org.accelgeom.bench.VoronoiBenchmark) on every backend, in
# one run, then Markdown tables: time against atom count with ratios (the paper's Table 8.1), and the
# float->double swaps of the two-phase search (the paper's Table 8.2).
#
#   scripts/bench-voronoi.sh [--inputs "data/molecules/1ubq.pdb ... random:20000"] [--backends "jvm jvm-parallel tornado"]
#                            [--precision default|two-phase|double|float] [--jmh "-wi 2 -i 5 -f 1"] [--out DIR]
#                            [--swaps-backend tornado|jvm-parallel|none] [--big N] [--no-tornado-double]
#
# With tornado among the backends, a second tornado run in pure double precision (H100/H200 have fast FP64)
# fills the column "tornado double" (off with --no-tornado-double).
# Inputs of N balls or more (--big, default 50000) are benchmarked without the single-threaded jvm backend
# (minutes per diagram there).
# Inputs: molecule files (PDB/mmCIF/PQR/XYZR; missing ones are skipped with a note) and random:N (atom-like random
# balls, seed 42). Each is turned once into DIR/inputs/NAME.xyzr by `accelgeom voronoi --save-balls --only-balls`
# (Voronota's default atom selection and radii), and both tools read that file: the same balls. Voronota
# (Debian package voronota; VORONOTA=path overrides) is timed on its whole run (wall clock, one thread); when it
# is not on PATH (the GPU machine) its columns stay empty. The JMH score is one VoronoiDiagram.compute, balls in
# memory, everything else included (tornado: kernels compiled and balls uploaded in the warm-up, every per-batch
# transfer counted).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

inputs="data/molecules/1ubq.pdb data/molecules/4hhb.pdb data/molecules/3o21.pdb data/molecules/1a0q.pdb data/molecules/4jsv.pdb data/molecules/6zu5.cif random:20000 random:100000"
backends="jvm jvm-parallel tornado"
precision="default"
jmh="-wi 1 -i 3 -f 1"
big=50000
tdouble=1
out="$ACCELGEOM_ROOT/target/bench-voronoi"
swaps=tornado
while [[ $# -gt 0 ]]; do
    case "$1" in
        --inputs) inputs=$2; shift 2 ;;
        --backends) backends=$2; shift 2 ;;
        --precision) precision=$2; shift 2 ;;
        --jmh) jmh=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --swaps-backend) swaps=$2; shift 2 ;;
        --big) big=$2; shift 2 ;;
        --no-tornado-double) tdouble=0; shift ;;
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
        *) echo "bench-voronoi.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$out/inputs"
voronota=${VORONOTA:-$(command -v voronota || true)}
acc="$ACCELGEOM_ROOT/scripts/accelgeom"

files=()
for c in $inputs; do
    if [[ $c == random:* ]]; then
        name="random-${c#random:}"
        src=(--random "${c#random:}" --seed 42)
    else
        [[ $c = /* ]] || c="$ACCELGEOM_ROOT/$c"
        if [[ ! -s $c ]]; then
            echo "bench-voronoi: $c not found, skipped (scripts/fetch-datasets.sh proteins fetches some)" >&2
            continue
        fi
        name=$(basename "$c"); name=${name%.*}
        src=(--input "$c")
    fi
    f="$out/inputs/$name.xyzr"
    if [[ ! -s $f ]]; then
        "$acc" voronoi "${src[@]}" --backend jvm --quiet --only-balls --save-balls "$f" >/dev/null
    fi
    files+=("$f")
done
if [[ ${#files[@]} -eq 0 ]]; then
    echo "bench-voronoi: no inputs" >&2
    exit 1
fi

: > "$out/voronota.tsv"
if [[ -n "$voronota" ]]; then
    for f in "${files[@]}"; do
        t0=$(date +%s.%N)
        "$voronota" calculate-vertices < "$f" > "$out/$(basename "$f" .xyzr).voronota-vertices"
        t1=$(date +%s.%N)
        printf '%s\t%s\t%s\n' "$(basename "$f" .xyzr)" "$(awk "BEGIN{print $t1 - $t0}")" \
            "$(wc -l < "$out/$(basename "$f" .xyzr).voronota-vertices")" >> "$out/voronota.tsv"
        echo "bench-voronoi: voronota $(basename "$f"): $(tail -1 "$out/voronota.tsv" | cut -f2)s" >&2
    done
else
    echo "bench-voronoi: voronota not found (Debian package voronota, or VORONOTA=path): its columns stay empty" >&2
fi

# vertex counts and the two-phase float->double swaps (Table 8.2), one CLI run per input
: > "$out/counts.tsv"
for f in "${files[@]}"; do
    name=$(basename "$f" .xyzr)
    if [[ $swaps == none ]]; then
        break
    fi
    log="$out/$name.$swaps.txt"
    if "$acc" voronoi --input "$f" --backend "$swaps" --precision two-phase --quiet --timings \
        --output "$out/$name.accelgeom-vertices" > "$log" 2>&1; then
        verts=$(sed -n 's/^vertices: *\([0-9]*\).*/\1/p' "$log")
        searches=$(sed -n 's/^end-vertex searches: *\([0-9]*\).*/\1/p' "$log")
        sw=$(sed -n 's/^float->double swaps: *\([0-9]*\).*/\1/p' "$log")
        same=""
        if [[ -s "$out/$name.voronota-vertices" ]]; then
            if cmp -s <(cut -d' ' -f1-4 "$out/$name.accelgeom-vertices" | sort) <(cut -d' ' -f1-4 "$out/$name.voronota-vertices" | sort); then
                same=yes
            else
                same=NO
            fi
        fi
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$(wc -l < "$f")" "$verts" "$searches" "$sw" "$same" >> "$out/counts.tsv"
    else
        echo "bench-voronoi: $swaps two-phase run failed on $name, see $log" >&2
    fi
done

list() { local IFS=,; echo "$*"; }
small=()
large=()
for f in "${files[@]}"; do
    if [[ $(wc -l < "$f") -ge $big ]]; then large+=("$f"); else small+=("$f"); fi
done
rm -f "$out/jmh.csv" "$out/jmh-large.csv" "$out/jmh-double.csv"
if [[ ${#small[@]} -gt 0 ]]; then
    # shellcheck disable=SC2086 # $jmh is a list of JMH options
    "$acc" bench -- VoronoiBenchmark -p input="$(list "${small[@]}")" -p backend="$(list $backends)" \
        -p precision="$precision" $jmh -rf csv -rff "$out/jmh.csv" >&2
fi
notjvm=$(for b in $backends; do [[ $b == jvm ]] || printf '%s ' "$b"; done)
if [[ ${#large[@]} -gt 0 && -n $notjvm ]]; then
    # shellcheck disable=SC2086
    "$acc" bench -- VoronoiBenchmark -p input="$(list "${large[@]}")" -p backend="$(list $notjvm)" \
        -p precision="$precision" $jmh -rf csv -rff "$out/jmh-large.csv" >&2
fi

if [[ $tdouble == 1 && " $backends " == *" tornado "* ]]; then
    # shellcheck disable=SC2086
    "$acc" bench -- VoronoiBenchmark -p input="$(list "${files[@]}")" -p backend=tornado -p precision=double \
        $jmh -rf csv -rff "$out/jmh-double.csv" >&2
fi

python3 - "$out" "$swaps" <<'PY'
import csv, os, sys
out, swaps = sys.argv[1], sys.argv[2]
v = {}
for line in open(os.path.join(out, "voronota.tsv")):
    name, wall, verts = line.rstrip("\n").split("\t")
    v[name] = (float(wall) * 1000, int(verts))
c = {}
for line in open(os.path.join(out, "counts.tsv")):
    name, balls, verts, searches, sw, same = line.rstrip("\n").split("\t")
    c[name] = (int(balls), verts, searches, sw, same)
r = {}
for part in ("jmh.csv", "jmh-large.csv", "jmh-double.csv"):
    if not os.path.exists(os.path.join(out, part)):
        continue
    for row in csv.DictReader(open(os.path.join(out, part))):
        name = os.path.basename(row["Param: input"]).rsplit(".", 1)[0]
        key = row["Param: backend"] + ("-double" if part == "jmh-double.csv" else "")
        r.setdefault(name, {})[key] = (float(row["Score"]), float(row["Score Error (99.9%)"] or 0))
balls = lambda n: c[n][0] if n in c else sum(1 for _ in open(os.path.join(out, "inputs", n + ".xyzr")))
names = sorted(r, key=balls)
fmt = lambda x: "—" if x is None else f"{x:,.1f}"
lines = ["| input | balls | vertices | Voronota ms | jvm ms | jvm-parallel ms | tornado ms | tornado double ms | Voronota / jvm-parallel | Voronota / tornado |",
         "|---|---|---|---|---|---|---|---|---|---|"]
for n in names:
    b = r[n]
    vt = v.get(n, (None, None))[0]
    cell = lambda k: ("—" if k not in b else f"{b[k][0]:,.1f}" + (f" ± {b[k][1]:,.1f}" if b[k][1] == b[k][1] else ""))
    ratio = lambda k: f"{vt / b[k][0]:.2f}×" if vt and k in b else "—"
    verts = c[n][1] if n in c else (str(v[n][1]) if n in v else "—")
    lines.append(f"| {n} | {balls(n):,} | {verts} | {fmt(vt)} | {cell('jvm')} | {cell('jvm-parallel')} | {cell('tornado')} | {cell('tornado-double')} | {ratio('jvm-parallel')} | {ratio('tornado')} |")
lines += ["", f"Two-phase search ({swaps}): end-vertex searches and float->double swaps (the paper's Table 8.2); "
          "'same as Voronota': equal sets of vertex quadruples.", "",
          "| input | balls | vertices | searches (v_e) | swaps | % | same as Voronota |", "|---|---|---|---|---|---|---|"]
for n in sorted(c, key=balls):
    bl, verts, searches, sw, same = c[n]
    pct = f"{100.0 * int(sw) / int(searches):.2f}" if sw and searches and int(searches) else "—"
    lines.append(f"| {n} | {bl:,} | {verts} | {searches} | {sw} | {pct} | {same or '—'} |")
table = "\n".join(lines)
open(os.path.join(out, "table.md"), "w").write(table + "\n")
print(table)
PY
