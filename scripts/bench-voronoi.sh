#!/usr/bin/env bash
# The Voronoi benchmark table (the paper's Table 8.1, time against atom count, with Table 8.2's float->double
# swaps): the same balls through Voronota (`voronota calculate-vertices`) and `accelgeom voronoi` on every
# backend, one row per input, each row appended to DIR/table.md AS SOON AS IT IS MEASURED (a run stopped by a
# time limit keeps the rows it finished; DIR/raw.tsv gets every single measurement at once).
#
#   scripts/bench-voronoi.sh [--inputs "data/molecules/1ubq.pdb ... random:20000"] [--out DIR]
#                            [--backends "jvm jvm-parallel tornado tornado-double tornado-lanes1"]
#                            [--lanes1-inputs "4hhb 4jsv"] [--big N] [--quick]
#
# Inputs: molecule files (PDB/mmCIF/PQR/XYZR; missing ones are skipped with a note) and random:N (atom-like
# random balls, seed 42). Each is turned once into DIR/inputs/NAME.xyzr (Voronota's default atom selection and
# radii) and both tools read that file. Default inputs: 1UBQ, 1A0Q, 4HHB, 3O21, 4JSV, 6ZU5 (the proteins of
# Table 8.1 that scripts/fetch-datasets.sh fetches), smallest first.
# Columns (--backends): jvm (one thread, double), jvm-parallel (all cores, double), tornado (two-phase, 32 lanes
# per edge), tornado-double (pure double on the device), tornado-lanes1 (two-phase, one work-item per edge: the
# previous device layout, for comparison; by default only for the inputs named in --lanes1-inputs, 4HHB and 4JSV).
# Timing: `accelgeom voronoi --repeat R` in one process per (input, column): run 1 pays the JIT compilation
# (Java and TornadoVM) and is dropped, the median of runs 2..R is reported (balls read and selected beforehand;
# everything from hidden balls to the last edge included). R: 5 below 5,000 balls, 3 above (jvm: 3 / 2).
# Each tornado column pays TornadoVM's JIT compilation once per input (in run 1). Expected on 16 cores + H200 with
# the default inputs: about 6-7 minutes, most of it Voronota and jvm on 4JSV and 6ZU5.
# Inputs of --big balls or more (default 50,000: 6ZU5) skip the single-threaded jvm.
# Voronota: VORONOTA=path, else target/voronota, else `voronota` on PATH; one run, wall clock (one thread);
# its vertex set is compared with the tornado two-phase one ("same": equal sets of sorted quadruples).
# --quick: 1UBQ and 4HHB only, fewer repeats (a check that the script works).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

inputs="data/molecules/1ubq.pdb data/molecules/1a0q.pdb data/molecules/4hhb.pdb data/molecules/3o21.pdb data/molecules/4jsv.pdb data/molecules/6zu5.cif"
backends="jvm jvm-parallel tornado tornado-double tornado-lanes1"
lanes1="4hhb 4jsv"
big=50000
quick=0
out="$ACCELGEOM_ROOT/target/bench-voronoi"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --inputs) inputs=$2; shift 2 ;;
        --backends) backends=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --big) big=$2; shift 2 ;;
        --lanes1-inputs) lanes1=$2; shift 2 ;;
        --quick) quick=1; inputs="data/molecules/1ubq.pdb data/molecules/4hhb.pdb"; shift ;;
        -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
        *) echo "bench-voronoi.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$out/inputs" "$out/logs"
acc="$ACCELGEOM_ROOT/scripts/accelgeom"
voronota=${VORONOTA:-}
if [[ -z $voronota && -x "$ACCELGEOM_ROOT/target/voronota" ]]; then
    voronota="$ACCELGEOM_ROOT/target/voronota"
fi
if [[ -z $voronota ]]; then
    voronota=$(command -v voronota || true)
fi
[[ -n $voronota ]] || echo "bench-voronoi: voronota not found (VORONOTA=path, target/voronota or on PATH): its column stays empty" >&2
start=$(date +%s)
log() { echo "bench-voronoi [$(($(date +%s) - start)) s]: $*" >&2; }

# median of the run times 2..R printed by `accelgeom voronoi --repeat R` ("run k/R: X ms ...")
median_runs() {
    sed -n 's:^run \([0-9]*\)/[0-9]*\: *\([0-9.]*\) ms.*:\1 \2:p' "$1" | awk '$1 > 1 {print $2}' | sort -g |
        awk '{a[NR] = $1} END {if (NR == 0) print ""; else if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}
field() { sed -n "s/^$1 *\([0-9]*\).*/\1/p" "$2" | head -1; }
fmt() { [[ -n $1 ]] && awk -v x="$1" 'BEGIN{printf "%\047.1f", x}' || echo "—"; }
ratio() { [[ -n $1 && -n $2 ]] && awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f×", a / b}' || echo "—"; }

table="$out/table.md"
raw="$out/raw.tsv"
{
    echo "Voronoi diagram, ms per diagram (median of runs 2..R of \`accelgeom voronoi --repeat R\`; Voronota: one run,"
    echo "wall clock, one thread). $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores$(command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/^/, /')."
    echo
    echo "| input | balls | vertices | Voronota | jvm | jvm-parallel | tornado | tornado double | tornado lanes=1 | Voronota / jvm-parallel | Voronota / tornado | searches (v_e) | float→double swaps | % | same as Voronota |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
} > "$table"
printf 'input\tcolumn\tballs\tms\tlog\n' > "$raw"

for c in $inputs; do
    if [[ $c == random:* ]]; then
        name="random-${c#random:}"
        src=(--random "${c#random:}" --seed 42)
    else
        [[ $c = /* ]] || c="$ACCELGEOM_ROOT/$c"
        if [[ ! -s $c ]]; then
            log "$c not found, skipped (scripts/fetch-datasets.sh proteins fetches it)"
            continue
        fi
        name=$(basename "$c"); name=${name%.*}
        src=(--input "$c")
    fi
    f="$out/inputs/$name.xyzr"
    if [[ ! -s $f ]]; then
        "$acc" voronoi "${src[@]}" --backend jvm --quiet --only-balls --save-balls "$f" >/dev/null
    fi
    balls=$(wc -l < "$f")
    declare -A ms=()
    vt=""
    if [[ -n $voronota ]]; then
        t0=$(date +%s.%N)
        "$voronota" calculate-vertices < "$f" > "$out/$name.voronota-vertices"
        t1=$(date +%s.%N)
        vt=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b - a) * 1000}')
        printf '%s\tvoronota\t%s\t%s\t-\n' "$name" "$balls" "$vt" >> "$raw"
        log "$name ($balls balls): voronota $vt ms"
    fi
    verts="" searches="" swaps="" same=""
    for b in $backends; do
        if [[ $b == jvm && $balls -ge $big ]]; then
            continue
        fi
        if [[ $b == tornado-lanes1 && $quick == 0 && " $lanes1 " != *" $name "* ]]; then
            continue
        fi
        args=(--backend "${b%%-*}")
        case "$b" in
            jvm-parallel) args=(--backend jvm-parallel) ;;
            tornado) args+=(--precision two-phase --output "$out/$name.accelgeom-vertices") ;;
            tornado-double) args+=(--precision double) ;;
            tornado-lanes1) args+=(--precision two-phase --lanes 1) ;;
        esac
        if [[ $balls -lt 5000 ]]; then r=5; else r=3; fi
        [[ $b == jvm ]] && r=$((r - r / 2))
        [[ $quick == 1 ]] && r=3
        lf="$out/logs/$name.$b.txt"
        if "$acc" voronoi --input "$f" "${args[@]}" --repeat "$r" --timings > "$lf" 2>&1; then
            ms[$b]=$(median_runs "$lf")
            printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$b" "$balls" "${ms[$b]}" "$lf" >> "$raw"
            log "$name: $b ${ms[$b]} ms"
            if [[ $b == tornado || ( -z $verts && $b == jvm-parallel ) ]]; then
                verts=$(field "vertices:" "$lf")
            fi
            if [[ $b == tornado ]]; then
                searches=$(sed -n 's/^end-vertex searches: *\([0-9]*\).*/\1/p' "$lf")
                swaps=$(sed -n 's/^float->double swaps: *\([0-9]*\).*/\1/p' "$lf")
                if [[ -s "$out/$name.voronota-vertices" ]]; then
                    if cmp -s <(cut -d' ' -f1-4 "$out/$name.accelgeom-vertices" | sort) \
                        <(cut -d' ' -f1-4 "$out/$name.voronota-vertices" | sort); then
                        same=yes
                    else
                        same=NO
                    fi
                fi
            fi
        else
            log "$name: $b FAILED, see $lf"
            ms[$b]=""
        fi
    done
    [[ -n $verts || ! -s "$out/$name.voronota-vertices" ]] || verts=$(wc -l < "$out/$name.voronota-vertices")
    pct=""
    [[ -n $swaps && -n $searches && $searches -gt 0 ]] && pct=$(awk -v a="$swaps" -v b="$searches" 'BEGIN{printf "%.2f", 100 * a / b}')
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$(fmt "$balls" | sed 's/\.0$//')" \
        "${verts:-—}" "$(fmt "$vt")" "$(fmt "${ms[jvm]:-}")" "$(fmt "${ms[jvm-parallel]:-}")" "$(fmt "${ms[tornado]:-}")" \
        "$(fmt "${ms[tornado-double]:-}")" "$(fmt "${ms[tornado-lanes1]:-}")" "$(ratio "$vt" "${ms[jvm-parallel]:-}")" \
        "$(ratio "$vt" "${ms[tornado]:-}")" "${searches:-—}" "${swaps:-—}" "${pct:-—}" "${same:-—}" >> "$table"
    unset ms
done
log "done: $table"
cat "$table"
