#!/usr/bin/env bash
# Makes a JAVA_HOME for Spark workers whose executors each see only the GPU Spark gave them:
#   spark/bin/gpu-java-home.sh JDK DIR      (then JAVA_HOME=DIR for spark-submit / the standalone workers)
# DIR mirrors the JDK (links) but for bin/java, which reads the executor's --resourcesFile (the addresses Spark's
# resource scheduling gave it), sets CUDA_VISIBLE_DEVICES to its GPU and runs the JDK's java. The executor then sees
# its GPU alone, as TornadoVM device 0: submit with --conf spark.accelgeom.gpuDevices=0=0,1=0,... (every address to
# device 0). Without a GPU in its resources (the driver, a worker) it runs java as it is. Why: TornadoVM's OpenCL
# context holds every GPU of the platform, and processes that each open every GPU slow each other down
# (docs/scale-out.md, "Measured scaling"). NVIDIA's OpenCL only (CUDA_VISIBLE_DEVICES).
set -euo pipefail
jdk=$(cd "$1" && pwd)
dir=$2
mkdir -p "$dir/bin"
for f in "$jdk"/*; do
    [[ $(basename "$f") == bin ]] || ln -sfn "$f" "$dir/$(basename "$f")"
done
for f in "$jdk"/bin/*; do
    [[ $(basename "$f") == java ]] || ln -sfn "$f" "$dir/bin/$(basename "$f")"
done
cat > "$dir/bin/java" <<WRAPPER
#!/usr/bin/env bash
prev=""
for a in "\$@"; do
    if [[ \$prev == --resourcesFile && -f \$a ]]; then
        gpu=\$(grep -o '"resourceName":"gpu"},"addresses":\["[^"]*"' "\$a" | sed 's/.*\["//; s/"\$//' || true)
        [[ -n \$gpu ]] && export CUDA_VISIBLE_DEVICES=\$gpu
    fi
    prev=\$a
done
exec "$jdk/bin/java" "\$@"
WRAPPER
chmod +x "$dir/bin/java"
