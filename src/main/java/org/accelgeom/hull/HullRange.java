package org.accelgeom.hull;

/**
 * What the hull does about the binary range of its input, so that it is exact for every finite double.
 *
 * <p>The floating-point parts of the hull (the face planes and the kernels' filtered tests, {@link FacePlanes},
 * {@link HullKernels}; the extreme and farthest points) are sound, and the expansion stage of {@link Predicates}
 * exact, while no product of coordinates or of their differences overflows or loses bits to underflow. That
 * holds in the <em>window</em>: every coordinate zero or of magnitude below 2<sup>{@value #HIGH}+1</sup> and a
 * multiple of 2<sup>{@value #LOW}</sup> (products of up to four differences then stay between about
 * 2<sup>-1000</sup> and 2<sup>820</sup>). We bound the lowest bit of a coordinate v from below by
 * highestBit(min |v|) − 52, which needs only the smallest and the largest non-zero magnitude of the input.
 *
 * <ul>
 *   <li>{@link Mode#DIRECT}: the input lies in the window (every usual input): nothing changes.</li>
 *   <li>{@link Mode#SCALED}: its range (highest bit minus lowest) fits the window's width: the hull runs on the
 *   coordinates times 2<sup>{@link #shift}</sup>, which is exact (no result leaves the normal range) and changes
 *   neither the combinatorial hull nor any decision; the highest bit becomes {@value #HIGH} whatever the input's
 *   scale, so 2<sup>k</sup>·P gives the same arrays, and the same answer, for every k.</li>
 *   <li>{@link Mode#WIDE}: a wider range (say 1e300 and 1e-300 in one input): no scaling is exact. The exact
 *   predicates run on the input as it is ({@link Predicates} is exact at every magnitude); the kernels, face
 *   planes and farthest-point choices run on the coordinates times 2<sup>{@link #shift}</sup> rounded (tiny
 *   ones may round to zero), and every face gets an infinite filter bound, so that every kernel test is left
 *   to the host's exact predicates. Slow (each point is tested on the host) but exact.</li>
 * </ul>
 */
record HullRange(Mode mode, int shift) {

    /** The window's highest bit. */
    static final int HIGH = 200;
    /** The window's lowest bit. */
    static final int LOW = -200;

    enum Mode { DIRECT, SCALED, WIDE }

    /** The range of an input whose largest magnitude is {@code maxAbs} and smallest non-zero one {@code minAbs}. */
    static HullRange of(double maxAbs, double minAbs) {
        if (maxAbs == 0.0) {
            return new HullRange(Mode.DIRECT, 0);
        }
        int high = Magnitudes.highestBit(maxAbs);
        int low = Math.max(Magnitudes.highestBit(minAbs) - 52, -1074);
        if (high <= HIGH && low >= LOW) {
            return new HullRange(Mode.DIRECT, 0);
        }
        return new HullRange(high - low <= HIGH - LOW ? Mode.SCALED : Mode.WIDE, HIGH - high);
    }

    /** v times 2<sup>shift</sup>: exact in the SCALED mode, rounded in the WIDE mode. */
    double[] scale(double[] v) {
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = Math.scalb(v[i], shift);
        }
        return out;
    }
}
