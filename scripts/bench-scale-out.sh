#!/usr/bin/env bash
# Voronoi over several GPUs (`--devices`, docs/scale-out.md): one workload on 1, 2, 4 ... GPUs, each run a fresh
# process under `taskset` with C cores per GPU (the share of a one-GPU machine), the worker timeline on; one line
# per run (wall, the run's summary, each worker's timeline) in OUT/times.log, and every run's result files compared
# with the 1-GPU run's (diff -r).
#
#   scripts/bench-scale-out.sh --batch DIR            [options]   the files of DIR (e.g. scale-inputs.py jitter's)
#   scripts/bench-scale-out.sh --trajectory X.xyzr T.dcd [options]   the frames of a DCD (scale-inputs.py dcd)
#     --gpus "1 2 4"            GPU counts (devices 0..n-1)
#     --cores-per-gpu 16        taskset -c 0..(C*n-1); 0: no taskset
#     --modes "auto processes"  -Daccelgeom.devices.workers (auto, the default: voronoi's worker threads, one JVM;
#                               processes: one worker JVM per GPU, each on its share of the CPUs)
#     --out DIR                 (default target/bench-scale-out)
# ACCELGEOM_JAVA_OPTS is passed on (add -Daccelgeom.kernelCache.dir=... to share a kernel cache). The 1-GPU run
# comes first and is also the kernel cache's warm-up for the others' plans: run the script twice for cached figures.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
gpus="1 2 4"; cores=16; modes="auto"; out="$ACCELGEOM_ROOT/target/bench-scale-out"; batch=""; mol=""; dcd=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --batch) batch=$2; shift 2 ;;
        --trajectory) mol=$2; dcd=$3; shift 3 ;;
        --gpus) gpus=$2; shift 2 ;;
        --cores-per-gpu) cores=$2; shift 2 ;;
        --modes) modes=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "bench-scale-out.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ -n $batch || -n $dcd ]] || { echo "bench-scale-out.sh: give --batch DIR or --trajectory X.xyzr T.dcd" >&2; exit 2; }
mkdir -p "$out/logs"
acc="$ACCELGEOM_ROOT/scripts/accelgeom"
opts="${ACCELGEOM_JAVA_OPTS:-} -Daccelgeom.devices.timeline=true"
first=""
for mode in $modes; do
    for n in $gpus; do
        label="$mode-$n"; res="$out/res-$label"; rm -rf "$res"; mkdir -p "$res"
        list=$(seq -s, 0 $((n - 1)))
        pin=(); [[ $cores -gt 0 ]] && pin=(taskset -c "0-$((cores * n - 1))")
        if [[ -n $batch ]]; then args=(--input "$batch" --output "$res"); else args=(--input "$mol" --trajectory "$dcd" --output "$res/frame.vertices"); fi
        t0=$(date +%s%N)
        rc=0; ACCELGEOM_JAVA_OPTS="$opts -Daccelgeom.devices.workers=$mode" "${pin[@]}" "$acc" voronoi "${args[@]}" \
            --backend tornado --quiet --devices "$list" > "$out/logs/$label.txt" 2>&1 || rc=$?
        t1=$(date +%s%N)
        same=""; if [[ -z $first ]]; then first=$res; elif diff -rq "$first" "$res" > /dev/null; then same=", files = $(basename "$first")'s"; else same=", FILES DIFFER from $(basename "$first")'s"; fi
        { echo "$label: wall $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", (b-a)/1e9}') s, rc $rc$same :: $(grep -E '^(batch:|total time|backend)' "$out/logs/$label.txt" | tail -2 | tr -s ' ' | tr '\n' ' ')"
          grep -A"$n" '^devices timeline' "$out/logs/$label.txt" || true; } | tee -a "$out/times.log"
    done
done
