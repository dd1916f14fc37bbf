#!/usr/bin/env bash
# The convex-hull benchmark table: the same input files through Qhull's qconvex and through accelgeom's JMH
# benchmark (org.accelgeom.bench.HullBenchmark) on every backend, in one run, then a Markdown table with ratios.
#
#   scripts/bench-hull.sh [--cases "ball:100000 ball:1000000 ..."] [--backends "jvm jvm-parallel tornado"]
#                         [--jmh "-wi 3 -i 5 -f 1"] [--out DIR]
#
# Inputs are written once to DIR/inputs (default target/bench-hull) by `accelgeom hull --save-points`
# (seed 42). qconvex (Debian package qhull-bin; QCONVEX=path overrides) reports "CPU seconds to compute hull
# (after input)", its own figure without parsing; we report it and its whole wall time. The JMH score is one
# Hull.compute, everything included (uploads and downloads for tornado), points already in memory.
# TornadoVM's profiler is turned off for the run (-Daccelgeom.tornado.profiler=false): it costs time of its own.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

cases="ball:100000 ball:1000000 ball:10000000 cube:100000 cube:1000000 cube:10000000 sphere:1000000"
backends="jvm jvm-parallel tornado"
jmh="-wi 3 -i 5 -f 1"
out="$ACCELGEOM_ROOT/target/bench-hull"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --cases) cases=$2; shift 2 ;;
        --backends) backends=$2; shift 2 ;;
        --jmh) jmh=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "bench-hull.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$out/inputs"
qconvex=${QCONVEX:-$(command -v qconvex || true)}
acc="$ACCELGEOM_ROOT/scripts/accelgeom"
export ACCELGEOM_JAVA_OPTS="${ACCELGEOM_JAVA_OPTS:-} -Daccelgeom.tornado.profiler=false"

inputs=()
for c in $cases; do
    dist=${c%%:*}
    n=${c##*:}
    f="$out/inputs/$dist-$n.xyz"
    if [[ ! -s "$f" ]]; then
        echo "bench-hull: writing $f" >&2
        "$acc" hull --random "$n" --distribution "$dist" --seed 42 --backend jvm --quiet --save-points "$f" >/dev/null
    fi
    inputs+=("$f")
done

: > "$out/qconvex.tsv"
if [[ -n "$qconvex" ]]; then
    for f in "${inputs[@]}"; do
        n=$(wc -l < "$f")
        { echo 3; echo "$n"; cat "$f"; } > "$out/qhull-input.txt"
        t0=$(date +%s.%N)
        stats=$("$qconvex" s < "$out/qhull-input.txt" 2>&1)
        t1=$(date +%s.%N)
        cpu=$(sed -n 's/.*CPU seconds to compute hull (after input): *\([0-9.e+-]*\).*/\1/p' <<<"$stats")
        verts=$(sed -n 's/.*Number of vertices: *\([0-9]*\).*/\1/p' <<<"$stats" | head -1)
        printf '%s\t%s\t%s\t%s\n' "$(basename "$f" .xyz)" "$cpu" "$(awk "BEGIN{print $t1 - $t0}")" "$verts" >> "$out/qconvex.tsv"
        echo "bench-hull: qconvex $(basename "$f"): ${cpu}s compute, $verts vertices" >&2
    done
    rm -f "$out/qhull-input.txt"
else
    echo "bench-hull: qconvex not found (Debian package qhull-bin, or QCONVEX=path): its columns stay empty" >&2
fi

list() { local IFS=,; echo "$*"; }
# shellcheck disable=SC2086 # $jmh is a list of JMH options
"$acc" bench -- HullBenchmark -p input="$(list "${inputs[@]}")" -p backend="$(list $backends)" \
    $jmh -rf csv -rff "$out/jmh.csv" >&2

python3 - "$out" <<'PY'
import csv, os, sys
out = sys.argv[1]
q = {}
for line in open(os.path.join(out, "qconvex.tsv")):
    name, cpu, wall, verts = line.rstrip("\n").split("\t")
    q[name] = (float(cpu) * 1000 if cpu else None, float(wall) * 1000, verts)
r = {}
for row in csv.DictReader(open(os.path.join(out, "jmh.csv"))):
    name = os.path.basename(row["Param: input"]).rsplit(".", 1)[0]
    r.setdefault(name, {})[row["Param: backend"]] = (float(row["Score"]), float(row["Score Error (99.9%)"] or 0))
fmt = lambda v: "—" if v is None else f"{v:,.1f}"
lines = ["| input | qconvex compute ms | qconvex total ms | jvm ms | jvm-parallel ms | tornado ms | qconvex / jvm-parallel | qconvex / tornado |",
         "|---|---|---|---|---|---|---|---|"]
for name, b in r.items():
    qc, qw, _ = q.get(name, (None, None, None))
    cell = lambda k: f"{b[k][0]:,.1f} ± {b[k][1]:,.1f}" if k in b else "—"
    ratio = lambda k: f"{qc / b[k][0]:.2f}×" if qc and k in b else "—"
    lines.append(f"| {name} | {fmt(qc)} | {fmt(qw)} | {cell('jvm')} | {cell('jvm-parallel')} | {cell('tornado')} | {ratio('jvm-parallel')} | {ratio('tornado')} |")
table = "\n".join(lines)
open(os.path.join(out, "table.md"), "w").write(table + "\n")
print(table)
PY
