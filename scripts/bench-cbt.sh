#!/usr/bin/env bash
# The concurrent binary tree's benchmark tables (the article's §4; see docs/cbt.md): one Markdown file with
#   E6 the memory table, packed against unpacked;
#   E3 decode all leaves of a perfect tree (Fig. 11), D = depths, jvm-parallel with each thread count and tornado;
#   E2 the sum reduction against D;
#   E4/E5 the usage cycle (decode-and-update + reduction) and the update alone at 25 % fill against D (Fig. 12: D = 17);
#   E1 the sequential bitfield scan, one CPU thread against one GPU work-item (Fig. 6);
#   the packed against the unpacked layout for decode and reduction (the memory optimisation's cost).
# Every row is `accelgeom cbt --bench` (median of timed passes after warm-up; tornado: wall time of one execution
# and, from TornadoVM's profiler, the kernel time; their difference is the launch overhead, and an empty pass
# gives its floor).
#
#   scripts/bench-cbt.sh [--depths "10 15 20 25 30"] [--threads "1 2 4 8 16"] [--backends "jvm-parallel tornado"]
#                        [--jvm-max-depth 25] [--budget-ms 5000] [--jmh] [--quick] [--out DIR]
#
# --jvm-max-depth: the largest D timed on the JVM (one thread decodes 2^30 leaves in minutes: D = 30 is
# tornado-only unless raised). --jmh also runs the JMH benchmark CbtBenchmark (decode, reduce, cycle; D <= 20,
# the fewest and the most threads, tornado).
# --quick: small sizes for a local check (depths 10 12, threads 1 2, short budgets).
# CBT_JMH_OPTS: extra JMH options (e.g. "-wi 1 -i 2").
# Output: DIR/cbt.md (default DIR: target/bench-cbt), printed at the end.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

depths="10 15 20 25 30"
threads="1 2 4 8 16"
backends="jvm-parallel tornado"
jvm_max=25
budget=5000
terrain_depth=22
terrain_frames=60
jmh=0
out="$ACCELGEOM_ROOT/target/bench-cbt"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --depths) depths=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --backends) backends=$2; shift 2 ;;
        --jvm-max-depth) jvm_max=$2; shift 2 ;;
        --budget-ms) budget=$2; shift 2 ;;
        --jmh) jmh=1; shift ;;
        --quick) depths="10 12"; threads="1 2"; budget=200; jvm_max=12; terrain_depth=14; terrain_frames=3; shift ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "bench-cbt.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
acc="$ACCELGEOM_ROOT/scripts/accelgeom"
md="$out/cbt.md"
csv() { local IFS=,; echo "$*"; }
jvm_depths=()
all_depths=()
for d in $depths; do
    all_depths+=("$d")
    (( d <= jvm_max )) && jvm_depths+=("$d")
done
small_depths=()   # the scan and the unpacked layout: D <= 25
for d in $depths; do (( d <= 25 )) && small_depths+=("$d"); done
device=$( { "$acc" devices 2>/dev/null || true; } | grep -E '^ +[0-9]+:' | sed 's/^ *//' | tr '\n' ';')

# run TITLE BACKEND DEPTHS ARGS...: one `accelgeom cbt --bench` call, its rows appended to the section's table
run() {
    local backend=$1 ds=$2; shift 2
    [[ -z "$ds" ]] && return 0
    local extra=()
    [[ "$backend" == jvm-parallel ]] && extra=(--thread-counts "$(csv $threads)")
    echo "bench-cbt: $backend D=$ds $*" >&2
    # shellcheck disable=SC2068
    "$acc" cbt --backend "$backend" --depths "$ds" --budget-ms "$budget" --no-header ${extra[@]} "$@" >> "$md" \
        || echo "| (failed: $backend D=$ds $*) |" >> "$md"
}
has() { [[ " $backends " == *" $1 "* ]]; }
header() { printf '\n### %s\n\n' "$1" >> "$md"; printf '%s\n' "| experiment | D | layout | backend | leaves | reps | wall ms (median) | kernel ms (profiler, median) | launch overhead ms (wall − kernel) | empty pass ms | wall − empty pass ms (paired median) | empty pass kernel ms (profiler) | leaves/s |" "|---|---|---|---|---|---|---|---|---|---|---|---|---|" >> "$md"; }

{
    echo "## Concurrent binary tree ($(date -u +%Y-%m-%dT%H:%MZ))"
    echo
    echo "Host: $(nproc) cores, $(uname -sr). Devices: ${device:-none listed}."
    echo "Command: scripts/bench-cbt.sh --depths \"$depths\" --threads \"$threads\" --backends \"$backends\" --jvm-max-depth $jvm_max --budget-ms $budget"
    echo
    echo "### Memory (E6, §2.7)"
    echo
} > "$md"
"$acc" cbt --memory --depths "$(csv "${all_depths[@]}")" >> "$md"

header "Decode all leaves of a perfect tree (E3, Fig. 11)"
has jvm && run jvm "$(csv "${jvm_depths[@]}")" --bench decode
has jvm-parallel && run jvm-parallel "$(csv "${jvm_depths[@]}")" --bench decode
has tornado && run tornado "$(csv "${all_depths[@]}")" --bench decode

header "Sum reduction against D (E2)"
has jvm && run jvm "$(csv "${jvm_depths[@]}")" --bench reduce
has jvm-parallel && run jvm-parallel "$(csv "${jvm_depths[@]}")" --bench reduce
has tornado && run tornado "$(csv "${all_depths[@]}")" --bench reduce

header "Usage cycle and update alone at 25 % fill (E4; E5 = the D = 17 rows, Fig. 12)"
cyc=("${all_depths[@]}" 17)
cyc_jvm=("${jvm_depths[@]}")
(( 17 <= jvm_max )) && cyc_jvm+=(17)
has jvm-parallel && run jvm-parallel "$(csv "${cyc_jvm[@]}")" --bench cycle,update --fill 0.25
has tornado && run tornado "$(csv "${cyc[@]}")" --bench cycle,update --fill 0.25

header "Sequential bitfield scan, one thread (E1, Fig. 6)"
has jvm-parallel && run jvm "$(csv "${small_depths[@]}")" --bench scan --fill 1 --warmup 1
has tornado && run tornado "$(csv "${small_depths[@]}")" --bench scan --fill 1 --warmup 1

header "Unpacked layout, one int per node (compare with the packed rows above: the memory optimisation's cost)"
unp=()
for d in "${jvm_depths[@]}"; do (( d <= 25 )) && unp+=("$d"); done
has jvm-parallel && run jvm-parallel "$(csv "${unp[@]}")" --bench decode,reduce --layout unpacked
has tornado && run tornado "$(csv "${small_depths[@]}")" --bench decode,reduce --layout unpacked

printf '\n### Terrain flight (LEB over a CBT, D = %s, 1280x720, 6 px target; ms per frame: split, reduce, merge, reduce, emit, download)\n\n| backend | result |\n|---|---|\n' "$terrain_depth" >> "$md"
for b in $backends; do
    [[ "$b" == jvm ]] && continue
    echo "bench-cbt: terrain $b" >&2
    line=$("$acc" terrain --fractal 10 --max-depth "$terrain_depth" --target-pixels 6 --frames "$terrain_frames" --quiet --backend "$b" 2>/dev/null \
        | grep -E '^(flight|frame)' | tr '\n' ' ' || true)
    echo "| $b | ${line:-failed} |" >> "$md"
done

if (( jmh )); then
    # JMH keeps to D <= 20 and the fewest and most threads: each invocation is one pass, so large D take minutes
    jb=()
    has jvm && jb+=(jvm)
    if has jvm-parallel; then
        tl=($threads)
        jb+=("jvm-parallel:${tl[0]}")
        (( ${#tl[@]} > 1 )) && jb+=("jvm-parallel:${tl[${#tl[@]}-1]}")
    fi
    has tornado && jb+=(tornado)
    jd=()
    for d in "${jvm_depths[@]}"; do (( d <= 20 )) && jd+=("$d"); done
    echo "bench-cbt: JMH CbtBenchmark" >&2
    "$acc" bench -- CbtBenchmark -p depth="$(csv "${jd[@]}")" -p backend="$(csv "${jb[@]}")" \
        -p op=decode,reduce,cycle ${CBT_JMH_OPTS:-} -rf csv -rff "$out/jmh.csv" >&2 || { echo "bench-cbt: JMH failed" >&2; rm -f "$out/jmh.csv"; }
    [[ -s "$out/jmh.csv" ]] && {
        printf '\n### JMH CbtBenchmark (µs per pass, wall time)\n\n| op | D | backend | µs/op | ± |\n|---|---|---|---|---|\n'
        python3 - "$out/jmh.csv" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(f"| {r['Param: op']} | {r['Param: depth']} | {r['Param: backend']} | {float(r['Score']):,.2f} | {float(r['Score Error (99.9%)'] or 0):,.2f} |")
PY
    } >> "$md"
fi
cat "$md"
