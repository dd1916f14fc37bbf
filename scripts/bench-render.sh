#!/usr/bin/env bash
# Ray casting throughput (docs/benchmarks.md, "SAH kd-tree and ray casting"): rays per second through the SAH
# kd-tree of a mesh at a given resolution, jvm-parallel and tornado side by side, primary rays only and primary +
# shadow rays. Each case renders --warmup + --repeat times in one process (the tree is built once, a device keeps
# its compiled kernels and the tree); the table reports the median of the --repeat measured renders: the tracing
# step's time (kernels only on tornado, from TornadoVM's profiler), the same with transfers (camera up; hits,
# counters and image down), and nodes and triangle tests per ray.
#
#   scripts/bench-render.sh [--input dragon] [--size 1920x1080] [--backends "jvm-parallel tornado"]
#                           [--locals "0 128"] [--warmup 2] [--repeat 5] [--out DIR]
#
# --input: a mesh file, random:N / sphere:N, or dragon / bunny for data/meshes/dragon_vrip.ply.gz and
# data/meshes/bunny00.off (scripts/fetch-datasets.sh dragon bunny). Output: DIR/table.md (default
# target/bench-render) and the CLI logs next to it. --locals: tornado work-group sizes to try, one row each
# (-Daccelgeom.render.localSize; 0: the OpenCL driver's choice).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

input=dragon
size=1920x1080
backends="jvm-parallel tornado"
locals="0 128"
warmup=2
repeat=5
out="$ACCELGEOM_ROOT/target/bench-render"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --input) input=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --backends) backends=$2; shift 2 ;;
        --locals) locals=$2; shift 2 ;;
        --warmup) warmup=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "bench-render.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ "$size" =~ ^[0-9]+x[0-9]+$ ]] || die "bench-render.sh: --size must be WxH, got $size"
width=${size%x*}
height=${size#*x}
case "$input" in
    dragon) src=(--input "$ACCELGEOM_ROOT/data/meshes/dragon_vrip.ply.gz") ;;
    bunny) src=(--input "$ACCELGEOM_ROOT/data/meshes/bunny00.off") ;;
    random:*|sphere:*) src=(--scene "$input") ;;
    *) src=(--input "$input") ;;
esac
if [[ ${src[0]} == --input && ! -s ${src[1]} ]]; then
    die "bench-render.sh: ${src[1]} not found (scripts/fetch-datasets.sh dragon bunny)"
fi
mkdir -p "$out"
acc="$ACCELGEOM_ROOT/scripts/accelgeom"
# kernel times need TornadoVM's profiler (the default; ACCELGEOM_PROFILER=false gives one device wall time)
base_opts="${ACCELGEOM_JAVA_OPTS:-} -Daccelgeom.tornado.profiler=${ACCELGEOM_PROFILER:-true}"

runs=$((warmup + repeat))
if [[ " $backends " == *" tornado "* ]]; then
    "$acc" devices > "$out/devices.txt" 2>&1 || true
fi
: > "$out/runs.tsv"
: > "$out/failed.tsv"
rm -f "$out/tree.txt" "$out"/device-*.txt
cases=()
for b in $backends; do
    if [[ $b == tornado ]]; then
        for l in $locals; do cases+=("tornado:$l"); done
    else
        cases+=("$b:0")
    fi
done
for c in "${cases[@]}"; do
    b=${c%:*}
    local_size=${c#*:}
    name=$b
    [[ $b == tornado && $local_size != 0 ]] && name="$b-local$local_size"
    export ACCELGEOM_JAVA_OPTS="$base_opts -Daccelgeom.render.localSize=$local_size"
    for shadows in no yes; do
        flag=()
        [[ $shadows == no ]] && flag=(--no-shadows)
        log="$out/render-$name-shadows-$shadows.log"
        echo "bench-render: $input ${width}x$height $name shadows=$shadows ($runs renders)" >&2
        if ! "$acc" render "${src[@]}" --width "$width" --height "$height" --backend "$b" "${flag[@]}" --repeat "$runs" \
            --quiet > "$log" 2>&1; then
            echo "bench-render: $name shadows=$shadows failed: $(grep -m1 'error' "$log" || tail -n1 "$log")" >&2
            printf '%s\t%s\n' "$name" "$shadows" >> "$out/failed.tsv"
        fi
        # run k/R: WxH, N rays in T ms: X Mrays/s[ (kernels; with transfers T2 ms: X2 Mrays/s)], S nodes and U triangle tests per ray
        sed -n 's/^run \([0-9]*\)\/[0-9]*: [0-9x]*, \([0-9]*\) rays in \([0-9.]*\) ms: [0-9.]* Mrays\/s\(.*\), \([0-9.]*\) nodes and \([0-9.]*\) triangle.*/\1\t\2\t\3\t=\4\t\5\t\6/p' "$log" \
            | while IFS=$'\t' read -r k rays ms rest nodes tests; do
                wall=$(sed -n 's/.*with transfers \([0-9.]*\) ms.*/\1/p' <<<"$rest")
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$shadows" "$k" "$rays" "$ms" "${wall:-$ms}" "$nodes" "$tests"
            done >> "$out/runs.tsv"
        { sed -n 's/^backend: *//p' "$log" | head -1 | tr -d '\n'
          [[ $local_size != 0 ]] && echo ", work-group $local_size" || echo; } > "$out/device-$name.txt"
        tree=$(sed -n 's/^tree: *//p' "$log" | head -1)
        [[ -n $tree ]] && echo "$tree" > "$out/tree.txt"
    done
done

python3 - "$out" "$warmup" "$input" "$width" "$height" <<'PY'
import os, statistics, sys
out, warmup, inp, w, h = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
rows = {}
for line in open(os.path.join(out, "runs.tsv")):
    b, sh, k, rays, ms, wall, nodes, tests = line.rstrip("\n").split("\t")
    if int(k) > warmup:
        rows.setdefault((b, sh), []).append((int(rays), float(ms), float(wall), float(nodes), float(tests)))
dev = lambda b: open(os.path.join(out, f"device-{b}.txt")).read().strip() if os.path.exists(os.path.join(out, f"device-{b}.txt")) else b
devices = os.path.join(out, "devices.txt")
lines = [f"### Ray casting: {inp} at {w}×{h}", ""]
if os.path.exists(devices):
    lines += ["devices (tornado runs on the default one):", "```", open(devices).read().strip(), "```", ""]
lines += [
         "tree: " + (open(os.path.join(out, "tree.txt")).read().strip() if os.path.exists(os.path.join(out, "tree.txt")) else "—"), "",
         "| backend | traced | rays per render | trace ms (median) | Mrays/s | with transfers: ms | Mrays/s | nodes/ray | tests/ray |",
         "|---|---|---|---|---|---|---|---|---|"]
for (b, sh), r in rows.items():
    rays = r[0][0]
    ms = statistics.median(x[1] for x in r)
    wall = statistics.median(x[2] for x in r)
    kind = "primary" if sh == "no" else "primary + shadow"
    lines.append(f"| {dev(b)} | {kind} | {rays:,} | {ms:.3f} | {rays / ms / 1e3:,.1f} | {wall:.3f} | {rays / wall / 1e3:,.1f} | {r[0][3]:.2f} | {r[0][4]:.2f} |")
for line in open(os.path.join(out, "failed.tsv")):
    b, sh = line.rstrip("\n").split("\t")
    lines.append(f"| {b} | {'primary' if sh == 'no' else 'primary + shadow'} | failed: see render-{b}-shadows-{sh}.log | | | | | | |")
measured = len(next(iter(rows.values()))) if rows else 0
lines += ["", f"Median of {measured} renders after {warmup} warm-up renders in the same process; "
          "tornado: trace ms is the kernels' time (TornadoVM profiler), with transfers the execution's wall time "
          "(camera and parameters up; hits, distances, counters and image down; JIT compilation excluded)."]
open(os.path.join(out, "table.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
echo "bench-render: wrote $out/table.md" >&2
