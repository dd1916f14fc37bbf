#!/usr/bin/env bash
# Voronoi diagrams of trajectory frames (`accelgeom voronoi --trajectory`): per input a DCD of F frames (frame 1 the
# molecule's balls, the others jiggled by a Gaussian of 0.2 Å per coordinate, seed 1; written by python3), every
# backend in one process per (input, backend), one markdown row each, appended to DIR/table.md as soon as measured.
#
#   scripts/bench-voronoi-trajectory.sh [--inputs "data/molecules/1ubq.pdb data/molecules/4jsv.pdb"]
#                                       [--backends "jvm-parallel tornado"] [--frames F] [--out DIR]
#
# Columns: frame 1 (pays Java's and TornadoVM's JIT compilation: on tornado the one execution plan is built there),
# the median of frames 2..F (the plan reused: only the balls go up), the total. Inputs are turned into
# DIR/inputs/NAME.xyzr first (Voronota's default selection and radii), the trajectory is of those balls.
# Expected on 16 cores + H200 with the defaults (F = 10): about 2 minutes.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

inputs="data/molecules/1ubq.pdb data/molecules/4jsv.pdb"
backends="jvm-parallel tornado"
frames=10
out="$ACCELGEOM_ROOT/target/bench-voronoi-trajectory"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --inputs) inputs=$2; shift 2 ;;
        --backends) backends=$2; shift 2 ;;
        --frames) frames=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "bench-voronoi-trajectory.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ $frames -ge 2 ]] || { echo "bench-voronoi-trajectory.sh: --frames must be at least 2" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bench-voronoi-trajectory.sh: python3 is needed to write the DCD files" >&2; exit 2; }
mkdir -p "$out/inputs" "$out/logs"
acc="$ACCELGEOM_ROOT/scripts/accelgeom"
start=$(date +%s)
log() { echo "bench-voronoi-trajectory [$(($(date +%s) - start)) s]: $*" >&2; }

# DCD (CHARMM layout, little-endian, no unit cell) of the balls of $1 into $2: $3 frames
write_dcd() {
    python3 - "$1" "$2" "$3" <<'EOF'
import random, struct, sys
src, dst, frames = sys.argv[1], sys.argv[2], int(sys.argv[3])
xyz = [list(map(float, l.split()[:3])) for l in open(src) if l.strip()]
n = len(xyz)
rnd = random.Random(1)
def record(f, body):
    f.write(struct.pack('<i', len(body)) + body + struct.pack('<i', len(body)))
with open(dst, 'wb') as f:
    icntrl = [frames, 1, 1, frames] + [0] * 15 + [24]
    record(f, b'CORD' + struct.pack('<20i', *icntrl))
    record(f, struct.pack('<i', 1) + b'REMARKS accelgeom bench-voronoi-trajectory'.ljust(80))
    record(f, struct.pack('<i', n))
    for k in range(frames):
        moved = [[c + (0.0 if k == 0 else rnd.gauss(0, 0.2)) for c in p] for p in xyz]
        for axis in range(3):
            record(f, struct.pack('<%df' % n, *[p[axis] for p in moved]))
EOF
}

table="$out/table.md"
{
    echo "Voronoi diagrams of $frames trajectory frames, ms per frame (\`accelgeom voronoi --trajectory\`, one process per row)."
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores$(command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/^/, /')."
    echo
    echo "| input | balls | backend | frame 1 | median of frames 2..$frames | total |"
    echo "|---|---|---|---|---|---|"
} > "$table"

for c in $inputs; do
    [[ $c = /* ]] || c="$ACCELGEOM_ROOT/$c"
    if [[ ! -s $c ]]; then
        log "$c not found, skipped (scripts/fetch-datasets.sh proteins fetches it)"
        continue
    fi
    name=$(basename "$c"); name=${name%.*}
    f="$out/inputs/$name.xyzr"
    [[ -s $f ]] || "$acc" voronoi --input "$c" --backend jvm --quiet --only-balls --save-balls "$f" >/dev/null
    dcd="$out/inputs/$name-$frames.dcd"
    [[ -s $dcd ]] || write_dcd "$f" "$dcd" "$frames"
    balls=$(wc -l < "$f")
    for b in $backends; do
        lg="$out/logs/$name-$b.log"
        log "$name ($balls balls, $frames frames): $b"
        if ! "$acc" voronoi --input "$f" --trajectory "$dcd" --backend "$b" --quiet > "$lg" 2>&1; then
            log "$name $b failed: see $lg"
            echo "| $name | $balls | $b | failed | | |" >> "$table"
            continue
        fi
        first=$(sed -n 's/^frame 1: .*, \([0-9.]*\) ms$/\1/p' "$lg")
        median=$(sed -n 's/^frame \([0-9]*\): .*, \([0-9.]*\) ms$/\1 \2/p' "$lg" | awk '$1 > 1 {print $2}' | sort -g |
            awk '{a[NR] = $1} END {if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2}')
        total=$(sed -n 's/^total time: *\([0-9.]*\) ms.*/\1/p' "$lg")
        echo "| $name | $balls | $b | $first | $median | $total |" >> "$table"
    done
done
log "wrote $table"
cat "$table"
