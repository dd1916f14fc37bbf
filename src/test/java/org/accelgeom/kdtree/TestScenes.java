package org.accelgeom.kdtree;

import java.util.SplittableRandom;

/** Test scenes of the kd-tree builders and the ray caster, shared by the kdtree, kdtree.zhou and render tests. */
public final class TestScenes {

    private TestScenes() {
    }

    /** Scenes that exercise planar events, straddlers, duplicates and symmetric ties. */
    public static float[] scene(String kind, int n, long seed) {
        return switch (kind) {
            case "random" -> Scenes.randomTriangles(n, 0.15, seed);
            case "large" -> Scenes.randomTriangles(n, 0.8, seed);
            case "sphere" -> Scenes.sphere(Math.max(3, (int) Math.sqrt(n / 4.0)), 2 * Math.max(3, (int) Math.sqrt(n / 4.0)));
            case "grid" -> grid(n, seed);
            default -> throw new IllegalArgumentException(kind);
        };
    }

    /** Axis-aligned triangles on a coarse lattice: many planar events, equal positions, duplicate triangles. */
    public static float[] grid(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[9 * n];
        for (int t = 0; t < n; t++) {
            int flat = r.nextInt(3);
            float[] o = {r.nextInt(6), r.nextInt(6), r.nextInt(6)};
            int a = (flat + 1) % 3;
            int b = (flat + 2) % 3;
            for (int c = 0; c < 3; c++) {
                float[] p = o.clone();
                if (c == 1) {
                    p[a] += 1 + r.nextInt(2);
                }
                if (c == 2) {
                    p[b] += 1 + r.nextInt(2);
                }
                System.arraycopy(p, 0, v, 9 * t + 3 * c, 3);
            }
        }
        return v;
    }
}
