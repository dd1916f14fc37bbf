#!/usr/bin/env bash
# Builds the example programs against accelgeom from the local Maven repository and runs each under TornadoVM's
# `tornado` launcher; fails if a program fails or its self-check fails (each exits non-zero on a mismatch with the
# JVM). First installs accelgeom (library + `tornado` classifier) from this checkout; --no-install skips that.
# JVM flags for the programs: EXAMPLES_JAVA_OPTS (e.g. -Dexamples.points=1000000).
set -euo pipefail
examples="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$examples/../scripts/lib.sh"

# the example programs, one main class a line
programs=(
    org.accelgeom.examples.DeviceHull
    org.accelgeom.examples.RayCastShade
)

sdk_present || die "no TornadoVM SDK at $TORNADOVM_HOME (scripts/install-tornadovm.sh installs one)"
find_jdk "$(sdk_jdk_major)"
quiet_maven_on_new_jdks
export TORNADOVM_HOME
mvn=("$ACCELGEOM_ROOT/mvnw" -B -q ${EXAMPLES_MAVEN_OPTS:-})
if [[ "${1:-}" != --no-install ]]; then
    echo "== installing accelgeom (library and tornado classifier) into the local Maven repository"
    (cd "$ACCELGEOM_ROOT" && "${mvn[@]}" -Ptornado install -DskipTests)
fi
echo "== building examples/"
"${mvn[@]}" -f "$examples/pom.xml" compile dependency:build-classpath \
    -Dmdep.outputFile="$examples/target/classpath.txt" -Dmdep.includeScope=runtime
cp="$examples/target/classes:$(cat "$examples/target/classpath.txt")"
jvm="@$(sq "$ACCELGEOM_ROOT/tornado-config/accelgeom.argfile")"
if pocl_only; then
    jvm+=" @$(sq "$ACCELGEOM_ROOT/tornado-config/pocl.argfile")"
fi
jvm+=" ${EXAMPLES_JAVA_OPTS:-}"
# POCL's libLLVM replaces the JVM's signal handlers; the JDK's libjsig keeps them first (see scripts/accelgeom)
if [[ -f "$JAVA_HOME/lib/libjsig.so" ]]; then
    export LD_PRELOAD="$JAVA_HOME/lib/libjsig.so${LD_PRELOAD:+:$LD_PRELOAD}"
fi
failed=0
for main in "${programs[@]}"; do
    echo "== $main"
    if ! "$TORNADOVM_HOME/bin/tornado" --jvm="$jvm" -cp "$(sq "$cp")" "$main"; then
        echo "examples: $main FAILED"
        failed=$((failed + 1))
    fi
done
if [[ $failed -ne 0 ]]; then
    echo "examples: $failed of ${#programs[@]} programs FAILED"
    exit 1
fi
echo "examples: all ${#programs[@]} programs passed"
