#!/usr/bin/env bash
# Installs the TornadoVM SDK's tornado-api jar into the local Maven repository as
# io.github.beehive-lab:tornado-api:<SDK version> (5.2.0-jdk25), which the Maven profile `tornado` compiles against.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ACCELGEOM_ROOT"

sdk_present || die "no TornadoVM SDK at $TORNADOVM_HOME (set TORNADOVM_HOME)"
shopt -s nullglob
jars=("$TORNADOVM_HOME"/share/java/tornado/tornado-api-*.jar)
[[ ${#jars[@]} -eq 1 ]] || die "expected one tornado-api-*.jar in $TORNADOVM_HOME/share/java/tornado, found ${#jars[@]}"
jar=${jars[0]}
version=$(basename "$jar" .jar)
version=${version#tornado-api-}
wanted=$(sed -n 's:.*<tornado.version>\(.*\)</tornado.version>.*:\1:p' pom.xml)
if [[ "$version" != "$wanted" ]]; then
    echo "accelgeom: warning: the SDK has tornado-api $version but pom.xml asks for $wanted;" \
        "build with -Dtornado.version=$version or install the matching SDK" >&2
fi
find_jdk 21
quiet_maven_on_new_jdks
# A pom of our own: without -DpomFile, install-file takes the pom inside the jar, whose parent
# (io.github.beehive-lab:tornado) is in no repository, and every later build fails to resolve tornado-api.
pom=$(mktemp --suffix=.pom)
trap 'rm -f "$pom"' EXIT
cat > "$pom" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.github.beehive-lab</groupId>
  <artifactId>tornado-api</artifactId>
  <version>$version</version>
  <packaging>jar</packaging>
  <description>TornadoVM's API jar, installed from the SDK at $TORNADOVM_HOME by accelgeom's scripts/install-tornado-api.sh</description>
</project>
POM
./mvnw -q -B install:install-file -Dfile="$jar" -DpomFile="$pom" -DgroupId=io.github.beehive-lab \
    -DartifactId=tornado-api -Dversion="$version" -Dpackaging=jar
echo "accelgeom: installed $jar as io.github.beehive-lab:tornado-api:$version" >&2
