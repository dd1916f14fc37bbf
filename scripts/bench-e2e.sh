#!/usr/bin/env bash
# One-shot wall time: every command as a user runs it once (a fresh process, from the shell), beside the peer
# on the same files (Qhull's qconvex, Debian qhull-bin; Voronota, Debian voronota), the first process of the
# script (on a fresh machine: the first after boot, no JIT or driver caches) apart from later ones, and the
# throughput of batches (many inputs in one process) against the peer run once per file.
#
#   scripts/bench-e2e.sh [--backends "jvm-parallel tornado"] [--hull-sizes "100000 1000000 10000000"]
#                        [--molecules "FILE..."] [--meshes "FILE..."] [--later R] [--hull-batch N]
#                        [--protein-dir DIR] [--protein-batch N] [--tornado-batch N] [--out DIR] [--work DIR]
#                        [--quick] [--report-only]
#
# Writes DIR/raw.tsv (task, tool, run, size, seconds, file), DIR/batch.tsv, DIR/e2e.md (Markdown tables: the first
# process, the median of the later ones, the peer/ours ratio) and DIR/plots/*.png (log-log: wall time against input
# size per backend and peer, drawn by org.accelgeom.cli.WallTimePlot). Default DIR: target/bench-e2e.
# Inputs: hull points generated with `hull --random N --save-points` (seed 42, ball); molecules and meshes from
# data/ (scripts/fetch-datasets.sh proteins bunny dragon); the protein batch from --protein-dir (PDB or PDB.gz files,
# e.g. theseus-examples' ldh chains). --tornado-batch N: the tornado batches take only the first N inputs (each input
# of another size still builds a plan). Inputs and results go to --work (default DIR/work); --report-only redraws the
# tables and plots from DIR/raw.tsv. ACCELGEOM=command overrides scripts/accelgeom; QCONVEX, VORONOTA the peers.
set -uo pipefail
if [[ -f "$(dirname "${BASH_SOURCE[0]}")/lib.sh" ]]; then
    source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
else
    source scripts/lib.sh # the script copied elsewhere, run from the repository root
fi
cd "$ACCELGEOM_ROOT"

backends="jvm-parallel tornado"
hull_sizes="100000 1000000 10000000"
molecules="data/molecules/1ubq.pdb data/molecules/4hhb.pdb data/molecules/3o21.pdb data/molecules/4jsv.pdb"
meshes="data/meshes/bunny.obj data/meshes/armadillo.off data/meshes/dragon_vrip.ply.gz"
later=2
hull_batch=100
protein_dir=""
protein_batch=100
out=target/bench-e2e
work=""
tornado_batch=0
report_only=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --backends) backends=$2; shift ;;
        --hull-sizes) hull_sizes=$2; shift ;;
        --molecules) molecules=$2; shift ;;
        --meshes) meshes=$2; shift ;;
        --later) later=$2; shift ;;
        --hull-batch) hull_batch=$2; shift ;;
        --protein-dir) protein_dir=$2; shift ;;
        --protein-batch) protein_batch=$2; shift ;;
        --out) out=$2; shift ;;
        --work) work=$2; shift ;;
        --tornado-batch) tornado_batch=$2; shift ;;
        --report-only) report_only=1 ;;
        --quick) hull_sizes="10000 100000"; molecules="data/molecules/1ubq.pdb"; meshes="data/meshes/bunny.obj"
                 later=1; hull_batch=5; protein_batch=5 ;;
        -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-e2e: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
acc=${ACCELGEOM:-$ACCELGEOM_ROOT/scripts/accelgeom}
qconvex=${QCONVEX:-$(command -v qconvex || true)}
voronota=${VORONOTA:-$(command -v voronota || true)}
work=${work:-$out/work}
mkdir -p "$out" "$work/in" "$work/res"
raw=$out/raw.tsv
if [[ $report_only == 0 ]]; then
printf 'task\ttool\trun\tsize\tseconds\tfile\n' > "$raw"
printf 'task\ttool\tinputs\tseconds\tinputs_per_s\n' > "$out/batch.tsv"
log() { echo "bench-e2e: $*" >&2; }
now() { date +%s%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.3f", (b - a) / 1e9}'; }

# one fresh process: wall time in seconds on stdout; its own output in $work/res/last.log
timed() {
    local t0 t1
    t0=$(now)
    "$@" > "$work/res/last.log" 2>&1
    local rc=$?
    t1=$(now)
    [[ $rc -eq 0 ]] || { log "FAILED ($rc): $* -- $(tail -2 "$work/res/last.log" | tr '\n' ' ')"; echo "NA"; return; }
    secs "$t0" "$t1"
}
# record TASK TOOL SIZE FILE CMD...: the first process of the tool on this task, then $later more
declare -A seen=()
record() {
    local task=$1 tool=$2 size=$3 file=$4; shift 4
    local runs=$((later + 1)) k run
    for ((k = 0; k < runs; k++)); do
        run=later
        if [[ -z ${seen[$task/$tool]:-} ]]; then run=first; seen[$task/$tool]=1; fi
        s=$(timed "$@")
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$task" "$tool" "$run" "$size" "$s" "$(basename "$file")" >> "$raw"
        log "$task $tool $run $(basename "$file") ($size): $s s"
    done
}
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name --format=csv,noheader | sed 's/^/bench-e2e: GPU: /' >&2
log "$(nproc) cores; backends: $backends; peers: qconvex=${qconvex:-none} voronota=${voronota:-none}"

# ---- inputs: hull point files (text, 17 significant digits, as --save-points writes them) and qhull's copies
for n in $hull_sizes; do
    f=$work/in/ball-$n.xyz
    [[ -s $f ]] || "$acc" hull --random "$n" --distribution ball --seed 42 --backend jvm --quiet --save-points "$f" > /dev/null 2>&1
    if [[ -n $qconvex && ! -s $f.qh ]]; then { echo 3; wc -l < "$f"; cat "$f"; } > "$f.qh"; fi
done

# ---- one-shot runs, the peer first (its own first process is its cold one)
for n in $hull_sizes; do
    f=$work/in/ball-$n.xyz
    [[ -n $qconvex ]] && record hull qconvex "$n" "$f" "$qconvex" s TI "$f.qh"
    for b in $backends; do
        record hull "$b" "$n" "$f" "$acc" hull --input "$f" --backend "$b" --quiet --output "$work/res/hull-$b-$n.ply"
    done
done
for m in $molecules; do
    [[ -s $m ]] || { log "no $m (scripts/fetch-datasets.sh proteins)"; continue; }
    name=$(basename "$m"); name=${name%%.*}
    balls=$("$acc" voronoi --input "$m" --backend jvm --only-balls --quiet 2>/dev/null | awk '/^balls:/{print $2}')
    if [[ -n $voronota && $m == *.pdb ]]; then
        record voronoi voronota "$balls" "$m" bash -c "'$voronota' get-balls-from-atoms-file < '$m' | '$voronota' calculate-vertices > '$work/res/$name.voronota'"
    fi
    for b in $backends; do
        record voronoi "$b" "$balls" "$m" "$acc" voronoi --input "$m" --backend "$b" --quiet --output "$work/res/$name-$b.vertices"
    done
done
# ---- batches: the hulls of $hull_batch files of 10^6 points, the Voronoi diagrams of $protein_batch proteins
batch() { # TASK TOOL INPUTS CMD...
    local task=$1 tool=$2 count=$3; shift 3
    local s
    s=$(timed "$@")
    [[ $s == NA ]] && grep -q "batch: " "$work/res/last.log" && s=$(awk '/^batch: /{print $6}' "$work/res/last.log")
    printf '%s\t%s\t%s\t%s\t%s\n' "$task" "$tool" "$count" "$s" "$(awk -v n="$count" -v s="$s" 'BEGIN{if (s > 0) printf "%.2f", n / s; else print "NA"}')" >> "$out/batch.tsv"
    log "batch $task $tool: $count inputs, $s s"
}
if [[ $hull_batch -gt 0 ]]; then
    hb=$work/in/hull-batch
    mkdir -p "$hb"
    # ten distinct point sets (seeds 1..10), each in hull_batch/10 files (at least one)
    distinct=$(( hull_batch < 10 ? hull_batch : 10 ))
    for ((s = 1; s <= distinct; s++)); do
        f=$hb/p$(printf %03d "$s").xyz
        [[ -s $f ]] || "$acc" hull --random 1000000 --seed "$s" --backend jvm --quiet --save-points "$f" > /dev/null 2>&1 &
        if (( s % 4 == 0 )); then wait; fi
    done
    wait
    for ((k = distinct + 1; k <= hull_batch; k++)); do
        src=$hb/p$(printf %03d $(( (k - 1) % distinct + 1 ))).xyz
        [[ -e $hb/p$(printf %03d "$k").xyz ]] || cp "$src" "$hb/p$(printf %03d "$k").xyz"
    done
    if [[ -n $qconvex ]]; then
        for f in "$hb"/*.xyz; do [[ -s $f.qh ]] || { echo 3; wc -l < "$f"; cat "$f"; } > "$f.qh"; done
        batch "hull, $hull_batch files of 10^6 points" qconvex "$hull_batch" bash -c "for f in '$hb'/*.qh; do '$qconvex' s TI \"\$f\" > /dev/null || exit 1; done"
    fi
    for b in $backends; do
        rm -rf "$work/res/hb-$b"
        if [[ $b == tornado && $tornado_batch -gt 0 && $tornado_batch -lt $hull_batch ]]; then
            batch "hull, $tornado_batch files of 10^6 points" "$b" "$tornado_batch" "$acc" hull --input \
                $(ls "$hb"/*.xyz | head -n "$tornado_batch") --output "$work/res/hb-$b" --backend "$b" --quiet
        else
            batch "hull, $hull_batch files of 10^6 points" "$b" "$hull_batch" "$acc" hull --input "$hb/*.xyz" --output "$work/res/hb-$b" --backend "$b" --quiet
        fi
    done
fi
if [[ -n $protein_dir && $protein_batch -gt 0 ]]; then
    pb=$work/in/proteins
    mkdir -p "$pb"
    for f in $(ls "$protein_dir"/*.pdb* | head -n "$protein_batch"); do
        g=$pb/$(basename "${f%.gz}")
        [[ -s $g ]] || { if [[ $f == *.gz ]]; then gunzip -c "$f" > "$g"; else cp "$f" "$g"; fi; }
    done
    count=$(ls "$pb" | wc -l)
    if [[ -n $voronota ]]; then
        batch "voronoi, $count proteins" voronota "$count" bash -c "for f in '$pb'/*.pdb; do '$voronota' get-balls-from-atoms-file < \"\$f\" | '$voronota' calculate-vertices > /dev/null || exit 1; done"
    fi
    for b in $backends; do
        rm -rf "$work/res/pb-$b"
        if [[ $b == tornado && $tornado_batch -gt 0 && $tornado_batch -lt $count ]]; then
            batch "voronoi, $tornado_batch proteins" "$b" "$tornado_batch" "$acc" voronoi --input \
                $(ls "$pb"/*.pdb | head -n "$tornado_batch") --output "$work/res/pb-$b" --backend "$b" --quiet
        else
            batch "voronoi, $count proteins" "$b" "$count" "$acc" voronoi --input "$pb" --output "$work/res/pb-$b" --backend "$b" --quiet
        fi
    done
fi

# ---- the other commands (no peer)
for m in $meshes; do
    [[ -s $m ]] || { log "no $m (scripts/fetch-datasets.sh bunny dragon)"; continue; }
    tris=$("$acc" kdtree build --input "$m" --backend jvm-parallel --quiet 2>/dev/null | awk '/^triangles:/{print $2}')
    for b in $backends; do
        builder=exact; [[ $b == tornado ]] && builder=zhou
        record "kdtree build" "$b" "$tris" "$m" "$acc" kdtree build --input "$m" --backend "$b" --builder "$builder" --quiet
        record render "$b" "$tris" "$m" "$acc" render --input "$m" --backend "$b" --width 1920 --height 1080 --quiet --output "$work/res/render-$b.png"
    done
done
for b in $backends; do
    record ridge "$b" 100000 spiral3d "$acc" ridge --generate spiral3d --n 100000 --tiled --backend "$b" --quiet
done

fi # report_only

# ---- tables and plots
python3 - "$raw" "$out/batch.tsv" > "$out/e2e.md" <<'EOF'
import sys, statistics, collections
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][1:]
first, later = {}, collections.defaultdict(list)
order = []
for task, tool, run, size, s, f in rows:
    key = (task, f, size)
    if key not in order:
        order.append(key)
    if s == "NA":
        continue
    if run == "first":
        first[(task, f, size, tool)] = float(s)
    else:
        later[(task, f, size, tool)].append(float(s))
tools = []
for r in rows:
    if r[1] not in tools:
        tools.append(r[1])
def cell(k):
    a = first.get(k)
    b = statistics.median(later[k]) if later.get(k) else None
    if a is None and b is None:
        return "-"
    fa = "%.2f" % a if a is not None else "-"
    fb = "%.2f" % b if b is not None else "-"
    return fa + " / " + fb
print("One-shot wall time in seconds, one fresh process per run: first process of the script / median of the later ones.\n")
print("| task | input | size | " + " | ".join(tools) + " |")
print("|---|---|---|" + "---|" * len(tools))
for task, f, size in order:
    print("| %s | %s | %s | %s |" % (task, f, size, " | ".join(cell((task, f, size, t)) for t in tools)))
print("\nBatches (one process for all inputs; the peer once per file):\n")
print("| batch | tool | inputs | seconds | inputs/s |")
print("|---|---|---|---|---|")
for l in list(open(sys.argv[2]))[1:]:
    print("| " + " | ".join(l.rstrip("\n").split("\t")) + " |")
EOF
if jar_has_tornado; then
    find_jdk "$(sed -n 's:.*<tornado.release>\(.*\)</tornado.release>.*:\1:p' pom.xml)"
else
    find_jdk 21
fi
jar=${ACCELGEOM_PLOT_JAR:-$ACCELGEOM_JAR}
"${JAVA_HOME:+$JAVA_HOME/bin/}java" -Djava.awt.headless=true -cp "$jar" org.accelgeom.cli.WallTimePlot "$raw" "$out/plots" >&2 \
    || log "no plots (needs Java 21+ and $jar)"
cat "$out/e2e.md"
