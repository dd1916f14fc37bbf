#!/usr/bin/env bash
# Prints TornadoVM's JVM flags ($TORNADOVM_HOME/tornado-argfile) for a JVM that also runs Spark: the same flags with
# the module path listing TornadoVM's jars one by one, less its log4j jars. TornadoVM's module path is its whole
# jar folder, which holds log4j-api 2.17.1 and log4j-core: the JDK resolves log4j-core as a service provider (it
# provides an annotation processor) and with it log4j-api 2.17.1 as a named module, which then hides Spark's newer
# log4j-api on the class path, and Spark fails at start (ClassCastException: log4j's SimpleLogger is no
# org.apache.logging.log4j.core.Logger). TornadoVM's own modules do not require log4j.
#   spark/bin/tornado-argfile.sh > tornado-spark.argfile
#   spark-submit --driver-java-options "@tornado-spark.argfile @tornado-config/accelgeom.argfile" ...
set -euo pipefail
home=${TORNADOVM_HOME:-/opt/tornadovm}
[[ -f "$home/tornado-argfile" ]] || { echo "tornado-argfile.sh: no TornadoVM SDK at $home (set TORNADOVM_HOME)" >&2; exit 1; }
jars=$(find "$home/share/java/tornado" -maxdepth 1 -name '*.jar' ! -name 'log4j-*' | sort | paste -sd: -)
sed -e "s|^--module-path .*|--module-path $jars|" "$home/tornado-argfile"
