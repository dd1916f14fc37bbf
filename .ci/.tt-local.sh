set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$ACCELGEOM_ROOT"
mkdir -p target/ci
find_jdk "$(sdk_jdk_major)"
quiet_maven_on_new_jdks
export TORNADOVM_HOME

mvn_tornado() {
    ./mvnw -B -q -Ptornado "$@"
}
if ! mvn_tornado test-compile 2>target/ci/compile.log; then
    if grep -q tornado-api target/ci/compile.log; then
        scripts/install-tornado-api.sh
        mvn_tornado test-compile
    else
        cat target/ci/compile.log >&2
        exit 1
    fi
fi
# the test class path without JUnit (the console launcher brings its own) and without tornado-api (the
# launcher puts the SDK's TornadoVM modules on the module path)
mvn_tornado dependency:build-classpath -Dmdep.outputFile=target/ci/classpath.txt -Dmdep.includeScope=test \
    -DexcludeGroupIds=org.junit.jupiter,org.junit.platform,org.opentest4j,org.apiguardian,io.github.beehive-lab
junit_platform=$(sed -n 's:.*<junit.version>5\.\(.*\)</junit.version>.*:1.\1:p' pom.xml)
console=target/ci/junit-platform-console-standalone-$junit_platform.jar
if [[ ! -f $console ]]; then
    mvn_tornado dependency:copy -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit_platform" \
        -DoutputDirectory=target/ci
fi
cp="$ACCELGEOM_ROOT/target/test-classes:$ACCELGEOM_ROOT/target/classes:$(cat target/ci/classpath.txt):$ACCELGEOM_ROOT/$console"

jvm="@$(sq "$ACCELGEOM_ROOT/tornado-config/accelgeom.argfile")"
if pocl_only; then
    jvm+=" @$(sq "$ACCELGEOM_ROOT/tornado-config/pocl.argfile")"
fi
"$TORNADOVM_HOME/bin/tornado" --jvm="$jvm" -cp "$(sq "$cp")" org.junit.platform.console.ConsoleLauncher \
    --params="execute --disable-banner --disable-ansi-colors --include-tag tornado $SELECT" 2>&1 | tail -30
