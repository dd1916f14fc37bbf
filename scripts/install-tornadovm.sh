#!/usr/bin/env bash
# Installs the TornadoVM SDK accelgeom is built against (pom.xml: tornado.version, 5.2.0-jdk25) into
# $TORNADOVM_HOME (default /opt/tornadovm), makes sure an OpenCL device exists (POCL, OpenCL on the CPU, through
# apt when no GPU driver provides one), checks that TornadoVM sees a device, and installs the SDK's tornado-api
# into the local Maven repository. Safe to run again: an SDK of the right version is kept.
#
# usage: scripts/install-tornadovm.sh [ROUTE] [--backend opencl|ptx|opencl,ptx] [--no-pocl] [--force]
# ROUTE (default: SDKMAN when `sdk` is installed, else --download):
#   --from FILE    the SDK archive (.tar.xz, .tar.gz or .zip with one top folder holding bin/tornado)
#   --download     TornadoVM's release archive from GitHub: RELEASES/v5.2.0-jdk25/tornadovm-5.2.0-jdk25-opencl-linux-amd64.tar.gz
#                  (else .zip; ptx or opencl-ptx for --backend ptx / opencl,ptx)
#   --sdkman       `sdk install tornadovm ...`; $TORNADOVM_HOME becomes a link to SDKMAN's folder
#   --source DIR   build TornadoVM from a clone (its tag v5.2.0-jdk25, or a checkout of it) in a temporary copy
#                  (needs a JDK 25, apt and Maven Central; TornadoVM's own build installs its modules into ~/.m2)
#   --check        install nothing new: only the OpenCL runtime, the device check and tornado-api
# --backend: the TornadoVM backends (default opencl; ptx for NVIDIA's PTX, needs the CUDA driver).
# --no-pocl: never install POCL. --force: replace an SDK of another version or backends at $TORNADOVM_HOME.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

VERSION=$(sed -n 's:.*<tornado.version>\(.*\)</tornado.version>.*:\1:p' "$ACCELGEOM_ROOT/pom.xml")
JDK_MAJOR=25
[[ "$VERSION" =~ jdk([0-9]+) ]] && JDK_MAJOR=${BASH_REMATCH[1]}
RELEASES=https://github.com/beehive-lab/TornadoVM/releases/download
GRAAL_ARTIFACTS="org.graalvm.compiler:compiler org.graalvm.sdk:graal-sdk org.graalvm.truffle:truffle-api
org.graalvm.truffle:truffle-compiler org.graalvm.sdk:collections org.graalvm.sdk:word org.graalvm.polyglot:polyglot"
POCL_PACKAGES="pocl-opencl-icd ocl-icd-libopencl1 clinfo"

usage() {
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}

say() {
    echo "install-tornadovm: $*" >&2
}

route="" from="" source_dir="" backend=opencl pocl=true force=false
while [[ $# -gt 0 ]]; do
    case "$1" in
        --from) [[ $# -ge 2 ]] || die "--from needs a file"; route=from; from=$2; shift ;;
        --source) [[ $# -ge 2 ]] || die "--source needs a folder"; route=source; source_dir=$2; shift ;;
        --download) route=download ;;
        --sdkman) route=sdkman ;;
        --check) route=check ;;
        --backend) [[ $# -ge 2 ]] || die "--backend needs opencl, ptx or opencl,ptx"; backend=$2; shift ;;
        --no-pocl) pocl=false ;;
        --force) force=true ;;
        -h|--help) usage ;;
        *) die "unknown argument '$1' (see scripts/install-tornadovm.sh --help)" ;;
    esac
    shift
done
case "$backend" in
    opencl|ptx|opencl,ptx) ;;
    ptx,opencl) backend=opencl,ptx ;;
    *) die "--backend must be opencl, ptx or opencl,ptx, not '$backend'" ;;
esac
[[ -n "$VERSION" ]] || die "no <tornado.version> in pom.xml"

# The suffix of TornadoVM's archive names and the value of etc/tornado.backend for the backends asked for.
archive_flavour() {
    case "$backend" in
        opencl) echo opencl ;;
        ptx) echo ptx ;;
        *) echo opencl-ptx ;;
    esac
}
backend_list() {
    local b out=""
    for b in ${backend//,/ }; do
        out+="${out:+,}$b-backend"
    done
    echo "$out"
}

# Runs "$@" as root (directly, or through sudo).
as_root() {
    if [[ $EUID -eq 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        die "'$*' needs root and sudo is not installed; run it as root"
    fi
}

apt_install() {
    command -v apt-get >/dev/null 2>&1 ||
        die "no apt-get here; install the packages $* with your package manager"
    say "apt-get install $*"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null ||
        die "apt-get update failed"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null ||
        die "apt-get install $* failed"
}

# True when the SDK at $TORNADOVM_HOME has this script's version and every backend asked for.
sdk_matches() {
    local have
    sdk_present && [[ "$(sdk_version)" == "$VERSION" ]] || return 1
    have=$(sed -n 's/^tornado.backends=//p' "$TORNADOVM_HOME/etc/tornado.backend" 2>/dev/null)
    local b
    for b in ${backend//,/ }; do
        [[ ",$have," == *",$b-backend,"* ]] || return 1
    done
}

# The folder under $1 that holds bin/tornado (an SDK archive has one top folder; a source build has dist/...).
find_sdk_in() {
    local launcher
    launcher=$(find "$1" -maxdepth 4 -path '*/bin/tornado' -type f 2>/dev/null | head -n 1)
    [[ -n "$launcher" ]] || return 1
    dirname "$(dirname "$launcher")"
}

# Moves the SDK folder $1 to $TORNADOVM_HOME (replacing an empty folder, or an old SDK with --force).
place_sdk() {
    local sdk=$1
    if [[ -L "$TORNADOVM_HOME" ]]; then
        rm -f "$TORNADOVM_HOME"
    elif [[ -d "$TORNADOVM_HOME" ]]; then
        if [[ -n "$(ls -A "$TORNADOVM_HOME")" ]]; then
            $force || die "$TORNADOVM_HOME is not empty; use --force to replace it, or set TORNADOVM_HOME to another folder"
            rm -rf "$TORNADOVM_HOME"
        else
            rmdir "$TORNADOVM_HOME"
        fi
    fi
    mv "$sdk" "$TORNADOVM_HOME"
}

# A staging folder next to $TORNADOVM_HOME (same file system, so the final move is a rename).
staging() {
    local parent
    parent=$(dirname "$TORNADOVM_HOME")
    mkdir -p "$parent" 2>/dev/null || as_root mkdir -p "$parent"
    [[ -w "$parent" ]] || die "cannot write to $parent; run as root or set TORNADOVM_HOME to a folder of yours"
    mktemp -d "$parent/.tornadovm-install.XXXXXX"
}

install_archive() {
    local file=$1 stage sdk
    [[ -f "$file" ]] || die "no such archive: $file"
    stage=$(staging)
    trap 'rm -rf "$stage"' EXIT
    say "unpacking $file"
    case "$file" in
        *.tar.xz|*.txz) tar -xJf "$file" -C "$stage" ;;
        *.tar.gz|*.tgz) tar -xzf "$file" -C "$stage" ;;
        *.zip) command -v unzip >/dev/null 2>&1 || apt_install unzip; unzip -q "$file" -d "$stage" ;;
        *) die "$file is not a .tar.xz, .tar.gz or .zip archive" ;;
    esac || die "could not unpack $file"
    sdk=$(find_sdk_in "$stage") || die "$file holds no TornadoVM SDK (no bin/tornado)"
    chmod -R a+rX "$sdk"
    place_sdk "$sdk"
    rm -rf "$stage"
    trap - EXIT
}

install_download() {
    local name url tmp ext
    command -v curl >/dev/null 2>&1 || apt_install curl ca-certificates
    tmp=$(mktemp -d)
    for ext in tar.gz zip; do
        name="tornadovm-$VERSION-$(archive_flavour)-linux-amd64.$ext"
        url="$RELEASES/v$VERSION/$name"
        say "downloading $url"
        if curl -fsSL --retry 3 -o "$tmp/$name" "$url"; then
            install_archive "$tmp/$name"
            rm -rf "$tmp"
            return 0
        fi
    done
    rm -rf "$tmp"
    die "could not download the SDK from $RELEASES/v$VERSION/ (no network?);" \
        "download it elsewhere and use --from FILE, or build it with --source DIR"
}

install_sdkman() {
    local init="${SDKMAN_DIR:-$HOME/.sdkman}/bin/sdkman-init.sh" id candidate
    [[ -f "$init" ]] || die "SDKMAN is not installed (no $init)"
    set +u
    # shellcheck disable=SC1090
    source "$init"
    # SDKMAN names TornadoVM's SDKs by version and backend; take the one of ours
    id=$(sdk list tornadovm 2>/dev/null | grep -oE "$VERSION-$(archive_flavour)[A-Za-z0-9._-]*" | head -n 1)
    [[ -n "$id" ]] || { set -u; return 1; }
    say "sdk install tornadovm $id"
    sdk install tornadovm "$id" </dev/null >&2 || { set -u; die "'sdk install tornadovm $id' failed"; }
    candidate="${SDKMAN_CANDIDATES_DIR:-${SDKMAN_DIR:-$HOME/.sdkman}/candidates}/tornadovm/$id"
    set -u
    [[ -x "$candidate/bin/tornado" ]] || die "SDKMAN installed no bin/tornado under $candidate"
    if [[ "$(readlink -f "$TORNADOVM_HOME")" != "$(readlink -f "$candidate")" ]]; then
        if [[ -e "$TORNADOVM_HOME" && ! -L "$TORNADOVM_HOME" ]]; then
            [[ -z "$(ls -A "$TORNADOVM_HOME")" ]] || $force ||
                die "$TORNADOVM_HOME is not empty; use --force or set TORNADOVM_HOME=$candidate"
            rm -rf "$TORNADOVM_HOME"
        fi
        ln -sfn "$candidate" "$TORNADOVM_HOME" 2>/dev/null || as_root ln -sfn "$candidate" "$TORNADOVM_HOME"
    fi
}

# Builds the TornadoVM checkout $1 (tag v$VERSION) as TornadoVM's INSTALL_FROM_SOURCE.md describes, with the
# pitfalls of a fresh machine handled; the build runs in a copy, so the checkout stays as it is.
install_source() {
    local src work graal_version pom_version b profiles="jdk$JDK_MAJOR" gav tmp log ref
    src=$(cd "$1" 2>/dev/null && pwd) || die "no such folder: $1"
    find_jdk "$JDK_MAJOR"
    [[ "$(jdk_major "$JAVA_HOME")" == "$JDK_MAJOR" ]] ||
        die "TornadoVM $VERSION builds with JDK $JDK_MAJOR exactly; found $JAVA_HOME (JDK $(jdk_major "$JAVA_HOME"))"
    command -v python3 >/dev/null 2>&1 || apt_install python3
    command -v g++ >/dev/null 2>&1 && command -v make >/dev/null 2>&1 || apt_install g++ make

    work=$(mktemp -d "${TMPDIR:-/tmp}/tornadovm-src.XXXXXX")
    if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
        # a clone (bare or not): the tag v$VERSION if it has it, else what is checked out
        ref=HEAD
        git -C "$src" rev-parse -q --verify "refs/tags/v$VERSION" >/dev/null && ref="v$VERSION"
        say "exporting $ref of $src to $work (the build runs there)"
        # the benchmark matrix bcsstk32.mtx is missing from some mirrors (git prints an error and goes on);
        # nothing in the build needs it
        git -C "$src" archive --format=tar "$ref" -- ':(exclude,glob)**/bcsstk32.mtx' | tar -xf - -C "$work" ||
            die "could not export $ref of $src"
    else
        say "copying $src to $work (the build runs there)"
        cp -a "$src/." "$work/"
    fi
    [[ -f "$work/pom.xml" && -d "$work/tornado-assembly" ]] || die "$src is not a TornadoVM source tree"
    pom_version=$(grep -m1 -E '^    <version>' "$work/pom.xml" | sed 's:.*<version>\(.*\)</version>.*:\1:')
    [[ "$pom_version" == "$VERSION" ]] ||
        die "$src is TornadoVM $pom_version, accelgeom needs $VERSION (git checkout v$VERSION)"

    if [[ ",$backend," == *",opencl,"* ]]; then
        # OpenCL headers: TornadoVM's JNI build looks for them in its own source tree
        [[ -f /usr/include/CL/cl.h ]] || apt_install opencl-headers ocl-icd-opencl-dev
        mkdir -p "$work/tornado-drivers/opencl-jni/src/main/cpp/headers/include/CL"
        cp /usr/include/CL/*.h "$work/tornado-drivers/opencl-jni/src/main/cpp/headers/include/CL/"
        profiles+=",opencl-backend"
    fi
    if [[ ",$backend," == *",ptx,"* ]]; then
        profiles+=",ptx-backend"
    fi

    # The Graal jars (bin/pull_graal_jars.py's list) through Maven, run from a folder outside the source tree:
    # TornadoVM's .mvn/maven.config carries flags that a system Maven rejects
    graal_version=$(sed -n 's:.*<graalvm.version>\(.*\)</graalvm.version>.*:\1:p' "$work/pom.xml" | head -n 1)
    graal_version=${graal_version:-25.0.2}
    tmp=$(mktemp -d)
    {
        echo '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
        echo '<groupId>local</groupId><artifactId>graal-jars</artifactId><version>1</version><dependencies>'
        for gav in $GRAAL_ARTIFACTS; do
            echo "<dependency><groupId>${gav%%:*}</groupId><artifactId>${gav#*:}</artifactId><version>$graal_version</version></dependency>"
        done
        echo '</dependencies></project>'
    } >"$tmp/pom.xml"
    say "fetching the Graal $graal_version jars into graalJars/"
    (cd "$tmp" && "$ACCELGEOM_ROOT/mvnw" -q -B dependency:copy-dependencies -DexcludeTransitive=true \
        -DoutputDirectory="$work/graalJars") || die "could not fetch the Graal jars through Maven"
    rm -rf "$tmp"

    echo "tornado.backends=$(backend_list)" >"$work/tornado-assembly/src/etc/tornado.backend"
    log="$work/build.log"
    say "building TornadoVM $VERSION ($backend; minutes; log: $log)"
    (cd "$work" && PATH="$JAVA_HOME/bin:$PATH" ./mvnw -B -P"$profiles" -Dtornado.backend="$(archive_flavour)" \
        -Dmaven.buildNumber.revisionOnScmFailure=unknown -DskipTests install >"$log" 2>&1) ||
        { tail -n 30 "$log" >&2; die "the TornadoVM build failed (log: $log)"; }
    b=$(find_sdk_in "$work/dist") || die "the build made no SDK under $work/dist (log: $log)"
    if [[ ! -f "$b/tornado-argfile.template" ]]; then
        (cd "$b/bin" && TORNADOVM_HOME="$b" PATH="$JAVA_HOME/bin:$PATH" python3 gen-tornado-argfile-template.py \
            "$backend" >&2) || die "could not write tornado-argfile.template"
    fi
    echo "tornado.backends=$(backend_list)" >"$b/etc/tornado.backend"
    local stage
    stage=$(staging)
    cp -a "$b" "$stage/sdk"
    place_sdk "$stage/sdk"
    rmdir "$stage"
    rm -rf "$work"
}

# True when an OpenCL platform with a device is installed (clinfo when there, else an ICD and the loader).
opencl_device_present() {
    if command -v clinfo >/dev/null 2>&1; then
        clinfo -l 2>/dev/null | grep -q 'Device #'
        return
    fi
    compgen -G "${OCL_ICD_VENDORS:-/etc/OpenCL/vendors}/*.icd" >/dev/null &&
        ldconfig -p 2>/dev/null | grep -q 'libOpenCL\.so\.1'
}

gpu_driver_present() {
    [[ -e /proc/driver/nvidia/version ]] || compgen -G '/dev/dri/renderD*' >/dev/null
}

ensure_opencl() {
    if opencl_device_present; then
        return 0
    fi
    if ! ldconfig -p 2>/dev/null | grep -q 'libOpenCL\.so\.1'; then
        $pocl || die "no OpenCL loader (libOpenCL.so.1) and --no-pocl; install ocl-icd-libopencl1"
    fi
    if gpu_driver_present && ! $pocl; then
        say "warning: a GPU driver is loaded but no OpenCL platform lists a device; install its OpenCL ICD"
        return 0
    fi
    $pocl || die "no OpenCL device and --no-pocl; install your GPU's OpenCL driver"
    say "no OpenCL device: installing POCL (OpenCL on the CPU) and the OpenCL loader"
    apt_install $POCL_PACKAGES
    opencl_device_present || die "POCL is installed but no OpenCL device is listed (clinfo -l)"
}

# ---- the SDK
if [[ -e "$TORNADOVM_HOME" ]] && sdk_present; then
    have_version=$(sdk_version)
fi
if sdk_matches && ! { $force && [[ "$route" != check && -n "$route" ]]; }; then
    say "TornadoVM $VERSION ($(sed -n 's/^tornado.backends=//p' "$TORNADOVM_HOME/etc/tornado.backend")) is already at $TORNADOVM_HOME"
else
    if [[ "$route" == check ]]; then
        die "no TornadoVM $VERSION ($backend) at $TORNADOVM_HOME${have_version:+ (it holds $have_version)}"
    fi
    if [[ -n "${have_version:-}" ]] && ! $force; then
        die "$TORNADOVM_HOME holds TornadoVM $have_version" \
            "($(sed -n 's/^tornado.backends=//p' "$TORNADOVM_HOME/etc/tornado.backend")), not $VERSION ($backend);" \
            "use --force to replace it, or set TORNADOVM_HOME to another folder"
    fi
    if [[ -z "${have_version:-}" && -d "$TORNADOVM_HOME" && -n "$(ls -A "$TORNADOVM_HOME")" ]] && ! $force; then
        die "$TORNADOVM_HOME is not empty and holds no TornadoVM SDK; use --force to replace it," \
            "or set TORNADOVM_HOME to another folder"
    fi
    if [[ -z "$route" ]]; then
        route=download
        if [[ -f "${SDKMAN_DIR:-$HOME/.sdkman}/bin/sdkman-init.sh" ]]; then
            route=sdkman
        fi
    fi
    case "$route" in
        from) install_archive "$from" ;;
        download) install_download ;;
        source) install_source "$source_dir" ;;
        sdkman)
            if ! install_sdkman; then
                say "SDKMAN has no TornadoVM $VERSION ($(archive_flavour)); downloading TornadoVM's release archive"
                install_download
            fi ;;
    esac
    sdk_present || die "the install left no SDK at $TORNADOVM_HOME"
    [[ "$(sdk_version)" == "$VERSION" ]] ||
        die "the SDK installed at $TORNADOVM_HOME is $(sdk_version), not $VERSION"
    sdk_matches || die "the SDK at $TORNADOVM_HOME lacks the backend(s) $backend" \
        "(it has $(sed -n 's/^tornado.backends=//p' "$TORNADOVM_HOME/etc/tornado.backend"))"
    say "installed TornadoVM $VERSION ($backend) at $TORNADOVM_HOME"
fi

# ---- the device runtime
if [[ ",$backend," == *",opencl,"* ]]; then
    ensure_opencl
fi
if [[ ",$backend," == *",ptx,"* ]] && ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so'; then
    say "warning: the PTX backend needs NVIDIA's CUDA driver (libcuda.so), which is not installed"
fi

# ---- a JDK for the SDK, and a device check
if ! (find_jdk "$JDK_MAJOR") >/dev/null 2>&1; then
    die "TornadoVM $VERSION runs on JDK $JDK_MAJOR, none found; install one" \
        "(e.g. apt-get install temurin-$JDK_MAJOR-jdk from Adoptium, or sdk install java $JDK_MAJOR-tem) and run this again"
fi
find_jdk "$JDK_MAJOR"
devices=$(cd / && TORNADOVM_HOME="$TORNADOVM_HOME" JAVA_HOME="$JAVA_HOME" "$TORNADOVM_HOME/bin/tornado" --devices 2>&1 |
    sed 's/\x1b\[[0-9;]*m//g'; exit "${PIPESTATUS[0]}") ||
    { echo "$devices" >&2; die "'tornado --devices' failed (output above)"; }
grep -q 'Tornado device=' <<<"$devices" ||
    { echo "$devices" >&2; die "TornadoVM sees no device (output of 'tornado --devices' above)"; }
say "TornadoVM sees: $(grep -A1 'Tornado device=' <<<"$devices" | grep -v -e 'Tornado device=' -e '^--' | sed 's/^[[:space:]]*//' | paste -sd ';' | sed 's/;/; /g')"

# ---- tornado-api for the Maven profile `tornado`
"$ACCELGEOM_ROOT/scripts/install-tornado-api.sh"

if [[ "$TORNADOVM_HOME" != /opt/tornadovm ]]; then
    say "done; export TORNADOVM_HOME=$TORNADOVM_HOME before scripts/accelgeom, scripts/build and .ci/run"
else
    say "done"
fi
