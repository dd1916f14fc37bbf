package org.accelgeom.ridge;

/**
 * The scalar type of the evolution step (nearest representative, centroid, move test).
 *
 * <p>In {@link #FLOAT} the cloud is rounded to float once, at the start, and the evolution computes in float on
 * every backend, for throughput (the thesis's default). Choose, decimate and order compare squared distances in
 * double on those float-valued coordinates, on the host, so they decide the same way on every backend.
 */
public enum Precision {
    /** 32-bit float: ε = 2^-23. */
    FLOAT(Math.ulp(1.0f)),
    /** 64-bit double: ε = 2^-52. */
    DOUBLE(Math.ulp(1.0));

    /** Machine epsilon of the scalar type, the ε of the move test (Alg. 10, line 7). */
    public final double epsilon;

    Precision(double epsilon) {
        this.epsilon = epsilon;
    }

    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** {@code float} or {@code double}, case-insensitive. */
    public static Precision parse(String s) {
        for (Precision p : values()) {
            if (p.id().equalsIgnoreCase(s.strip())) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown precision '" + s + "': expected float or double");
    }
}
