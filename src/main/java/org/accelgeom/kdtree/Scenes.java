package org.accelgeom.kdtree;

import java.util.SplittableRandom;

import org.accelgeom.engine.AccelGeomException;

/** Generated test scenes: random triangles, a tessellated sphere, and a name parser for the CLI and benchmarks. */
public final class Scenes {

    private Scenes() {
    }

    /**
     * n random triangles in the unit cube: a random centre and vertices within {@code size} of it (small
     * triangles, as in a finely tessellated scene), seeded.
     */
    public static float[] randomTriangles(int n, double size, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[9 * n];
        for (int t = 0; t < n; t++) {
            double cx = r.nextDouble();
            double cy = r.nextDouble();
            double cz = r.nextDouble();
            for (int c = 0; c < 3; c++) {
                v[9 * t + 3 * c] = (float) (cx + size * (r.nextDouble() - 0.5));
                v[9 * t + 3 * c + 1] = (float) (cy + size * (r.nextDouble() - 0.5));
                v[9 * t + 3 * c + 2] = (float) (cz + size * (r.nextDouble() - 0.5));
            }
        }
        return v;
    }

    /** A UV sphere of radius 1 around the origin: {@code stacks} bands of {@code slices} quads, two triangles each (2·stacks·slices triangles, the poles' degenerate ones included). */
    public static float[] sphere(int stacks, int slices) {
        float[] v = new float[18 * stacks * slices];
        int o = 0;
        for (int i = 0; i < stacks; i++) {
            for (int j = 0; j < slices; j++) {
                double[] p00 = point(i, j, stacks, slices);
                double[] p01 = point(i, j + 1, stacks, slices);
                double[] p10 = point(i + 1, j, stacks, slices);
                double[] p11 = point(i + 1, j + 1, stacks, slices);
                o = put(v, o, p00, p10, p11);
                o = put(v, o, p00, p11, p01);
            }
        }
        return v;
    }

    private static double[] point(int i, int j, int stacks, int slices) {
        double theta = Math.PI * i / stacks;
        double phi = 2 * Math.PI * (j % slices) / slices;
        return new double[] {Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta)};
    }

    private static int put(float[] v, int o, double[]... p) {
        for (double[] q : p) {
            for (int k = 0; k < 3; k++) {
                v[o++] = (float) q[k];
            }
        }
        return o;
    }

    /**
     * A scene by name: {@code random:N} (N random triangles of size 3·N^(-1/3) in the unit cube, seed given) or
     * {@code sphere:N} (a sphere of about N triangles).
     */
    public static float[] named(String spec, long seed) {
        int colon = spec.indexOf(':');
        String kind = colon < 0 ? spec : spec.substring(0, colon);
        int n;
        try {
            n = Integer.parseInt(spec.substring(colon + 1));
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            throw new AccelGeomException("bad scene '" + spec + "': expected random:N or sphere:N");
        }
        if (n < 1) {
            throw new AccelGeomException("bad scene '" + spec + "': N must be >= 1");
        }
        return switch (kind) {
            case "random" -> randomTriangles(n, 3 * Math.cbrt(1.0 / n), seed);
            case "sphere" -> {
                int s = Math.max(3, (int) Math.round(Math.sqrt(n / 4.0)));
                yield sphere(s, 2 * s);
            }
            default -> throw new AccelGeomException("bad scene '" + spec + "': expected random:N or sphere:N");
        };
    }
}
