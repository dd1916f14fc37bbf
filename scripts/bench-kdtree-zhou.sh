#!/usr/bin/env bash
# Build time and SAH cost of the breadth-first kd-tree builder (Zhou et al. 2008; accelgeom kdtree build
# --builder zhou) on every backend, against the exact builder (jvm-parallel), for one input (default: the dragon).
# Each backend builds R times in one process (the CLI's --repeat); the first --warmup runs are warm-up (JIT; on
# tornado also TornadoVM's kernel compilation and the one upload of the triangles); the table gives the median and
# the minimum of the rest, the first run, the tree's SAH cost against the exact tree's, and the split of the last
# run's time between the large-node stage (device levels), the download and the small-node stage.
# TornadoVM's profiler is off (-Daccelgeom.tornado.profiler=false, unless ACCELGEOM_JAVA_OPTS is set): it waits for
# every kernel to read its time, which costs the dragon's build about 10 ms; so the tornado stage columns are wall
# times. `accelgeom kdtree build --timings` (profiler on) splits kernels from launch overhead.
#
#   scripts/bench-kdtree-zhou.sh [--input dragon|bunny|FILE|random:N|sphere:N] [--backends "jvm jvm-parallel tornado"]
#                                [--repeat 10] [--warmup 3] [--jvm-repeat 3] [--small 64] [--out DIR]
#
# Output: DIR/table.md (default target/bench-kdtree-zhou) and the CLI logs next to it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export ACCELGEOM_JAVA_OPTS=${ACCELGEOM_JAVA_OPTS:--Daccelgeom.tornado.profiler=false}

input=dragon
backends="jvm jvm-parallel tornado"
repeat=10
warmup=3
jvm_repeat=3
small=64
stages="bitmask exact"
out="$ACCELGEOM_ROOT/target/bench-kdtree-zhou"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --input) input=$2; shift 2 ;;
        --backends) backends=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --warmup) warmup=$2; shift 2 ;;
        --jvm-repeat) jvm_repeat=$2; shift 2 ;;
        --small) small=$2; shift 2 ;;
        --stages) stages=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) echo "bench-kdtree-zhou.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
case "$input" in
    dragon) src="--input $ACCELGEOM_ROOT/data/meshes/dragon_vrip.ply.gz" ;;
    bunny) src="--input $ACCELGEOM_ROOT/data/meshes/bunny00.off" ;;
    random:*|sphere:*) src="--scene $input" ;;
    *) src="--input $input" ;;
esac
if [[ $src == --input* && ! -s ${src#--input } ]]; then
    echo "bench-kdtree-zhou: ${src#--input } not found (scripts/fetch-datasets.sh dragon bunny)" >&2
    exit 1
fi
mkdir -p "$out"
acc="$ACCELGEOM_ROOT/scripts/accelgeom"
# the profiler's per-execution bookkeeping is not part of a build: one wall time per level instead
export ACCELGEOM_JAVA_OPTS="${ACCELGEOM_JAVA_OPTS:-} -Daccelgeom.tornado.profiler=${ACCELGEOM_PROFILER:-false}"

: > "$out/runs.tsv"
run() { # label (builder|backend), repeats, CLI options...
    local label=$1 r=$2; shift 2
    local log="$out/build-${label//|/-}.log"
    # shellcheck disable=SC2086 # $src is two words
    "$acc" kdtree build $src "$@" --repeat "$r" --timings --quiet > "$log"
    printf '%s\t%s\n' "$label" "$log" >> "$out/runs.tsv"
}
echo "bench-kdtree-zhou: exact builder (jvm-parallel) ..." >&2
run "exact|jvm-parallel" 3 --backend jvm-parallel
for st in $stages; do
    for b in $backends; do
        r=$repeat
        [[ $b == jvm ]] && r=$jvm_repeat
        echo "bench-kdtree-zhou: zhou ($st small-node stage) on $b ($r runs) ..." >&2
        run "zhou ($st)|$b" "$r" --builder zhou --small "$small" --small-stage "$st" --backend "$b"
    done
done

python3 - "$out" "$warmup" "$input" "$small" <<'PY'
import os, re, statistics, sys
out, warmup, inp, small = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
rows = []
for line in open(os.path.join(out, "runs.tsv")):
    label, log = line.rstrip("\n").split("\t")
    text = open(log).read()
    runs = [float(m) for m in re.findall(r"^run \d+/\d+: +([0-9.]+) ms", text, re.M)]
    sah = float(re.search(r"SAH cost ([0-9.]+)", text).group(1))
    nodes = int(re.search(r"nodes (\d+)", text).group(1))
    depth = int(re.search(r"depth (\d+),", text).group(1))
    tris = int(re.search(r"^triangles: +(\d+)", text, re.M).group(1))
    device = re.search(r"^backend: +(.*)$", text, re.M).group(1)
    def phase(prefix):
        return sum(float(m) for m in re.findall(r"^  " + re.escape(prefix) + r".*? ([0-9.]+) ms", text, re.M))
    warm = runs[warmup:] if len(runs) > warmup else runs[-1:]
    rows.append(dict(label=label, runs=runs, median=statistics.median(warm), best=min(warm), n=len(warm), sah=sah,
                     nodes=nodes, depth=depth, tris=tris, device=device, large=phase("large nodes:"),
                     down=phase("download"), small=phase("small nodes:"), assemble=phase("assemble")))
# "small nodes: N levels ... (total)" already holds its levels' kernels; the other "small nodes:" phases are host work
exact = rows[0]["sah"]
lines = [f"### Breadth-first builder (Zhou et al. 2008) on {inp} ({rows[0]['tris']:,} triangles), small nodes ≤ {small} references", "",
         "| builder | backend | build ms (median) | min | first run | runs | SAH cost | vs exact | nodes | depth | large-node levels ms | small-node stage ms | download ms | assemble (host) ms |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
for r in rows:
    kind, backend = r["label"].split("|", 1)
    ratio = "—" if kind == "exact" else f"{100 * (r['sah'] / exact - 1):+.2f} %"
    lines.append(f"| {kind} | {backend} | {r['median']:,.1f} | {r['best']:,.1f} | {r['runs'][0]:,.1f} | {r['n']} | {r['sah']:.3f} | {ratio} | "
                 f"{r['nodes']:,} | {r['depth']} | {r['large']:,.1f} | {r['small']:,.1f} | {r['down']:,.1f} | {r['assemble']:,.1f} |")
lines += ["", "Stage columns: the last run's phases (--timings). Devices: " + "; ".join(sorted({r['device'] for r in rows}))]
table = "\n".join(lines)
open(os.path.join(out, "table.md"), "w").write(table + "\n")
print(table)
PY
