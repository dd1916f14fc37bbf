# Shared by scripts/accelgeom, scripts/build, scripts/test and .ci/run (sourced, not run).
# Finds a JDK, the TornadoVM SDK, and decides whether the jar must be (re)built.

ACCELGEOM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ACCELGEOM_JAR="$ACCELGEOM_ROOT/target/accelgeom.jar"
TORNADOVM_HOME="${TORNADOVM_HOME:-/opt/tornadovm}"

die() {
    echo "accelgeom: error: $*" >&2
    exit 1
}

# The feature version of the JDK at $1 (17, 21, 25, ...), or nothing if $1/bin/java does not run.
jdk_major() {
    local v=""
    [[ -x "$1/bin/java" ]] || return 0
    # the JDK's release file says it without starting a JVM (which costs 0.05-1 s per call on a busy machine)
    [[ -f "$1/release" ]] && v=$(sed -n 's/^JAVA_VERSION="\([0-9.]*\).*"$/\1/p' "$1/release" 2>/dev/null)
    [[ -n "$v" ]] || v=$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
    v=${v#1.}
    echo "${v%%.*}"
}

# Sets JAVA_HOME to a JDK of feature version >= $1 (default 21) and exports it:
# $JAVA_HOME if it is one, else `java` on the PATH if it is one, else the newest under /usr/lib/jvm.
find_jdk() {
    local min=${1:-21} home major best="" best_major=0 tried=()
    if [[ -n "${JAVA_HOME:-}" ]]; then
        major=$(jdk_major "$JAVA_HOME")
        if [[ -n "$major" && "$major" -ge "$min" ]]; then
            export JAVA_HOME
            return 0
        fi
        tried+=("JAVA_HOME=$JAVA_HOME is ${major:-not a JDK}")
    fi
    if command -v java >/dev/null 2>&1; then
        home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
        major=$(jdk_major "$home")
        if [[ -n "$major" && "$major" -ge "$min" && -x "$home/bin/javac" ]]; then
            export JAVA_HOME="$home"
            return 0
        fi
        tried+=("java on the PATH is ${major:-unknown}")
    fi
    for home in /usr/lib/jvm/*; do
        [[ -d "$home" && ! -L "$home" && -x "$home/bin/javac" ]] || continue
        major=$(jdk_major "$home")
        if [[ -n "$major" && "$major" -gt "$best_major" ]]; then
            best=$home
            best_major=$major
        fi
    done
    if [[ -n "$best" && "$best_major" -ge "$min" ]]; then
        export JAVA_HOME="$best"
        return 0
    fi
    tried+=("newest in /usr/lib/jvm is ${best_major/#0/none}")
    local IFS=';'
    die "no JDK $min or newer found (${tried[*]}); install one (e.g. a Temurin $min JDK) and set JAVA_HOME to it"
}

# Maven on JDK 24+ warns about its own libraries (jansi, guava); those warnings are noise for our users.
quiet_maven_on_new_jdks() {
    local major
    major=$(jdk_major "$JAVA_HOME")
    if [[ "${major:-0}" -ge 24 && "${MAVEN_OPTS:-}" != *--enable-native-access=ALL-UNNAMED* ]]; then
        export MAVEN_OPTS="${MAVEN_OPTS:-} --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
    fi
}

# True when a TornadoVM SDK is installed at $TORNADOVM_HOME.
sdk_present() {
    [[ -x "$TORNADOVM_HOME/bin/tornado" && -d "$TORNADOVM_HOME/share/java/tornado" ]]
}

# The TornadoVM version of the SDK (5.2.0-jdk25), from etc/tornado.release.
sdk_version() {
    sed -n 's/^version=//p' "$TORNADOVM_HOME/etc/tornado.release" 2>/dev/null
}

# The JDK feature version the SDK was built for (25 for 5.2.0-jdk25; 21 when the release file does not say).
sdk_jdk_major() {
    local v
    v=$(sdk_version)
    if [[ "$v" =~ jdk([0-9]+) ]]; then
        echo "${BASH_REMATCH[1]}"
    else
        echo 21
    fi
}

# True when a JDK the SDK can run on exists (JAVA_HOME is left alone).
sdk_jdk_available() {
    (find_jdk "$(sdk_jdk_major)") >/dev/null 2>&1
}

# True when the jar contains the tornado side (built with the Maven profile `tornado`):
# class names are stored uncompressed in a jar's directory, so grep finds them.
jar_has_tornado() {
    [[ -f "$ACCELGEOM_JAR" ]] && grep -qa 'org/accelgeom/engine/tornado/TornadoDevices.class' "$ACCELGEOM_JAR"
}

# True when target/accelgeom.jar is missing or older than a file of src/ or pom.xml.
jar_stale() {
    [[ ! -f "$ACCELGEOM_JAR" ]] && return 0
    [[ -n "$(find "$ACCELGEOM_ROOT/src" "$ACCELGEOM_ROOT/pom.xml" -newer "$ACCELGEOM_JAR" -print -quit 2>/dev/null)" ]]
}

# True when only POCL (OpenCL on the CPU) is installed: the TornadoVM OpenCL backend is the SDK's only backend
# and every OpenCL ICD is POCL. Overridden by ACCELGEOM_POCL=1 / ACCELGEOM_POCL=0.
pocl_only() {
    case "${ACCELGEOM_POCL:-}" in
        1) return 0 ;;
        0) return 1 ;;
    esac
    local backends icd found=false
    backends=$(sed -n 's/^tornado.backends=//p' "$TORNADOVM_HOME/etc/tornado.backend" 2>/dev/null)
    [[ "$backends" == "opencl-backend" ]] || return 1
    for icd in "${OCL_ICD_VENDORS:-/etc/OpenCL/vendors}"/*.icd; do
        [[ -f "$icd" ]] || continue
        grep -qi pocl "$icd" || return 1
        found=true
    done
    $found
}

# The JVM flags for running under the tornado launcher: our argfile, plus the POCL one when only POCL is there.
# $1: "tornado" when the tornado backend is asked for (the POCL flag changes the JVM's core count, so it is only
# added when kernels will run).
tornado_jvm_flags() {
    local flags
    flags="@$(sq "$ACCELGEOM_ROOT/tornado-config/accelgeom.argfile")"
    if [[ "${1:-}" == tornado ]] && pocl_only; then
        flags+=" @$(sq "$ACCELGEOM_ROOT/tornado-config/pocl.argfile")"
    fi
    echo "$flags"
}

# $1 quoted for a POSIX shell (the tornado launcher hands its command line to /bin/sh).
sq() {
    local s=$1
    printf "'%s'" "${s//\'/\'\\\'\'}"
}

# Copies stdin to stderr, without the JVM's "WARNING: Using incubator modules: ..." if that is the first line.
drop_incubator_warning() {
    local first
    if IFS= read -r first; then
        [[ "$first" == "WARNING: Using incubator modules: "* ]] || printf '%s\n' "$first" >&2
    elif [[ -n "$first" ]]; then
        printf '%s' "$first" >&2
    fi
    exec cat >&2
}

# The java command line that `tornado --jvm="$1" -cp JAR` runs, without the main class (printed on stdout): the
# launcher's own --printJavaFlags output, kept in target/launch/ under a key of everything it depends on (the SDK's
# launcher and backends, the JDK, the flags, the jar's path, $CLASSPATH, which the launcher appends to -cp), so
# the launcher's checks run once and later runs skip its 0.3-0.4 s. Fails (status 1) when it cannot be made.
# The launcher puts the working directory first on the module path (`--module-path .:SDK/share/java/tornado`); the line
# kept here leaves it out: accelgeom is on -cp and needs no module of the user's directory, and with it the JVM scanned
# that directory at every start and refused to start where it held a jar that is no valid module ("FindException:
# Unable to derive module descriptor for ./x-new.jar").
tornado_java_command() {
    local dir="$ACCELGEOM_ROOT/target/launch" key file tmp f
    key=$( {
        printf '%s\n' "no working directory on the module path" "$1" "$ACCELGEOM_JAR" "${CLASSPATH-unset}" "$TORNADOVM_HOME" "$JAVA_HOME"
        for f in "$TORNADOVM_HOME/bin/tornado" "$TORNADOVM_HOME/bin/tornado.py" "$TORNADOVM_HOME/etc/tornado.backend" \
            "$TORNADOVM_HOME/etc/tornado.release" "$JAVA_HOME/bin/java" "$JAVA_HOME/release"; do
            stat -L -c '%n %s %Y' "$f" 2>/dev/null || echo "$f missing"
        done
    } | sha256sum | cut -c1-32)
    file="$dir/java-$key.cmd"
    if [[ ! -s "$file" ]]; then
        mkdir -p "$dir" 2>/dev/null || return 1
        tmp=$(mktemp "$dir/.java-XXXXXX" 2>/dev/null) || return 1
        # one line: the java binary and every flag, quoted for /bin/sh as the launcher made it
        if ! "$TORNADOVM_HOME/bin/tornado" --printJavaFlags --jvm="$1" -cp "$(sq "$ACCELGEOM_JAR")" > "$tmp" \
            || [[ $(wc -l < "$tmp") -ne 1 ]] || ! grep -q -- ' -cp ' "$tmp"; then
            rm -f "$tmp"
            return 1
        fi
        sed -i 's/ --module-path \.:/ --module-path /' "$tmp" || { rm -f "$tmp"; return 1; }
        if ! jdk_has_module jdk.graal.compiler; then
            # Nothing to upgrade (a runtime without the JDK's jdk.graal.compiler): the upgrade path's jars go first on the
            # module path and their modules into --add-modules, as the upgrade path made them roots, so that the same
            # modules resolve from the same jars; the JVM's class-data sharing and AOT cache refuse --upgrade-module-path
            # ("CDS is disabled when the --upgrade-module-path option is specified"), not --module-path.
            local up roots
            up=$(sed -n -E 's#.* --upgrade-module-path ([^ ]+) .*#\1#p' "$tmp")
            roots=$("$JAVA_HOME/bin/java" --module-path "$up" --list-modules 2>/dev/null | sed -n 's/^\([^@ ]*\)\(@[^ ]*\)\{0,1\} file:.*/\1/p' | paste -sd, -)
            if [[ -n "$up" && -n "$roots" ]] && grep -q -- ' --add-modules [^ ]' "$tmp"; then
                sed -i -E "s# --upgrade-module-path [^ ]+ # #; s# --module-path ([^ ]+) # --module-path $up:\\1 #; s# --add-modules ([^ ]+) # --add-modules \\1,$roots #" "$tmp" \
                    || { rm -f "$tmp"; return 1; }
            fi
        fi
        mv -f "$tmp" "$file"
    fi
    local line
    IFS= read -r line < "$file" || return 1
    printf '%s' "$line"
}

# The JVM's AOT cache (JDK 24+: classes loaded and linked ahead, JEP 483) for the java command $1, under target/launch,
# keyed on that command and the jar's size and time (a rebuilt jar gets a cache of its own). Fails (status 1) where no
# cache can serve: ACCELGEOM_AOT=0, a command with --upgrade-module-path (the JVM refuses it: tornado_java_command
# keeps it only where the runtime has the JDK's own jdk.graal.compiler module, a stock JDK 25), or one whose flags
# (ACCELGEOM_JAVA_OPTS) choose class-data sharing themselves (-Xshare:*, a CDS archive or an AOT option: the JVM does
# not start with those beside -XX:AOTCache).
tornado_aot_file() {
    local stamp
    [[ "${ACCELGEOM_AOT:-1}" != 0 && "$1" != *" --upgrade-module-path "* ]] || return 1
    [[ "$1" =~ -Xshare|DumpLoadedClassList|SharedClassListFile|SharedArchiveFile|ArchiveClassesAtExit|AutoCreateSharedArchive|-XX:AOT ]] \
        && return 1
    stamp=$(stat -L -c '%s %Y' "$ACCELGEOM_JAR" 2>/dev/null) || return 1
    printf '%s/aot-%s-%s.aot' "$ACCELGEOM_ROOT/target/launch" "$(printf '%s' "$1" | sha256sum | cut -c1-24)" \
        "$(printf '%s' "$stamp" | sha256sum | cut -c1-8)"
}

# After a run recorded with -XX:AOTMode=record into $2.conf: builds the cache $3 from it for the java command $1
# (-XX:AOTMode=create, 1.7-2.3 s on an H100, once per jar and flags), replacing the command's caches of older jars; quiet, and a
# failure leaves no cache (the next tornado run records again).
tornado_aot_create() {
    local f
    if [[ -s "$2.conf" ]] && /bin/sh -c "exec $1 -XX:AOTMode=create -XX:AOTConfiguration=$(sq "$2.conf") \
            -XX:AOTCache=$(sq "$2.tmp") -Xlog:aot*=off,cds*=off org.accelgeom.cli.Main" > /dev/null 2>&1 \
            && [[ -s "$2.tmp" ]] && mv -f "$2.tmp" "$3"; then
        for f in "${3%-*}"-*.aot; do
            [[ "$f" == "$3" ]] || rm -f "$f"
        done
    fi
    rm -f "$2.conf" "$2.tmp"
}

# True when the JDK at $JAVA_HOME has the system module $1, by its release file (true where that does not say).
jdk_has_module() {
    local mods
    mods=$(sed -n 's/^MODULES="\(.*\)"$/\1/p' "$JAVA_HOME/release" 2>/dev/null)
    [[ -z "$mods" ]] && return 0
    [[ " $mods " == *" $1 "* ]]
}

# --timings, after the JVM ended: the rows its timeline cannot see (the exit after its table, from the time it wrote
# to $ACCELGEOM_TIMELINE_END) and the wall from $1 (this script's start, ns since the epoch), on stdout.
timeline_exit() {
    local end_ns=${EPOCHREALTIME/[.,]/}000 table_ns=""
    [[ -n "${ACCELGEOM_TIMELINE_END:-}" && -s "$ACCELGEOM_TIMELINE_END" ]] && table_ns=$(< "$ACCELGEOM_TIMELINE_END")
    [[ -n "$table_ns" ]] || return 0
    awk -v a="$1" -v t="$table_ns" -v e="$end_ns" 'BEGIN {
        printf "  %-62s %10.1f ms\n", "exit, after the table: TornadoVM and JVM shutdown (scripts/accelgeom)", (e - t) / 1e6
        printf "  %-62s %10.1f ms\n", "wall: scripts/accelgeom from its start to the end of the JVM", (e - a) / 1e6 }'
}
