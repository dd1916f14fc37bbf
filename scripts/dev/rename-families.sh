#!/usr/bin/env bash
# Issue 15 item 2: every family the same shape, with the same names. Renames classes by identifier (not by patch),
# so it applies to whatever main holds when it runs. Usage, from anywhere:
#
#   scripts/dev/rename-families.sh [CHECKOUT]      (default: the repository this script lives in)
#
# What it does, in order (it checks first that every file it extracts from exists and that no new name is taken,
# and stops at any later surprise; to undo before committing: git reset --hard, as every new file is staged):
#  1. extracts nested types into their own files: Terrain.Options -> TerrainOptions, Terrain.Frame ->
#     TerrainResult, CbtBench.Row -> CbtResult, RayCaster.LoopRenderer -> JvmRenderBackend (the jvm and
#     jvm-parallel ray backend);
#  2. renames the classes of MAP below: `git mv` of every file whose name holds an old name as a CamelCase word
#     (ConvexHullTest.java, META-INF/services/...PipelineSteps$Factory too), and substitutes every old name that
#     stands as a CamelCase word (ConvexHull, ConvexHullTest, TornadoLevelBuilderTest; not ConvexHulls or
#     convexHull) in src/, examples/, spark/, scripts/, docs/*.md, README.md, ARCHITECTURE.md;
#  3. keeps one-release deprecated aliases of the public API classes that programs embed (ConvexHull,
#     VoronoiDiagram, RayCaster, RayKernels, LevelBuilder: a subclass, through which the static members resolve);
#  4. rewrites ARCHITECTURE.md's table of the families' names and adds a note on the renamed API to README.md;
#  5. removes target/classes and target/test-classes (the old names' class files); rebuild afterwards.
# User-visible strings (CLI commands, accelgeom.* properties, file formats) hold none of these names. The kernel
# cache keys hold the task method's class name, so the first tornado run after the rename compiles afresh.
set -euo pipefail
ROOT=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$ROOT"
git rev-parse --is-inside-work-tree >/dev/null
M=src/main/java/org/accelgeom
if [[ -e $M/hull/Hull.java ]]; then
    echo "rename-families: $ROOT already renamed ($M/hull/Hull.java exists)" >&2
    exit 1
fi
python3 - "$ROOT" <<'PY'
import os, re, subprocess, sys

root = sys.argv[1]
os.chdir(root)
M = "src/main/java/org/accelgeom"

# old name -> new name, and why (the table ARCHITECTURE.md gets is written from the decisions below)
MAP = {
    # hull: the API named after its package, as Ridge, Terrain and Cbt are
    "ConvexHull": "Hull",
    # voronoi: the same
    "VoronoiDiagram": "Voronoi",
    # kdtree: the backend roles (KdTreeBuilder stays: KdTree is the tree it builds)
    "PipelineSteps": "KdTreeBackend",
    "LoopSteps": "JvmKdTreeBackend",
    "TornadoPipelineSteps": "TornadoKdTreeBackend",
    # kdtree.zhou: the breadth-first builder of Zhou et al. 2008, named as kdtree's (<Family>Builder)
    "LevelBuilder": "ZhouBuilder",
    "LevelSteps": "ZhouBackend",
    "LoopLevelSteps": "JvmZhouBackend",
    "TornadoLevelSteps": "TornadoZhouBackend",
    "WorkGroupLevelSteps": "WorkGroupZhouBackend",
    # render: the API and its kernels named after the package
    "RayCaster": "Render",
    "RayKernels": "RenderKernels",
}
# nested types pulled out into files of their own: (outer file, nested name, new name, public?)
EXTRACT = [
    (f"{M}/terrain/Terrain.java", "Options", "TerrainOptions", True),
    (f"{M}/terrain/Terrain.java", "Frame", "TerrainResult", True),
    (f"{M}/render/RayCaster.java", "LoopRenderer", "JvmRenderBackend", False),
    (f"{M}/cbt/CbtBench.java", "Row", "CbtResult", True),
]
# qualified uses of the extracted types elsewhere
QUALIFIED = {"Terrain.Options": "TerrainOptions", "Terrain.Frame": "TerrainResult",
             "RayCaster.LoopRenderer": "JvmRenderBackend", "CbtBench.Row": "CbtResult"}
ALIASES = {"ConvexHull": f"{M}/hull", "VoronoiDiagram": f"{M}/voronoi", "RayCaster": f"{M}/render",
           "LevelBuilder": f"{M}/kdtree/zhou", "RayKernels": f"{M}/render"}


def die(msg):
    sys.exit("rename-families: " + msg)


def git(*args):
    subprocess.run(["git", *args], check=True)


def tracked():
    out = subprocess.run(["git", "ls-files", "-z", "src", "examples", "spark", "scripts", "docs", "README.md",
                          "ARCHITECTURE.md"], check=True, capture_output=True, text=True).stdout
    files = [f for f in out.split("\0") if f and os.path.isfile(f) and not f.endswith("rename-families.sh")]
    keep = []
    for f in files:
        if f.startswith("docs/") and not f.endswith(".md"):
            continue
        if f.endswith((".java", ".md", ".sh", ".txt", ".xml", ".properties")) or "/META-INF/services/" in f \
                or f.startswith("scripts/"):
            keep.append(f)
    return keep


def read(p):
    with open(p, encoding="utf-8") as fh:
        return fh.read()


def write(p, s):
    with open(p, "w", encoding="utf-8") as fh:
        fh.write(s)


# ---------- 1. extract nested types ----------

def block_end(text, start):
    """Index just past the brace that closes the first '{' at or after start (strings, chars, comments skipped)."""
    i, depth, n = start, 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.index("\n", i)
            continue
        if text.startswith("/*", i):
            i = text.index("*/", i) + 2
            continue
        if text.startswith('"""', i):
            i = text.index('"""', i + 3) + 3
            continue
        if c in "\"'":
            j = i + 1
            while text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    die("unbalanced braces")


def prune_imports(text):
    lines = text.split("\n")
    body = "\n".join(l for l in lines if not l.startswith("import "))
    body = re.sub(r"\"(?:\\.|[^\"\\])*\"", "", body)
    out = []
    for l in lines:
        m = re.match(r"import (static )?[\w.]+\.(\w+);$", l)
        if m and not re.search(r"\b%s\b" % m.group(2), body):
            continue
        out.append(l)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out))


def extract(path, nested, new, public):
    text = read(path)
    outer = os.path.basename(path)[:-5]
    m = re.search(r"^( {4})((?:public |private |protected )?(?:static )?(?:final )?)(record|class|interface|enum) "
                  + nested + r"\b", text, re.M)
    if not m:
        die(f"{path}: no nested type {nested}")
    start = m.start()
    # its javadoc, if one ends on the line above
    before = text[:start]
    jd = re.search(r"\n( {4}/\*\*(?:(?!\*/).)*?\*/\n)$", before, re.S)
    if jd:
        start = jd.start(1)
    end = block_end(text, m.end())
    if text[end:end + 1] == "\n":
        end += 1
    chunk = text[start:end]
    rest = text[:start] + text[end:]
    rest = re.sub(r"\n{3,}", "\n\n", rest)
    # dedent one level, set the modifiers
    lines = [l[4:] if l.startswith("    ") else l for l in chunk.split("\n")]
    chunk = "\n".join(lines)
    chunk = re.sub(r"^((?:public |private |protected )?(?:static )?(final )?)(record|class|interface|enum) " + nested
                   + r"\b", lambda mm: ("public " if public else "") + (mm.group(2) or "") + mm.group(3) + " " + new,
                   chunk, count=1, flags=re.M)
    chunk = re.sub(r"\b%s\b" % nested, new, chunk)
    # constants of the outer class the nested one used unqualified
    consts = set(re.findall(r"^\s+(?:public |private |protected )?static final [\w<>\[\], ]+? (\w+) =", rest, re.M))
    for c in consts:
        chunk = re.sub(r"(?<![\w.])%s\b" % c, f"{outer}.{c}", chunk)
    head = text[:text.index("\n", text.index("package "))]
    imports = "\n".join(re.findall(r"^import .*;$", text, re.M))
    newfile = head + "\n\n" + imports + "\n\n" + chunk
    newfile = prune_imports(newfile).rstrip("\n") + "\n"
    rest = re.sub(r"\b%s\b" % nested, new, rest)
    write(os.path.join(os.path.dirname(path), new + ".java"), newfile)
    write(path, prune_imports(rest))
    git("add", os.path.join(os.path.dirname(path), new + ".java"))


# checks first: the files to extract from exist, and no new name is declared or imported already
for path, nested, new, public in EXTRACT:
    if not os.path.exists(path):
        die(f"{path} is gone: update EXTRACT")
for new in set(MAP.values()) | set(e[2] for e in EXTRACT):
    decl = re.compile(r"\b(?:class|interface|record|enum) %s\b|^import [\w.]+\.%s;" % (new, new), re.M)
    hits = [f for f in tracked() if f.endswith(".java") and (os.path.basename(f) == new + ".java" or decl.search(read(f)))]
    if hits:
        die(f"{new} already names something: {hits[:3]}")

for path, nested, new, public in EXTRACT:
    if not os.path.exists(path):
        die(f"{path} is gone")
    extract(path, nested, new, public)
p = f"{M}/cbt/CbtResult.java"
write(p, read(p).replace("/** One measurement.", "/** One measurement of a CBT experiment ({@link CbtBench}).", 1))

# ---------- 2. rename classes and substitute identifiers ----------

olds = sorted(list(MAP) + list(QUALIFIED), key=len, reverse=True)
# an old name as a CamelCase word: not inside a longer lowercase word or identifier on either side
pattern = re.compile(r"(?:(?<![A-Za-z0-9_])|(?<=[a-z0-9]))(" + "|".join(re.escape(o) for o in olds)
                     + r")(?![a-z0-9_])")
ALL = dict(MAP, **QUALIFIED)


def subst(s):
    return pattern.sub(lambda mm: ALL[mm.group(1)], s)


files = tracked()

moves = []
for f in files:
    d, b = os.path.split(f)
    nb = subst(b)
    if nb != b:
        target = os.path.join(d, nb)
        if os.path.exists(target):
            die(f"{target} exists")
        moves.append((f, target))
for a, b in moves:
    git("mv", a, b)
files = [dict(moves).get(f, f) for f in files]

changed = 0
for f in files:
    s = read(f)
    t = subst(s)
    if f.endswith(".java") and t != s:
        # files outside the outer type's package reached the extracted types through the outer type's import
        pkg = re.search(r"^package ([\w.]+);", t, re.M)
        for path, nested, newname, public in EXTRACT:
            opkg = "org.accelgeom." + os.path.dirname(path)[len(M) + 1:].replace("/", ".")
            outer_imp = f"import {opkg}.{os.path.basename(path)[:-5]};"
            if pkg and pkg.group(1) != opkg and re.search(r"\b%s\b" % newname, t) \
                    and f"import {opkg}.{newname};" not in t:
                if outer_imp not in t:
                    die(f"{f} uses {newname} without importing {opkg}.{os.path.basename(path)[:-5]}: add its import")
                t = t.replace(outer_imp, outer_imp + f"\nimport {opkg}.{newname};", 1)
                t = prune_imports(t)
    if t != s:
        write(f, t)
        changed += 1
print(f"rename-families: {len(moves)} files moved, {changed} files edited")

# ---------- 3. deprecated aliases, one release ----------

for old, d in ALIASES.items():
    new = MAP[old]
    p = f"{d}/{new}.java"
    s = read(p)
    s2 = re.sub(r"^public final class %s\b" % new, f"public class {new}", s, count=1, flags=re.M)
    s2 = re.sub(r"^    private %s\(\) \{" % new, f"    {new}() {{", s2, count=1, flags=re.M)
    if s2 == s:
        die(f"{p}: cannot open the class for its alias")
    write(p, s2)
    pkg = re.search(r"^package ([\w.]+);", s, re.M).group(1)
    write(f"{d}/{old}.java", f"""package {pkg};

/**
 * The former name of {{@link {new}}}, kept for one release so that programs calling {{@code {old}.…}} still compile
 * (its static members resolve through the subclass). Use {{@link {new}}}.
 */
@Deprecated(forRemoval = true)
public final class {old} extends {new} {{

    private {old}() {{
    }}
}}
""")
    git("add", f"{d}/{old}.java")

# ---------- 4. ARCHITECTURE.md's table ----------

TABLE = """Every family has every role: `ridge`, `hull` (`Hull`) and `render` (`Render`) under exactly these names and
with nothing else; the others keep a name or add a piece where the table says, and why:

| family | API | options, result | kernels | backend interface: jvm / tornado | task graphs |
|---|---|---|---|---|---|
| `kdtree` | `KdTreeBuilder` (`KdTree` is the tree it builds) | as above | as above | as above (and `TieredSteps`, the device backend in capacity tiers) | as above |
| `kdtree.zhou` | `ZhouBuilder` (a builder of a `KdTree`, as `kdtree`'s) | `KdTreeOptions`, `KdTreeResult` (the same tree, chosen by `--builder`) | `LevelKernels`, `SmallKernels`, `SubtreeKernels` (the paper's large-node, small-node and subtree stages) | as above | `ZhouTaskGraphs`, with `LevelTaskGraphs` and `SmallTaskGraphs` (per stage) |
| `cbt` | `Cbt` (the tree itself, updated in place), with `CbtBench` (runs and times the article's experiments) | as above (`CbtResult`: one experiment's figures, from `CbtBench.run`) | as above | as above | as above (and `ChunkCycle`) |
| `terrain` | as above | as above (`TerrainResult`: one frame's) | `TerrainKernels`, with `LebKernels` (Dupuy's longest-edge bisection) | as above | as above |
| `voronoi` | as above | as above | as above (and `EndVertexScans`) | as above (`HybridSearch` on tornado) | as above |

The former API names `ConvexHull`, `VoronoiDiagram`, `RayCaster`, `RayKernels` and `LevelBuilder` remain for one
release as deprecated subclasses; `Terrain.Options`, `Terrain.Frame` and `CbtBench.Row` became `TerrainOptions`, `TerrainResult`
and `CbtResult` without one.
"""
arch = "ARCHITECTURE.md"
if os.path.exists(arch):
    s = read(arch)
    m = re.search(r"^`ridge` has exactly these names\..*?\n\|[^\n]*\n\|---[^\n]*\n(?:\|[^\n]*\n)+", s, re.M | re.S)
    if m:
        write(arch, s[:m.start()] + TABLE + s[m.end():])
        print("rename-families: ARCHITECTURE.md table rewritten")
    else:
        print("rename-families: ARCHITECTURE.md has no families' table to rewrite (add it by hand)", file=sys.stderr)

NOTE = """The API classes are named after their packages (`Hull`, `Voronoi`, `Render`, `Ridge`, `Cbt`, `Terrain`; the
kd-tree builders `KdTreeBuilder` and `ZhouBuilder`). The former names `ConvexHull`, `VoronoiDiagram`, `RayCaster`,
`RayKernels` and `LevelBuilder` still compile for one release (deprecated); `Terrain.Options`, `Terrain.Frame` and `CbtBench.Row`
are now `TerrainOptions`, `TerrainResult` and `CbtResult`.

"""
s = read("README.md")
anchor = "## Embedding our TaskGraphs in your TornadoVM program"
if anchor in s:
    write("README.md", s.replace(anchor, NOTE + anchor, 1))
else:
    print("rename-families: README.md has no section '" + anchor + "': add the note on the renamed API by hand",
          file=sys.stderr)
PY
# class files of the old names would stay in target/ (and in the jar); target/ci is kept
rm -rf target/classes target/test-classes
echo "rename-families: done; now: scripts/build && ./mvnw -o -q -Ptornado test-compile"
