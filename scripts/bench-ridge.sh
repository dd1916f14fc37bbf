#!/usr/bin/env bash
# The ridge-detection benchmark table (the thesis's Fig. 4.11 and its scaling figures): JMH's RidgeBenchmark on
# every backend in one run, then a Markdown table of mean [min, max] times per case with the speedups.
#
#   scripts/bench-ridge.sh [--cases "spiral3d:1000000 spiral2d:1000000"] [--versions "brute tiled"]
#                          [--backends "jvm-parallel tornado"] [--precision float] [--sigma 4.17 --r1 8.34]
#                          [--tiles 3|16x1 --capacity 200000|0.2n] [--jmh-cpu "-wi 0 -i 1"] [--jmh-gpu "-wi 1 -i 5"]
#                          [--out DIR]
#
# Cases are curve:N[:DIM] (generated, seed 42) or point files. CPU backends run single shots (a 10^6-point run
# takes minutes on the JVM: the evolution iterates to a fixed point, thousands of times); tornado gets a warm-up
# shot (TornadoVM's compilation, the upload) and timed shots with the cloud resident on the device (the thesis's
# GPU timings exclude transfers). One `accelgeom ridge` run per case (on tornado if listed, else the last
# backend) prints |S|, the iterations and the quality into DIR/runs.txt. TornadoVM's profiler is off for the run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

cases="spiral3d:1000000 spiral2d:1000000"
versions="brute tiled"
backends="jvm-parallel tornado"
precision=float
sigma=4.17
r1=8.34
tiles=3
capacity=200000
jmh_cpu="-wi 0 -i 1"
jmh_gpu="-wi 1 -i 5"
out="$ACCELGEOM_ROOT/target/bench-ridge"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --cases) cases=$2; shift 2 ;;
        --versions) versions=$2; shift 2 ;;
        --backends) backends=$2; shift 2 ;;
        --precision) precision=$2; shift 2 ;;
        --sigma) sigma=$2; shift 2 ;;
        --r1) r1=$2; shift 2 ;;
        --tiles) tiles=$2; shift 2 ;;
        --capacity) capacity=$2; shift 2 ;;
        --jmh-cpu) jmh_cpu=$2; shift 2 ;;
        --jmh-gpu) jmh_gpu=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "bench-ridge.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
acc="$ACCELGEOM_ROOT/scripts/accelgeom"
export ACCELGEOM_JAVA_OPTS="${ACCELGEOM_JAVA_OPTS:-} -Daccelgeom.tornado.profiler=false"
list() { local IFS=,; echo "$*"; }

rm -f "$out"/jmh-*.json
for b in $backends; do
    opts=$jmh_cpu
    [[ $b == tornado ]] && opts=$jmh_gpu
    # shellcheck disable=SC2086 # $opts is a list of JMH options
    "$acc" bench -- RidgeBenchmark -p input="$(list $cases)" -p backend="$b" -p version="$(list $versions)" \
        -p precision="$precision" -p sigma="$sigma" -p r1="$r1" -p tiles="$tiles" -p capacity="$capacity" \
        $opts -rf json -rff "$out/jmh-$b.json" >&2
done

: > "$out/runs.txt"
last=${backends##* }
[[ " $backends " == *" tornado "* ]] && last=tornado
for c in $cases; do
    IFS=: read -r curve n dim <<<"$c"
    for v in $versions; do
        extra=()
        if [[ $v == tiled ]]; then
            d=${dim:-2}; [[ $curve == spiral3d ]] && d=3; [[ $curve == spiral2d ]] && d=2
            t=$(python3 -c "import sys; t=sys.argv[1].split('x'); print(','.join(t[min(c, len(t)-1)] for c in range(int(sys.argv[2]))))" "$tiles" "$d")
            cap=$capacity; [[ $cap == *n ]] && cap=$(python3 -c "import sys; print(max(2, int(float(sys.argv[1][:-1]) * int(sys.argv[2]))))" "$cap" "$n")
            extra=(--tiled --tiles "$t" --tile-capacity "$cap")
        fi
        echo "== $c $v ($last, $precision)" >> "$out/runs.txt"
        "$acc" ridge --generate "$curve" --n "$n" --dim "${dim:-2}" --sigma "$sigma" --r1 "$r1" --seed 42 \
            --precision "$precision" --backend "$last" --no-order --quiet "${extra[@]}" >> "$out/runs.txt" 2>&1 || true
    done
done

python3 - "$out" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
r = {}
for f in glob.glob(os.path.join(out, "jmh-*.json")):
    for run in json.load(open(f)):
        p = run["params"]
        raw = [v for fork in run["primaryMetric"]["rawData"] for v in fork]
        key = (os.path.basename(p["input"]), p["version"], p["precision"])
        r.setdefault(key, {})[p["backend"]] = (sum(raw) / len(raw), min(raw), max(raw), len(raw))
cell = lambda t: "—" if t is None else f"{t[0]:,.1f} [{t[1]:,.1f}, {t[2]:,.1f}] (n={t[3]})"
lines = ["| input | version | precision | jvm ms | jvm-parallel ms | tornado ms | jvm-parallel / tornado |",
         "|---|---|---|---|---|---|---|"]
for (inp, ver, prec), b in sorted(r.items()):
    ratio = f"{b['jvm-parallel'][0] / b['tornado'][0]:.1f}×" if "jvm-parallel" in b and "tornado" in b else "—"
    lines.append(f"| {inp} | {ver} | {prec} | {cell(b.get('jvm'))} | {cell(b.get('jvm-parallel'))} | {cell(b.get('tornado'))} | {ratio} |")
table = "\n".join(lines)
open(os.path.join(out, "table.md"), "w").write(table + "\n")
print(table)
PY
