#!/usr/bin/env bash
# Spark's GPU discovery script for accelgeom executors (spark.executor.resource.gpu.discoveryScript,
# spark.worker.resource.gpu.discoveryScript or, in local mode, spark.driver.resource.gpu.discoveryScript).
# Prints {"name": "gpu", "addresses": [...]}: the GPUs of this machine, each address being the TornadoVM device index
# the job computes on (org.accelgeom.spark.Placement; spark.accelgeom.gpuDevices maps other addresses).
#
# Where the addresses come from (ACCELGEOM_GPU_DISCOVERY, default auto):
#   nvidia   nvidia-smi's GPU indices (NVIDIA's OpenCL lists the GPUs in the same order, the order TornadoVM numbers
#            them in when NVIDIA's platform is its only one)
#   tornado  the devices of TornadoVM's default backend (`tornado --devices`: slower, starts a JVM; any vendor, POCL too)
#   auto     nvidia when nvidia-smi is found, else tornado when $TORNADOVM_HOME/bin/tornado is, else no GPU
# ACCELGEOM_GPUS="0 1" lists the addresses itself (e.g. to give an executor a subset), bypassing both.
set -euo pipefail

json() {
    local out="" a
    for a in "$@"; do
        out+="${out:+, }\"$a\""
    done
    printf '{"name": "gpu", "addresses": [%s]}\n' "$out"
}

if [[ -n "${ACCELGEOM_GPUS:-}" ]]; then
    # shellcheck disable=SC2086
    json $ACCELGEOM_GPUS
    exit 0
fi
mode=${ACCELGEOM_GPU_DISCOVERY:-auto}
export TORNADOVM_HOME=${TORNADOVM_HOME:-/opt/tornadovm}
tornado=$TORNADOVM_HOME/bin/tornado
if [[ $mode == auto ]]; then
    if command -v nvidia-smi >/dev/null 2>&1; then
        mode=nvidia
    elif [[ -x $tornado ]]; then
        mode=tornado
    else
        json
        exit 0
    fi
fi
case $mode in
    nvidia)
        mapfile -t ids < <(nvidia-smi --query-gpu=index --format=csv,noheader | tr -d ' ')
        json "${ids[@]}"
        ;;
    tornado)
        # `tornado --devices` prints "Tornado device=B:D" for each device; those of backend 0 are the default's
        mapfile -t ids < <("$tornado" --devices 2>/dev/null | sed -n 's/.*Tornado device=0:\([0-9][0-9]*\).*/\1/p')
        json "${ids[@]}"
        ;;
    *)
        echo "discover-gpus.sh: ACCELGEOM_GPU_DISCOVERY must be auto, nvidia or tornado, got '$mode'" >&2
        exit 1
        ;;
esac
