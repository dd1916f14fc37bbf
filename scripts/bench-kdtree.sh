#!/usr/bin/env bash
# The kd-tree benchmark tables (docs/benchmarks.md, "SAH kd-tree"), in one run, on every backend:
#   1. build time per builder (JMH KdTreeBenchmark.build: jvm O(N log^2 N), jvm O(N log N), jvm-parallel, the same
#      with binned SAH for nodes of >= 1024 references, tornado) and the tree's SAH cost and size, per input;
#   2. build time against N (random triangles), to find where the device overtakes the CPU (thesis Fig. 6.10);
#   3. the thesis's Table 6.1: the four per-node kernels on the root node of 10^6 random triangles, CPU (jvm,
#      one thread) against the device with and without copies (accelgeom kdtree build --steps);
#   4. primary + shadow rays per second at 1920x1080 (accelgeom render, jvm-parallel).
#
#   scripts/bench-kdtree.sh [--cases "random:100000 sphere:100000 dragon"] [--sizes "1000 10000 100000 1000000"]
#                           [--builders "jvm-nlog2n jvm-nlogn jvm-parallel jvm-parallel-binned tornado"] [--steps-n 1000000]
#                           [--jmh "-wi 2 -i 3 -f 1 -w 1s -r 1s"] [--serial-max 300000] [--out DIR] [--no-tornado]
#
# Cases: random:N, sphere:N, a mesh file, or the names dragon / bunny for data/meshes/dragon_vrip.ply.gz and
# data/meshes/bunny00.off (scripts/fetch-datasets.sh dragon bunny; missing ones are skipped with a note).
# The one-thread jvm builders run only on inputs of at most --serial-max triangles (they take minutes beyond).
# Output: DIR/table.md (default target/bench-kdtree) and the raw JMH CSV and CLI logs next to it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

cases="random:100000 sphere:100000 bunny dragon"
sizes="1000 10000 100000 1000000"
builders="jvm-nlog2n jvm-nlogn jvm-parallel jvm-parallel-binned tornado"
steps_n=1000000
jmh="-wi 2 -i 3 -f 1 -w 1s -r 1s"
serial_max=300000
out="$ACCELGEOM_ROOT/target/bench-kdtree"
tornado=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --cases) cases=$2; shift 2 ;;
        --sizes) sizes=$2; shift 2 ;;
        --builders) builders=$2; shift 2 ;;
        --steps-n) steps_n=$2; shift 2 ;;
        --jmh) jmh=$2; shift 2 ;;
        --serial-max) serial_max=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --no-tornado) tornado=0; shift ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "bench-kdtree.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
if [[ $tornado == 0 ]]; then
    builders=$(tr ' ' '\n' <<<"$builders" | grep -v '^tornado$' | tr '\n' ' ')
fi
mkdir -p "$out"
acc="$ACCELGEOM_ROOT/scripts/accelgeom"
export ACCELGEOM_JAVA_OPTS="${ACCELGEOM_JAVA_OPTS:-} -Daccelgeom.tornado.profiler=${ACCELGEOM_PROFILER:-true}"

# input spec -> the CLI's source options; "" if missing
resolve() {
    case "$1" in
        dragon) [[ -s "$ACCELGEOM_ROOT/data/meshes/dragon_vrip.ply.gz" ]] && echo "--input $ACCELGEOM_ROOT/data/meshes/dragon_vrip.ply.gz" ;;
        bunny) [[ -s "$ACCELGEOM_ROOT/data/meshes/bunny00.off" ]] && echo "--input $ACCELGEOM_ROOT/data/meshes/bunny00.off" ;;
        random:*|sphere:*) echo "--scene $1" ;;
        *) [[ -s "$1" ]] && echo "--input $1" ;;
    esac
    return 0
}
jmh_input() { local a; a=$(resolve "$1"); echo "${a#* }"; }
count() { # triangles of an input, from the CLI's first lines
    "$acc" kdtree build $(resolve "$1") --backend jvm-parallel --max-depth 1 --quiet | sed -n 's/^triangles: *\([0-9]*\).*/\1/p'
}

: > "$out/builds.tsv"
: > "$out/jmh-files.txt"
run_jmh() { # name input builders...
    local name=$1 input=$2; shift 2
    local list
    list=$(IFS=,; echo "$*")
    # shellcheck disable=SC2086 # $jmh is a list of JMH options
    "$acc" bench -- "KdTreeBenchmark.build" -p input="$input" -p builder="$list" $jmh -rf csv -rff "$out/jmh-$name.csv" >&2
    echo "$out/jmh-$name.csv" >> "$out/jmh-files.txt"
}

# 1. per input: JMH build times, CLI tree statistics
for c in $cases; do
    src=$(resolve "$c")
    if [[ -z "$src" ]]; then
        echo "bench-kdtree: $c not found (scripts/fetch-datasets.sh dragon bunny): skipped" >&2
        continue
    fi
    n=$(count "$c")
    bs=()
    for b in $builders; do
        if [[ $b == jvm-nlog* && $n -gt $serial_max ]]; then continue; fi
        bs+=("$b")
    done
    for b in "${bs[@]}"; do
        case $b in
            jvm-nlog2n) opts="--backend jvm --variant nlog2n" ;;
            jvm-nlogn) opts="--backend jvm --variant nlogn" ;;
            jvm-parallel-binned) opts="--backend jvm-parallel --binned 1024" ;;
            *) opts="--backend $b" ;;
        esac
        # shellcheck disable=SC2086
        log=$("$acc" kdtree build $src $opts --quiet)
        echo "$log" > "$out/build-${c//[:\/]/_}-$b.log"
        sah=$(sed -n 's/.*SAH cost \([0-9.]*\).*/\1/p' <<<"$log")
        nodes=$(sed -n 's/^tree: .*nodes \([0-9]*\).*/\1/p' <<<"$log")
        depth=$(sed -n 's/.*depth \([0-9]*\),.*/\1/p' <<<"$log")
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$n" "$b" "$sah" "$nodes" "$depth" >> "$out/builds.tsv"
    done
    run_jmh "${c//[:\/]/_}" "$(jmh_input "$c")" "${bs[@]}"
done

# 2. build time against N
for n in $sizes; do
    bs=()
    for b in jvm-nlog2n jvm-parallel tornado; do
        if [[ " $builders " != *" $b "* ]]; then continue; fi
        if [[ $b == jvm-nlog2n && $n -gt $serial_max ]]; then continue; fi
        bs+=("$b")
    done
    run_jmh "size-$n" "random:$n" "${bs[@]}"
done

# 3. Table 6.1 on the root node
: > "$out/steps.tsv"
for b in jvm jvm-parallel $([[ $tornado == 1 ]] && echo tornado); do
    "$acc" kdtree build --scene "random:$steps_n" --backend "$b" --steps 5 --quiet > "$out/steps-$b.log"
    sed -n 's/^  \(.*[^ ]\)  *\(host\|upload\|kernel\|download\) *\([0-9.]*\) ms.*/\1\t\2\t\3/p' "$out/steps-$b.log" \
        | sed "s/^/$b\t/" >> "$out/steps.tsv"
done

# 3b. the per-node kernels against N on the root node (the thesis's Fig. 6.10 crossover)
: > "$out/steps-n.tsv"
for n in $sizes; do
    for b in jvm $([[ $tornado == 1 ]] && echo tornado); do
        "$acc" kdtree build --scene "random:$n" --backend "$b" --steps 5 --quiet > "$out/steps-$n-$b.log"
        sed -n 's/^  \(K[1-4][^ ]*\).*  *\(host\|upload\|kernel\|download\) *\([0-9.]*\) ms.*/\2\t\3/p' "$out/steps-$n-$b.log" \
            | sed "s/^/$n\t$b\t/" >> "$out/steps-n.tsv"
    done
done

# 4. rays per second
: > "$out/render.tsv"
for c in $cases; do
    src=$(resolve "$c")
    [[ -z "$src" ]] && continue
    # shellcheck disable=SC2086
    log=$("$acc" render $src --width 1920 --height 1080 --backend jvm-parallel --repeat 3 --quiet)
    echo "$log" > "$out/render-${c//[:\/]/_}.log"
    line=$(grep '^run 3/3' <<<"$log")
    mrays=$(sed -n 's/.*: \([0-9.]*\) Mrays\/s.*/\1/p' <<<"$line")
    steps=$(sed -n 's/.*Mrays\/s, \([0-9.]*\) nodes and \([0-9.]*\) triangle.*/\1\t\2/p' <<<"$line")
    printf '%s\t%s\t%s\n' "$c" "$mrays" "$steps" >> "$out/render.tsv"
done

python3 - "$out" "$steps_n" <<'PY'
import csv, os, sys
out, steps_n = sys.argv[1], int(sys.argv[2])
jmh = {}
for f in open(os.path.join(out, "jmh-files.txt")).read().split():
    for row in csv.DictReader(open(f)):
        jmh[(row["Param: input"], row["Param: builder"])] = (float(row["Score"]), float(row["Score Error (99.9%)"] or 0))
def score(inp, b):
    for (i, bb), v in jmh.items():
        if bb == b and (i == inp or os.path.basename(i) == os.path.basename(inp) or i.endswith(inp)):
            return v
    return None
cell = lambda v: "—" if v is None else f"{v[0]:,.1f} ± {v[1]:,.1f}"
lines = ["### Build time and tree quality per builder", "",
         "| input | triangles | builder | build ms (JMH) | SAH cost | nodes | depth |", "|---|---|---|---|---|---|---|"]
names = {"dragon": "dragon_vrip.ply.gz", "bunny": "bunny00.off"}
for line in open(os.path.join(out, "builds.tsv")):
    c, n, b, sah, nodes, depth = line.rstrip("\n").split("\t")
    key = names.get(c, c)
    lines.append(f"| {c} | {int(n):,} | {b} | {cell(score(key, b))} | {sah} | {int(nodes):,} | {depth} |")
lines += ["", "### Build time against N (random triangles; ms, JMH)", "", "| N | jvm O(N log² N) | jvm-parallel | tornado | tornado / jvm-parallel |", "|---|---|---|---|---|"]
sizes = sorted({int(i.split(":")[1]) for (i, b) in jmh if i.startswith("random:")})
for n in sizes:
    i = f"random:{n}"
    a, p, t = jmh.get((i, "jvm-nlog2n")), jmh.get((i, "jvm-parallel")), jmh.get((i, "tornado"))
    ratio = f"{t[0] / p[0]:.2f}" if p and t else "—"
    lines.append(f"| {n:,} | {cell(a)} | {cell(p)} | {cell(t)} | {ratio} |")
steps = {}
for line in open(os.path.join(out, "steps.tsv")):
    b, name, kind, ms = line.rstrip("\n").split("\t")
    steps.setdefault(b, []).append((name, kind, float(ms) / 5))
def cpu(b, prefix):
    return sum(ms for name, kind, ms in steps.get(b, []) if name.startswith(prefix))
def gpu(prefix, kinds):
    return sum(ms for name, kind, ms in steps.get("tornado", []) if name.startswith(prefix) and kind in kinds)
lines += ["", f"### Thesis Table 6.1: per-node kernels on the root node of {steps_n:,} random triangles (ms per run, mean of 5)", "",
          "| step | CPU jvm (1 thread) | CPU jvm-parallel | device with copies | device kernel only | speedup with copies | speedup kernel only |",
          "|---|---|---|---|---|---|---|"]
for label, prefix in [("K1 events", "K1"), ("K2 counts", "K2"), ("K3 SAH", "K3"), ("K4 arg-min", "K4"), ("sort + plane list (host, all)", "sort"), ("", "list")]:
    if not label:
        continue
    c1 = cpu("jvm", prefix) + (cpu("jvm", "list") if prefix == "sort" else 0)
    cp = cpu("jvm-parallel", prefix) + (cpu("jvm-parallel", "list") if prefix == "sort" else 0)
    if prefix == "sort":
        lines.append(f"| {label} | {c1:.2f} | {cp:.2f} | — | — | — | — |")
        continue
    w = gpu(prefix, {"kernel", "upload", "download", "host"})
    k = gpu(prefix, {"kernel"})
    sw = f"{c1 / w:.2f}×" if w else "—"
    sk = f"{c1 / k:.2f}×" if k else "—"
    lines.append(f"| {label} | {c1:.2f} | {cp:.2f} | {w:.2f} | {k:.2f} | {sw} | {sk} |")
cross = {}
for line in open(os.path.join(out, "steps-n.tsv")):
    n, b, kind, ms = line.rstrip("\n").split("\t")
    d = cross.setdefault(int(n), {})
    d[(b, "all")] = d.get((b, "all"), 0) + float(ms) / 5
    if kind == "kernel":
        d[(b, "kernel")] = d.get((b, "kernel"), 0) + float(ms) / 5
lines += ["", "### Per-node kernels K1–K4 on the root node against N (ms per run; thesis Fig. 6.10)", "",
          "| N | CPU jvm (1 thread) | device with copies | device kernel only | CPU / device with copies |", "|---|---|---|---|---|"]
for n in sorted(cross):
    d = cross[n]
    c, w, k = d.get(("jvm", "all")), d.get(("tornado", "all")), d.get(("tornado", "kernel"))
    f = lambda v: "—" if v is None else f"{v:.2f}"
    lines.append(f"| {n:,} | {f(c)} | {f(w)} | {f(k)} | {f'{c / w:.2f}×' if c and w else '—'} |")
lines += ["", "### Ray casting at 1920×1080 (primary + shadow rays, jvm-parallel)", "",
          "| input | Mrays/s | nodes / ray | triangle tests / ray |", "|---|---|---|---|"]
for line in open(os.path.join(out, "render.tsv")):
    p = line.rstrip("\n").split("\t")
    lines.append(f"| {p[0]} | {p[1]} | {p[2] if len(p) > 2 else '—'} | {p[3] if len(p) > 3 else '—'} |")
table = "\n".join(lines)
open(os.path.join(out, "table.md"), "w").write(table + "\n")
print(table)
PY
