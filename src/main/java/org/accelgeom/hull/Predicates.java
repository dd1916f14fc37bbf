package org.accelgeom.hull;

import java.util.concurrent.atomic.LongAdder;

/**
 * Exact orientation predicates for double coordinates, after Shewchuk, "Adaptive Precision Floating-Point
 * Arithmetic and Fast Robust Geometric Predicates", Discrete Comput. Geom. 18 (1997).
 *
 * <p>Each predicate runs in two stages. <b>Stage A</b> (the filter) evaluates the determinant in double
 * arithmetic together with a forward error bound, the constant {@link #ORIENT2D_BOUND} or
 * {@link #ORIENT3D_BOUND} times the permanent (the same determinant with every product replaced by its
 * absolute value, computed in double). If |det| exceeds the bound the sign of the double result is the sign
 * of the exact determinant. Otherwise the <b>exact stage</b> evaluates the determinant without any rounding
 * error as a floating-point expansion (a sum of doubles, §2 of the paper) built with Two-Sum, Two-Product,
 * Fast-Expansion-Sum and Scale-Expansion, from the original coordinates: the determinant is expanded into
 * 2×2 minors {@code px·qy − qx·py} of the input points, so no difference of coordinates is ever rounded.
 * Shewchuk's intermediate adaptive stages B and C are not used: random inputs almost never leave stage A, and
 * degenerate inputs (the ones that do) usually have an exactly zero determinant, which the exact stage finds
 * quickly.
 *
 * <p>The filter stage ({@link #orient2dFiltered}, {@link #orient3dFiltered}, {@link #sideFiltered}) allocates
 * nothing and uses no objects, so it is in the TornadoVM subset and a GPU kernel can call it, deferring the
 * {@link #UNCERTAIN} cases to the host. A GPU compiler must not contract {@code a*b - c*d} into a fused
 * multiply-add there (OpenCL: {@code -cl-fp-contract=off}), since the bounds are proven for separately rounded
 * operations; Java itself never contracts. The exact stage allocates a few small arrays and counts its runs in
 * {@link #exactEvaluations()}.
 *
 * <p><b>Range.</b> The answers are exact for every finite input, at any magnitude. The filters stay sound
 * where products overflow (an infinite or NaN permanent makes them {@link #UNCERTAIN}) or underflow (their bounds
 * carry an absolute term for that, {@link #UNDERFLOW_GUARD}). The expansion stage is exact while no product
 * overflows and none loses bits to underflow: for the 3D predicates every coordinate zero, or of magnitude below
 * 2<sup>336</sup> (about 1.4e101) and an integer multiple of 2<sup>-358</sup> (every double of magnitude at least
 * 2<sup>-306</sup>, about 7.7e-93, is), so that every exact intermediate value is a multiple of
 * 2<sup>-1074</sup> and the largest, at most 24·M³, stays below 2<sup>1023</sup>; for the 2D predicates
 * ({@link #orient2d}, {@link #collinear3d}) magnitude below 2<sup>508</sup> and a multiple of
 * 2<sup>-537</sup>. Inputs outside that range go to {@link WideRange}, the same determinant in
 * {@link java.math.BigDecimal}. NaN or infinite coordinates give an unspecified result (the methods still
 * return and never throw).
 *
 * <p>All methods are static, thread-safe and allocation-free on the filtered path.
 */
public final class Predicates {

    private Predicates() {
    }

    /** The unit roundoff ε = 2<sup>-53</sup> of double arithmetic, rounding to nearest (half an ulp of 1). */
    static final double EPSILON = 0x1p-53;

    /**
     * Stage-A error bound of {@link #orient2d}, (3 + 16ε)ε (Shewchuk's {@code ccwerrboundA}): with
     * {@code l = (bx−ax)(cy−ay)} and {@code r = (by−ay)(cx−ax)} evaluated in double, the exact determinant has
     * the sign of {@code l − r} whenever {@code |l − r| > ORIENT2D_BOUND · (|l| + |r|)}.
     */
    public static final double ORIENT2D_BOUND = (3.0 + 16.0 * EPSILON) * EPSILON;

    /**
     * Stage-A error bound of {@link #orient3d}, (7 + 56ε)ε (Shewchuk's {@code o3derrboundA}), for the
     * determinant evaluated in double exactly as {@link #orient3dFiltered} does:
     * {@code det = adz(bdx·cdy − cdx·bdy) + bdz(cdx·ady − adx·cdy) + cdz(adx·bdy − bdx·ady)}, with
     * {@code adx = ax − dx} and so on, and the permanent {@code (|bdx·cdy| + |cdx·bdy|)|adz| + ...}.
     */
    public static final double ORIENT3D_BOUND = (7.0 + 56.0 * EPSILON) * EPSILON;

    /**
     * Stage A of {@link #orient3d}, underflow term: 2<sup>-1069</sup>, 32 times the 2<sup>-1074</sup>·(|adz| +
     * |bdz| + |cdz|) by which products that underflow can move the double determinant (see
     * {@link #orient3dFiltered}).
     */
    static final double UNDERFLOW_GUARD = 0x1p-1069;

    /** What the filtered predicates return when stage A cannot decide the sign. */
    public static final int UNCERTAIN = 2;

    private static final LongAdder EXACT_EVALUATIONS = new LongAdder();

    /** How many times an exact stage ran since start or the last {@link #resetExactEvaluations()}. */
    public static long exactEvaluations() {
        return EXACT_EVALUATIONS.sum();
    }

    /** Sets the {@link #exactEvaluations()} counter back to zero. */
    public static void resetExactEvaluations() {
        EXACT_EVALUATIONS.reset();
    }

    // ------------------------------------------------------------------------------------------------------
    // 2D

    /**
     * The orientation of the triangle a, b, c in the plane: the sign of the cross product
     * (b − a) × (c − a) = (bx − ax)(cy − ay) − (by − ay)(cx − ax), computed exactly.
     *
     * @return +1 if a, b, c are in counter-clockwise order (c lies to the left of the directed line from a to
     *     b), −1 if clockwise (c to the right), 0 if the three points are collinear (including coincident)
     */
    public static int orient2d(double ax, double ay, double bx, double by, double cx, double cy) {
        int s = orient2dFiltered(ax, ay, bx, by, cx, cy);
        if (s != UNCERTAIN) {
            return s;
        }
        EXACT_EVALUATIONS.increment();
        return orient2dExact(ax, ay, bx, by, cx, cy);
    }

    /**
     * Stage A of {@link #orient2d} alone: the same sign when it can be certified in double arithmetic, else
     * {@link #UNCERTAIN}. Returns 0 only when both products of the determinant have an exactly zero factor. No objects,
     * no allocation: usable in element kernels.
     */
    public static int orient2dFiltered(double ax, double ay, double bx, double by, double cx, double cy) {
        double bax = bx - ax;
        double cay = cy - ay;
        double bay = by - ay;
        double cax = cx - ax;
        double left = bax * cay;
        double right = bay * cax;
        double det = left - right;
        double permanent = Math.abs(left) + Math.abs(right);
        // + MIN_NORMAL: a product that underflows is off by up to 2^-1075, not by a relative error
        double bound = ORIENT2D_BOUND * permanent + Double.MIN_NORMAL;
        if (det > bound) {
            return 1;
        }
        if (-det > bound) {
            return -1;
        }
        // permanent == 0 and each product has a factor that is an exact zero difference (not a product that
        // underflowed to zero): det is exactly 0
        return permanent == 0.0 && (bax == 0.0 || cay == 0.0) && (bay == 0.0 || cax == 0.0) ? 0 : UNCERTAIN;
    }

    /**
     * The exact stage of {@link #orient2d}, without the filter and without counting. The 3×3 determinant
     * |ax ay 1; bx by 1; cx cy 1| expanded along its column of ones is m(a,b) − m(a,c) + m(b,c), with the
     * minors m(p,q) = px·qy − qx·py, each an exact expansion of at most four components.
     */
    static int orient2dExact(double ax, double ay, double bx, double by, double cx, double cy) {
        if (!(expansionSafe2d(ax) && expansionSafe2d(ay) && expansionSafe2d(bx) && expansionSafe2d(by)
                && expansionSafe2d(cx) && expansionSafe2d(cy))) {
            return WideRange.orient2d(ax, ay, bx, by, cx, cy);
        }
        double[] ab = new double[4];
        double[] ac = new double[4];
        double[] bc = new double[4];
        int abLen = minor(ax, ay, bx, by, ab);
        int acLen = negate(ac, minor(ax, ay, cx, cy, ac));
        int bcLen = minor(bx, by, cx, cy, bc);
        double[] t = new double[8];
        int tLen = sum(ab, abLen, ac, acLen, t);
        double[] det = new double[12];
        return sign(det, sum(t, tLen, bc, bcLen, det));
    }

    /**
     * Whether three points in space are collinear (including coincident), exactly: whether the cross product
     * (b − a) × (c − a) is the zero vector, i.e. whether the {@link #orient2d} of all three coordinate-plane
     * projections (xy, yz, zx) are zero. Range as for {@link #orient2d}.
     */
    public static boolean collinear3d(double ax, double ay, double az, double bx, double by, double bz,
                                      double cx, double cy, double cz) {
        int xy = orient2dFiltered(ax, ay, bx, by, cx, cy);
        int yz = orient2dFiltered(ay, az, by, bz, cy, cz);
        int zx = orient2dFiltered(az, ax, bz, bx, cz, cx);
        if ((xy != 0 && xy != UNCERTAIN) || (yz != 0 && yz != UNCERTAIN) || (zx != 0 && zx != UNCERTAIN)) {
            return false;
        }
        return (xy == 0 || orient2d(ax, ay, bx, by, cx, cy) == 0)
                && (yz == 0 || orient2d(ay, az, by, bz, cy, cz) == 0)
                && (zx == 0 || orient2d(az, ax, bz, bx, cz, cx) == 0);
    }

    // ------------------------------------------------------------------------------------------------------
    // 3D

    /**
     * Shewchuk's orient3d: the sign of the determinant | a−d ; b−d ; c−d | (rows a − d, b − d, c − d),
     * computed exactly. It equals (a − d)·((b − d) × (c − d)) = −(d − a)·((b − a) × (c − a)), so:
     *
     * @return +1 if d lies below the plane through a, b, c, where "above" is the side the normal
     *     (b − a) × (c − a) points to, i.e. the side from which a, b, c appear in counter-clockwise order;
     *     −1 if d lies above it; 0 if the four points are coplanar (including when a, b, c are collinear).
     *     Always {@code orient3d(a, b, c, d) == -side(a, b, c, d)}.
     */
    public static int orient3d(double ax, double ay, double az, double bx, double by, double bz,
                               double cx, double cy, double cz, double dx, double dy, double dz) {
        int s = orient3dFiltered(ax, ay, az, bx, by, bz, cx, cy, cz, dx, dy, dz);
        if (s != UNCERTAIN) {
            return s;
        }
        EXACT_EVALUATIONS.increment();
        return orient3dExact(ax, ay, az, bx, by, bz, cx, cy, cz, dx, dy, dz);
    }

    /**
     * Which side of the oriented plane of the face (a, b, c) the point p lies on: the sign of
     * ((b − a) × (c − a))·(p − a), computed exactly. This is the test of the convex hull, "p above face
     * (a, b, c)".
     *
     * @return +1 if p lies on the side the normal (b − a) × (c − a) points to (the side from which a, b, c
     *     appear counter-clockwise), −1 if on the other side, 0 if a, b, c, p are coplanar (including when a, b,
     *     c are collinear). Always {@code side(a, b, c, p) == -orient3d(a, b, c, p)}.
     */
    public static int side(double ax, double ay, double az, double bx, double by, double bz,
                           double cx, double cy, double cz, double px, double py, double pz) {
        return -orient3d(ax, ay, az, bx, by, bz, cx, cy, cz, px, py, pz);
    }

    /**
     * Stage A of {@link #orient3d} alone: the same sign when it can be certified in double arithmetic, else
     * {@link #UNCERTAIN}. Returns 0 only when every product of the determinant has an exactly zero factor. No objects,
     * no allocation: usable in element kernels.
     */
    public static int orient3dFiltered(double ax, double ay, double az, double bx, double by, double bz,
                                       double cx, double cy, double cz, double dx, double dy, double dz) {
        double adx = ax - dx, ady = ay - dy, adz = az - dz;
        double bdx = bx - dx, bdy = by - dy, bdz = bz - dz;
        double cdx = cx - dx, cdy = cy - dy, cdz = cz - dz;

        double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy;
        double cdxady = cdx * ady, adxcdy = adx * cdy;
        double adxbdy = adx * bdy, bdxady = bdx * ady;

        double det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
        double permanent = (Math.abs(bdxcdy) + Math.abs(cdxbdy)) * Math.abs(adz)
                + (Math.abs(cdxady) + Math.abs(adxcdy)) * Math.abs(bdz)
                + (Math.abs(adxbdy) + Math.abs(bdxady)) * Math.abs(cdz);
        // underflow: a 2x2 product that underflows is off by up to 2^-1075 absolutely, and that error is then
        // multiplied by its z difference; the other underflows (outer products, the bound) stay below MIN_NORMAL
        // (below 2^46 the guard term is at most 2^-1023, so MIN_NORMAL stands for it: computing it would make a
        // subnormal product, which costs a microcode assist on x86, twice the whole filter's time)
        double zSum = Math.abs(adz) + Math.abs(bdz) + Math.abs(cdz);
        double bound = ORIENT3D_BOUND * permanent
                + (zSum > 0x1p46 ? UNDERFLOW_GUARD * zSum : Double.MIN_NORMAL) + Double.MIN_NORMAL;
        if (det > bound) {
            return 1;
        }
        if (-det > bound) {
            return -1;
        }
        // permanent == 0 and every term has a factor that is an exact zero difference (not a product that
        // underflowed to zero): det is exactly 0
        return permanent == 0.0 && zeroByFactors(adx, ady, adz, bdx, bdy, bdz, cdx, cdy, cdz) ? 0 : UNCERTAIN;
    }

    /**
     * Whether adz(bdx·cdy − cdx·bdy) + bdz(cdx·ady − adx·cdy) + cdz(adx·bdy − bdx·ady) is zero because every
     * product in it has a factor that is exactly zero.
     */
    private static boolean zeroByFactors(double adx, double ady, double adz, double bdx, double bdy, double bdz,
            double cdx, double cdy, double cdz) {
        return (adz == 0.0 || ((bdx == 0.0 || cdy == 0.0) && (cdx == 0.0 || bdy == 0.0)))
                && (bdz == 0.0 || ((cdx == 0.0 || ady == 0.0) && (adx == 0.0 || cdy == 0.0)))
                && (cdz == 0.0 || ((adx == 0.0 || bdy == 0.0) && (bdx == 0.0 || ady == 0.0)));
    }

    /**
     * Stage A of {@link #side} alone: {@code -orient3dFiltered(a, b, c, p)}, or {@link #UNCERTAIN}.
     */
    public static int sideFiltered(double ax, double ay, double az, double bx, double by, double bz,
                                   double cx, double cy, double cz, double px, double py, double pz) {
        int s = orient3dFiltered(ax, ay, az, bx, by, bz, cx, cy, cz, px, py, pz);
        return s == UNCERTAIN ? UNCERTAIN : -s;
    }

    /**
     * The exact stage of {@link #orient3d}, without the filter and without counting.
     *
     * <p>| a−d ; b−d ; c−d | is the 4×4 determinant with rows (p, 1) for p = a, b, c, d. Expanding it along
     * the column of ones gives D(a,b,c) − D(a,b,d) + D(a,c,d) − D(b,c,d), with the 3×3 determinants
     * D(p,q,r) = pz·m(q,r) − qz·m(p,r) + rz·m(p,q) and the minors m(p,q) = px·qy − qx·py. Collecting the
     * terms by the z coordinate that multiplies them:
     * <pre>
     *   det = az (bc − bd + cd) + bz (ad − ac − cd) + cz (ab − ad + bd) + dz (ac − ab − bc)
     * </pre>
     * Every minor is an exact 4-component expansion, each bracket at most 12 components, each scaled term at
     * most 24, the determinant at most 96.
     */
    static int orient3dExact(double ax, double ay, double az, double bx, double by, double bz,
                             double cx, double cy, double cz, double dx, double dy, double dz) {
        if (!(expansionSafe3d(ax) && expansionSafe3d(ay) && expansionSafe3d(az) && expansionSafe3d(bx)
                && expansionSafe3d(by) && expansionSafe3d(bz) && expansionSafe3d(cx) && expansionSafe3d(cy)
                && expansionSafe3d(cz) && expansionSafe3d(dx) && expansionSafe3d(dy) && expansionSafe3d(dz))) {
            return WideRange.orient3d(ax, ay, az, bx, by, bz, cx, cy, cz, dx, dy, dz);
        }
        double[] ab = new double[4], ac = new double[4], ad = new double[4];
        double[] bc = new double[4], bd = new double[4], cd = new double[4];
        int abLen = minor(ax, ay, bx, by, ab);
        int acLen = minor(ax, ay, cx, cy, ac);
        int adLen = minor(ax, ay, dx, dy, ad);
        int bcLen = minor(bx, by, cx, cy, bc);
        int bdLen = minor(bx, by, dx, dy, bd);
        int cdLen = minor(cx, cy, dx, dy, cd);

        double[] t8 = new double[8];
        double[] t12 = new double[12];
        double[] a24 = new double[24], b24 = new double[24], c24 = new double[24], d24 = new double[24];
        int len;

        // az (bc - bd + cd)
        len = sum(bc, bcLen, cd, cdLen, t8);
        len = sum(t8, len, bd, negate(bd, bdLen), t12);
        negate(bd, bdLen);
        int aLen = scale(t12, len, az, a24);

        // bz (ad - ac - cd)
        len = sum(ad, adLen, ac, negate(ac, acLen), t8);
        negate(ac, acLen);
        len = sum(t8, len, cd, negate(cd, cdLen), t12);
        int bLen = scale(t12, len, bz, b24);

        // cz (ab - ad + bd)
        len = sum(ab, abLen, bd, bdLen, t8);
        len = sum(t8, len, ad, negate(ad, adLen), t12);
        int cLen = scale(t12, len, cz, c24);

        // dz (ac - ab - bc)
        len = sum(ac, acLen, ab, negate(ab, abLen), t8);
        len = sum(t8, len, bc, negate(bc, bcLen), t12);
        int dLen = scale(t12, len, dz, d24);

        double[] ab48 = new double[48], cd48 = new double[48], det = new double[96];
        int abdLen = sum(a24, aLen, b24, bLen, ab48);
        int cddLen = sum(c24, cLen, d24, dLen, cd48);
        return sign(det, sum(ab48, abdLen, cd48, cddLen, det));
    }

    /**
     * Whether the expansion stage of {@link #orient3d} is exact with v among its inputs: v is zero, or
     * |v| &lt; 2<sup>336</sup> and v is a multiple of 2<sup>-358</sup> (see the class comment, Range).
     */
    static boolean expansionSafe3d(double v) {
        return v == 0.0 || (Magnitudes.highestBit(v) <= 335 && Magnitudes.lowestBit(v) >= -358);
    }

    /** As {@link #expansionSafe3d} for the 2D predicates: |v| &lt; 2<sup>508</sup>, a multiple of 2<sup>-537</sup>. */
    static boolean expansionSafe2d(double v) {
        return v == 0.0 || (Magnitudes.highestBit(v) <= 507 && Magnitudes.lowestBit(v) >= -537);
    }

    // ------------------------------------------------------------------------------------------------------
    // Expansion arithmetic (§2 of the paper). An expansion is a prefix h[0..len) of an array whose components
    // are nonoverlapping and increase in magnitude; its value is their exact sum. The routines below keep
    // expansions strongly nonoverlapping (with IEEE round-to-nearest-even, which Java guarantees) and drop zero
    // components, so the last component of a non-empty result is the largest and carries the sign.

    /**
     * The rounding error of s = fl(a + b): a + b = s + sumTail(a, b, s) exactly (Two-Sum, Knuth; Theorem 7).
     */
    private static double sumTail(double a, double b, double s) {
        double bVirtual = s - a;
        double aVirtual = s - bVirtual;
        return (a - aVirtual) + (b - bVirtual);
    }

    /** The rounding error of p = fl(a·b): a·b = p + productTail(a, b, p) exactly (Two-Product). */
    private static double productTail(double a, double b, double p) {
        return Math.fma(a, b, -p);
    }

    /** The minor px·qy − qx·py as an exact expansion in h (at most 4 components); returns its length. */
    private static int minor(double px, double py, double qx, double qy, double[] h) {
        double s = px * qy;
        double t = qx * py;
        double[] e = {productTail(px, qy, s), s};
        double[] f = {-productTail(qx, py, t), -t};
        return sum(e, 2, f, 2, h);
    }

    /**
     * h = e + f (Fast-Expansion-Sum with zero elimination, Theorem 13): merge the components of e and f by
     * increasing magnitude, then run them through a chain of Two-Sums. h must have room for eLen + fLen
     * components and be neither e nor f. Returns the length of h.
     */
    private static int sum(double[] e, int eLen, double[] f, int fLen, double[] h) {
        if (eLen == 0 || fLen == 0) {
            double[] g = eLen == 0 ? f : e;
            int gLen = eLen == 0 ? fLen : eLen;
            System.arraycopy(g, 0, h, 0, gLen);
            return gLen;
        }
        int i = 0;
        int j = 0;
        int k = 0;
        double q = Math.abs(f[0]) > Math.abs(e[0]) ? e[i++] : f[j++];
        while (i < eLen || j < fLen) {
            double g = (j == fLen || (i < eLen && Math.abs(e[i]) < Math.abs(f[j]))) ? e[i++] : f[j++];
            double s = q + g;
            double tail = sumTail(q, g, s);
            if (tail != 0.0) {
                h[k++] = tail;
            }
            q = s;
        }
        if (q != 0.0 || k == 0) {
            h[k++] = q;
        }
        return k;
    }

    /**
     * h = b·e (Scale-Expansion with zero elimination, Theorem 19). h must have room for 2·eLen components and
     * not be e. Returns the length of h.
     */
    private static int scale(double[] e, int eLen, double b, double[] h) {
        int k = 0;
        double q = e[0] * b;
        double tail = productTail(e[0], b, q);
        if (tail != 0.0) {
            h[k++] = tail;
        }
        for (int i = 1; i < eLen; i++) {
            double product = e[i] * b;
            double productTail = productTail(e[i], b, product);
            double s = q + productTail;
            tail = sumTail(q, productTail, s);
            if (tail != 0.0) {
                h[k++] = tail;
            }
            q = product + s;               // Fast-Two-Sum in the paper: |product| >= |s|
            tail = sumTail(product, s, q);
            if (tail != 0.0) {
                h[k++] = tail;
            }
        }
        if (q != 0.0 || k == 0) {
            h[k++] = q;
        }
        return k;
    }

    /** Negates the expansion e in place; returns its length. */
    private static int negate(double[] e, int eLen) {
        for (int i = 0; i < eLen; i++) {
            e[i] = -e[i];
        }
        return eLen;
    }

    /** The sign of the expansion e: that of its largest (last) component, 0 for an empty or zero one. */
    private static int sign(double[] e, int eLen) {
        return eLen == 0 ? 0 : (int) Math.signum(e[eLen - 1]);
    }
}
