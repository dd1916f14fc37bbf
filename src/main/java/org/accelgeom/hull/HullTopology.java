package org.accelgeom.hull;

import java.util.Arrays;

/**
 * The triangulated polytope of the QuickHull on the host: a half-edge structure over triangles (the paper's
 * §3.3 point/edge/face records, as arrays). Half-edge {@code 3f+k} of face f runs from {@code fv[3f+k]} to
 * {@code fv[3f+(k+1)%3]}; {@code twin[3f+k]} is the opposite half-edge of the neighbouring face. Faces are
 * counter-clockwise seen from outside. Face ids only grow: a deleted face keeps its id and records the cone
 * that replaced it ({@code coneFirst/coneCount}), which is what the reassignment kernel follows.
 *
 * <p>All visibility decisions here are exact ({@link Predicates#side}).
 */
final class HullTopology {

    final double[] x;
    final double[] y;
    final double[] z;
    /** Coordinates of the face planes and distances: x, y, z themselves, or rounded ones ({@link HullRange}). */
    private final double[] px;
    private final double[] py;
    private final double[] pz;
    /** Every face gets an infinite filter bound: every kernel test goes to the exact predicates. */
    private final boolean exactOnly;

    int faceCount;
    int[] fv;
    /**
     * The exact coordinates of each face's corners, 9 per face in the order of {@link #fv}: the visibility tests read
     * these instead of the point arrays, where the hull's vertices lie scattered (at 10^8 points, 2.4 GB of arrays: a
     * cache miss for each of a test's 9 corner coordinates).
     */
    double[] fc;
    int[] twin;
    int[] coneFirst;
    int[] coneCount;
    double[] plane;

    /** The serial insertion's work arrays ({@link #insert}). */
    private final Scratch own = new Scratch();

    /**
     * One insertion's work arrays: the marks of the faces its search tested, its stack, its visible region and horizon
     * (the output of {@link #region}), and the cone's table of side links. One per thread that inserts or searches.
     */
    static final class Scratch {
        private int[] mark = new int[0];
        private int stamp;
        private int[] stack = new int[64];
        /** Horizon half-edges of the last {@link #region}: {@code horizon[0 .. horizonCount-1]}. */
        int[] horizon = new int[64];
        int horizonCount;
        /** Visible faces of the last {@link #region}: {@code visible[0 .. visibleCount-1]}. */
        int[] visible = new int[64];
        int visibleCount;
        /** Cone face starting at each horizon vertex of the current cone: a small open-addressing table. */
        private int[] coneKey = new int[64];
        private int[] coneFace = new int[64];
    }

    HullTopology(double[] x, double[] y, double[] z, int capacity) {
        this(x, y, z, x, y, z, false, capacity);
    }

    /**
     * Exact coordinates x, y, z for every decision; px, py, pz for the face planes the kernels test against (and
     * the distances that choose the farthest points); with {@code exactOnly} those tests are all left to the host.
     */
    HullTopology(double[] x, double[] y, double[] z, double[] px, double[] py, double[] pz, boolean exactOnly,
            int capacity) {
        this.x = x;
        this.y = y;
        this.z = z;
        this.px = px;
        this.py = py;
        this.pz = pz;
        this.exactOnly = exactOnly;
        allocate(Math.max(capacity, 16));
        faceCount = 1; // face 0: the virtual root, deleted by the initial tetrahedron
    }

    /** Empty face tables for {@code capacity} faces. */
    private void allocate(int capacity) {
        fv = new int[3 * capacity];
        fc = new double[9 * capacity];
        twin = new int[3 * capacity];
        coneFirst = new int[capacity];
        coneCount = new int[capacity];
        plane = new double[HullKernels.PLANE_STRIDE * capacity];
    }

    boolean alive(int f) {
        return coneCount[f] == 0;
    }

    /** Exactly: is p strictly above face f? */
    boolean above(int f, int p) {
        return above(f, x[p], y[p], z[p]);
    }

    /** Exactly: is the point (qx, qy, qz) strictly above face f? */
    private boolean above(int f, double qx, double qy, double qz) {
        int o = 9 * f;
        double[] c = fc;
        return Predicates.side(c[o], c[o + 1], c[o + 2], c[o + 3], c[o + 4], c[o + 5], c[o + 6], c[o + 7], c[o + 8], qx,
                qy, qz) > 0;
    }

    private int newFace(int a, int b, int c) {
        return newFace(a, b, c, x[a], y[a], z[a], x[b], y[b], z[b], x[c], y[c], z[c]);
    }

    /** A face (a, b, c) whose corners' exact coordinates are given (those of the point arrays). */
    private int newFace(int a, int b, int c, double ax, double ay, double az, double bx, double by, double bz,
            double cx, double cy, double cz) {
        ensureFaces(faceCount + 1);
        int f = faceCount++;
        face(f, a, b, c, ax, ay, az, bx, by, bz, cx, cy, cz);
        return f;
    }

    /** Face tables for at least {@code faces} faces (ids below {@code faces}); the arrays grow by doubling. */
    void ensureFaces(int faces) {
        if (faces <= coneCount.length) {
            return;
        }
        int cap = Math.max(faces, coneCount.length * 2);
        fv = Arrays.copyOf(fv, 3 * cap);
        fc = Arrays.copyOf(fc, 9 * cap);
        twin = Arrays.copyOf(twin, 3 * cap);
        coneFirst = Arrays.copyOf(coneFirst, cap);
        coneCount = Arrays.copyOf(coneCount, cap);
        plane = Arrays.copyOf(plane, HullKernels.PLANE_STRIDE * cap);
    }

    /** Writes face f = (a, b, c), live, with its corners' exact coordinates (those of the point arrays) and plane. */
    private void face(int f, int a, int b, int c, double ax, double ay, double az, double bx, double by, double bz,
            double cx, double cy, double cz) {
        fv[3 * f] = a;
        fv[3 * f + 1] = b;
        fv[3 * f + 2] = c;
        coneCount[f] = 0;
        corners(f, ax, ay, az, bx, by, bz, cx, cy, cz);
    }

    /** Face f's corners' coordinates and plane, from its corners {@code fv} (the point arrays). */
    private void corners(int f) {
        int a = fv[3 * f];
        int b = fv[3 * f + 1];
        int c = fv[3 * f + 2];
        corners(f, x[a], y[a], z[a], x[b], y[b], z[b], x[c], y[c], z[c]);
    }

    private void corner(int o, double px, double py, double pz) {
        fc[o] = px;
        fc[o + 1] = py;
        fc[o + 2] = pz;
    }

    /** Face f's corners' coordinates (given: those of its corners fv) and its plane. */
    private void corners(int f, double ax, double ay, double az, double bx, double by, double bz, double cx, double cy,
            double cz) {
        corner(9 * f, ax, ay, az);
        corner(9 * f + 3, bx, by, bz);
        corner(9 * f + 6, cx, cy, cz);
        if (px == x && py == y && pz == z) {
            FacePlanes.compute(ax, ay, az, bx, by, bz, cx, cy, cz, plane, f);
        } else {
            FacePlanes.compute(px, py, pz, fv[3 * f], fv[3 * f + 1], fv[3 * f + 2], plane, f);
        }
        if (exactOnly) {
            plane[HullKernels.PLANE_STRIDE * f + 4] = Double.POSITIVE_INFINITY;
            plane[HullKernels.PLANE_STRIDE * f + 5] = Double.POSITIVE_INFINITY;
        }
    }

    /**
     * Step 1: the initial tetrahedron (a, b, c, d) with d strictly off the plane of (a, b, c); its four faces
     * (ids 1..4) become the cone of the root face 0, oriented outward.
     */
    void initTetrahedron(int a, int b, int c, int d, RoundDelta delta) {
        if (Predicates.side(x[a], y[a], z[a], x[b], y[b], z[b], x[c], y[c], z[c], x[d], y[d], z[d]) > 0) {
            int t = b;
            b = c;
            c = t;
        }
        // (a, b, c) now has d below it; the other faces keep the orientation consistent
        int f0 = newFace(a, b, c);
        int f1 = newFace(a, d, b);
        int f2 = newFace(b, d, c);
        int f3 = newFace(c, d, a);
        link(f0, 0, f1, 2); // a-b / b-a
        link(f0, 1, f2, 2); // b-c / c-b
        link(f0, 2, f3, 2); // c-a / a-c
        link(f1, 0, f3, 1); // a-d / d-a
        link(f1, 1, f2, 0); // d-b / b-d
        link(f2, 1, f3, 0); // d-c / c-d
        coneFirst[0] = f0;
        coneCount[0] = 4;
        delta.addFaces(plane, f0, 4);
        delta.addDeleted(0, f0, 4);
    }

    private void link(int f, int k, int g, int j) {
        twin[3 * f + k] = 3 * g + j;
        twin[3 * g + j] = 3 * f + k;
    }

    /**
     * Steps 4–7 for apex p, which is strictly above the live face start: the visible set by breadth over
     * adjacency, its horizon, and the cone of new faces (p, horizon edge). Returns the number of new faces, or
     * -1 without changing anything when more than {@code maxNewFaces} would be created.
     */
    int insert(int p, int start, int maxNewFaces, RoundDelta delta) {
        region(p, start, own);
        int count = own.horizonCount;
        if (count > maxNewFaces) {
            return -1;
        }
        int first = faceCount;
        ensureFaces(first + count);
        cone(p, own.horizon, count, first, own);
        faceCount = first + count;
        retire(own.visible, own.visibleCount, first, count);
        for (int i = 0; i < own.visibleCount; i++) {
            delta.addDeleted(own.visible[i], first, count);
        }
        delta.addFaces(plane, first, count);
        delta.addApex(p);
        return count;
    }

    /**
     * Steps 4–5 for apex p, strictly above the live face start, without changing the topology (so threads may search
     * at once, each with its scratch {@code s}): the faces p sees, connected to start, by depth over adjacency with
     * exact tests, into {@code s.visible}, and their horizon, the half-edges of visible faces whose neighbour p does
     * not see, into {@code s.horizon} (in the order {@link #cone} numbers the new faces).
     */
    void region(int p, int start, Scratch s) {
        if (s.mark.length < faceCount) {
            s.mark = Arrays.copyOf(s.mark, Math.max(faceCount, 2 * s.mark.length));
        }
        s.stamp += 2; // mark == stamp: visible; mark == stamp + 1: tested, not visible
        if (s.stamp > Integer.MAX_VALUE - 4) {
            Arrays.fill(s.mark, 0);
            s.stamp = 2;
        }
        int[] mark = s.mark;
        int visStamp = s.stamp;
        int notStamp = s.stamp + 1;
        double qx = x[p];
        double qy = y[p];
        double qz = z[p];
        int visibleCount = 0;
        int horizonCount = 0;
        int sp = 0;
        s.stack[sp++] = start;
        mark[start] = visStamp;
        while (sp > 0) {
            int f = s.stack[--sp];
            s.visible = push(s.visible, visibleCount);
            s.visible[visibleCount++] = f;
            for (int k = 0; k < 3; k++) {
                int h = twin[3 * f + k];
                int g = h / 3;
                if (mark[g] == visStamp) {
                    continue;
                }
                if (mark[g] != notStamp && above(g, qx, qy, qz)) {
                    mark[g] = visStamp;
                    s.stack = push(s.stack, sp);
                    s.stack[sp++] = g;
                } else {
                    mark[g] = notStamp;
                    s.horizon = push(s.horizon, horizonCount);
                    s.horizon[horizonCount++] = 3 * f + k;
                }
            }
        }
        s.visibleCount = visibleCount;
        s.horizonCount = horizonCount;
    }

    /**
     * Step 7: the cone of apex p over the horizon half-edges {@code horizon[0 .. count-1]} of its visible region, as
     * faces {@code first .. first+count-1} (the tables must hold them; {@link #faceCount} is the caller's): face
     * {@code first + e} is (u, v, p) for horizon half-edge e from u to v, linked to the face across e and to its two
     * neighbours in the cone. It writes only the new faces and the twins of the horizon's outer half-edges, so cones
     * over disjoint regions whose horizons' outer faces none of them deletes may be built at once.
     */
    void cone(int p, int[] horizon, int count, int first, Scratch s) {
        double qx = x[p];
        double qy = y[p];
        double qz = z[p];
        int slots = Integer.highestOneBit(Math.max(16, 4 * count));
        if (s.coneKey.length < slots) {
            s.coneKey = new int[slots];
            s.coneFace = new int[slots];
        }
        int[] coneKey = s.coneKey;
        Arrays.fill(coneKey, 0, slots, -1);
        double[] c = fc;
        for (int e = 0; e < count; e++) {
            int he = horizon[e];
            int f = he / 3;
            int k = he % 3;
            int k1 = (k + 1) % 3;
            int u = fv[3 * f + k];
            int v = fv[3 * f + k1];
            int nf = first + e;
            face(nf, u, v, p, c[9 * f + 3 * k], c[9 * f + 3 * k + 1], c[9 * f + 3 * k + 2], c[9 * f + 3 * k1],
                    c[9 * f + 3 * k1 + 1], c[9 * f + 3 * k1 + 2], qx, qy, qz);
            int out = twin[he];
            twin[3 * nf] = out;
            twin[out] = 3 * nf;
            int slot = coneSlot(coneKey, u, slots);
            coneKey[slot] = u;
            s.coneFace[slot] = nf;
        }
        // link the cone's side edges: (u, v, p) edge v->p meets (v, w, p) edge p->v
        for (int nf = first; nf < first + count; nf++) {
            int v = fv[3 * nf + 1];
            int slot = coneSlot(coneKey, v, slots);
            if (coneKey[slot] != v) {
                throw new IllegalStateException("horizon is not a closed loop at vertex " + v);
            }
            int next = s.coneFace[slot];
            twin[3 * nf + 1] = 3 * next + 2;
            twin[3 * next + 2] = 3 * nf + 1;
        }
    }

    /** Marks the visible faces {@code visible[0 .. n-1]} deleted, replaced by the cone {@code first .. first+count-1}. */
    void retire(int[] visible, int n, int first, int count) {
        for (int i = 0; i < n; i++) {
            int f = visible[i];
            coneFirst[f] = first;
            coneCount[f] = count;
        }
    }

    /** The slot of vertex v in the cone table {@code coneKey} of {@code slots} entries (a power of two): v's, or the empty one. */
    private static int coneSlot(int[] coneKey, int v, int slots) {
        int s = (v * 0x9E3779B1) >>> 1 & (slots - 1);
        while (coneKey[s] != -1 && coneKey[s] != v) {
            s = (s + 1) & (slots - 1);
        }
        return s;
    }

    private static int[] push(int[] a, int size) {
        return size < a.length ? a : Arrays.copyOf(a, a.length * 2);
    }

    /**
     * Host side of an uncertain point: exactly the reassignment kernel's loop, with exact predicates. Starting
     * at the deleted face f, returns the first face of the cone chain that p is strictly above (or -1).
     */
    int resolve(int p, int f, double[] distOut) {
        while (f >= 0 && coneCount[f] > 0) {
            int firstFace = coneFirst[f];
            int end = firstFace + coneCount[f];
            int next = -1;
            for (int j = firstFace; j < end; j++) {
                if (above(j, p)) {
                    next = j;
                    break;
                }
            }
            f = next;
        }
        if (f >= 0) {
            distOut[0] = FacePlanes.distance(plane, f, px[p], py[p], pz[p]);
        }
        return f;
    }

    /** This topology's faces so far, as a {@link HullHistory} (copies of the arrays). */
    HullHistory history() {
        return new HullHistory(faceCount, Arrays.copyOf(fv, 3 * faceCount), Arrays.copyOf(twin, 3 * faceCount),
                Arrays.copyOf(coneFirst, faceCount), Arrays.copyOf(coneCount, faceCount));
    }

    /**
     * Makes this topology (of no faces yet) the history {@code h}, whose points are named by this topology's
     * indices, with its planes computed here; {@code delta} gets every face as new (their planes), every deleted face
     * with its cone (the root's first), and the history's points as apexes: a backend that applies it walks every
     * point from the root (label 0) to its live face, as after the rounds that made the history.
     */
    void seed(HullHistory h, RoundDelta delta, boolean parallel) {
        int faces = h.faces();
        if (faceCount != 1) {
            throw new IllegalStateException("a topology is seeded before its first face");
        }
        if (coneCount.length < faces) {
            allocate(Integer.highestOneBit(faces) * 2);
        }
        delta.clear(1);
        System.arraycopy(h.fv(), 0, fv, 0, 3 * faces);
        // each face's corners and plane (as newFace makes them), split over cores for a large history
        java.util.stream.IntStream ids = java.util.stream.IntStream.range(1, faces);
        (parallel && faces > 1 << 14 ? ids.parallel() : ids).forEach(this::corners);
        faceCount = faces;
        delta.planes = Arrays.copyOfRange(plane, HullKernels.PLANE_STRIDE, HullKernels.PLANE_STRIDE * faces);
        delta.newCount = faces - 1;
        System.arraycopy(h.twin(), 0, twin, 0, 3 * faces);
        for (int f = 0; f < faces; f++) {
            coneFirst[f] = h.coneFirst()[f];
            coneCount[f] = h.coneCount()[f];
            if (coneCount[f] > 0) {
                delta.addDeleted(f, coneFirst[f], coneCount[f]);
            }
        }
        for (int p : h.points()) {
            delta.addApex(p);
        }
    }

    /** The live faces, in id order. */
    int[] liveFaces() {
        int count = 0;
        for (int f = 1; f < faceCount; f++) {
            if (alive(f)) {
                count++;
            }
        }
        int[] out = new int[count];
        int k = 0;
        for (int f = 1; f < faceCount; f++) {
            if (alive(f)) {
                out[k++] = f;
            }
        }
        return out;
    }
}
