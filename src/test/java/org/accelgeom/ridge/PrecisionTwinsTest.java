package org.accelgeom.ridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The float steps are generated from the double ones ({@link SphereSteps} → {@code SphereStepsF}, pom.xml execution
 * float-twins): here the generated class has every step with float types, and on a generated cloud one closestSphere
 * + shiftSphere iteration in float finds the double iteration's nearest representatives and moves the representatives
 * to the same centroids within float rounding. (Each backend against the JVM reference per precision:
 * {@code RidgeTest}, {@code TornadoRidgeTest}, {@code tornado/DeviceStepsOnTheJvmTest}.)
 */
class PrecisionTwinsTest {

    /**
     * Coordinates of these clouds stay below 256 in magnitude: rounding one to float moves it by at most 2^-17 (half
     * an ulp of 256, 7.6e-6); a centroid in float takes a few such roundings (the cloud, the representative, the
     * mean, the sum), so 1e-4 holds them with margin while a wrong centroid (a point more or less: about R1 / n_s)
     * is far outside.
     */
    private static final double CENTROID_TOLERANCE = 1e-4;

    @ParameterizedTest
    @CsvSource({"spiral2d, 2, 11", "spiral3d, 3, 12", "segment, 4, 13"})
    void oneFloatIterationMatchesTheDoubleIteration(String curve, int dim, long seed) {
        double r1 = 8.34;
        EvolutionLayout layout = EvolutionLayout.bruteForce(Curve.parse(curve).sample(4000, dim, 4.17, seed));
        int d = layout.d();
        int n = layout.n();
        int ns = 120;
        double[] s = new double[ns * d];
        for (int k = 0; k < ns; k++) { // representatives on cloud points spread over the curve
            for (int c = 0; c < d; c++) {
                s[k * d + c] = layout.coords()[c * n + (int) ((long) k * n / ns)];
            }
        }
        float[] sf = new float[s.length];
        for (int k = 0; k < s.length; k++) {
            sf[k] = (float) s[k];
        }
        float[] pf = layout.floatCoords();
        double r1sq = r1 * r1;
        int fixed = RidgeKernels.fixedPointExponent(n, r1);
        double scale = Math.scalb(1.0, fixed);
        double inv = Math.scalb(1.0, -fixed);
        int[] tileStart = {0, ns};
        boolean[] active = {true};
        int assigned = 0;
        for (int i = 0; i < n; i++) {
            int o = SphereSteps.nearest(layout.coords(), n, d, i, s, 0, ns, r1sq);
            assertEquals(o, SphereStepsF.nearest(pf, n, d, i, sf, 0, ns, (float) r1sq), "point " + i);
            assigned += o >= 0 ? 1 : 0;
        }
        assertTrue(assigned > n / 2, "most points lie within R1 of a representative: " + assigned);

        int[] count = new int[ns];
        long[] sum = new long[ns * d];
        SphereSteps.accumulate(layout, layout.coords(), s, tileStart, active, r1sq, scale, 0, n, count, sum);
        int[] countF = new int[ns];
        long[] sumF = new long[ns * d];
        SphereStepsF.accumulate(layout, pf, sf, tileStart, active, (float) r1sq, (float) scale, 0, n, countF, sumF);
        assertArrayEquals(count, countF, "SpherePointCount");

        boolean[] changed = new boolean[1];
        boolean[] changedF = new boolean[1];
        assertTrue(SphereSteps.shift(s, ns, d, new int[ns], active, count, sum, changed, Precision.DOUBLE.epsilon, inv));
        assertTrue(SphereStepsF.shift(sf, ns, d, new int[ns], active, countF, sumF, changedF,
                (float) Precision.FLOAT.epsilon, (float) inv));
        double worst = 0;
        for (int k = 0; k < s.length; k++) {
            worst = Math.max(worst, Math.abs(s[k] - sf[k]));
        }
        assertTrue(worst <= CENTROID_TOLERANCE, "float centroids differ from the double ones by " + worst);
        assertTrue(worst > 0, "the float step computed in float (some centroid rounds differently)");
    }

    @ParameterizedTest
    @CsvSource({"org.accelgeom.ridge.SphereSteps, org.accelgeom.ridge.SphereStepsF"})
    void theGeneratedClassHasEveryStepInFloat(String doubleClass, String floatClass) throws ReflectiveOperationException {
        Class<?> f = Class.forName(floatClass);
        int steps = 0;
        for (Method m : Class.forName(doubleClass).getDeclaredMethods()) {
            if (!Modifier.isPublic(m.getModifiers())) {
                continue;
            }
            Class<?>[] types = Arrays.stream(m.getParameterTypes()).map(PrecisionTwinsTest::toFloat)
                    .toArray(Class<?>[]::new);
            Method twin = f.getMethod(m.getName(), types);
            assertNotNull(twin);
            assertEquals(toFloat(m.getReturnType()), twin.getReturnType(), m.getName());
            steps++;
        }
        assertEquals(4, steps, "nearest, moveToCentroid, accumulate, shift");
    }

    private static Class<?> toFloat(Class<?> c) {
        return c == double.class ? float.class : c == double[].class ? float[].class : c;
    }
}
