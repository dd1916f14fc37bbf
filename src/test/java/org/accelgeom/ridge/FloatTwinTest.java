package org.accelgeom.ridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The float steps of the evolution are the double steps with {@code double} read as {@code float}: TornadoVM 5.2
 * compiles no generics, so each step is written in double and its float twin must be the same source with the type
 * replaced. This test derives the twin from the double method and compares it with the float method, so the two
 * cannot drift (a change to one fails here until the other has it too).
 */
class FloatTwinTest {

    @ParameterizedTest
    @CsvSource({
        "tornado/RidgeTaskGraphs.java, public static void closest(, public static void closestF(",
        "JvmRidgeBackend.java, private boolean shift(double[] s, private boolean shift(float[] s",
        "RidgeKernels.java, public static int nearest(double[] p, public static int nearest(float[] p",
        "RidgeKernels.java, public static int moveToCentroid(double[] s, public static int moveToCentroid(float[] s"})
    void theFloatStepIsTheDoubleStepWithFloats(String file, String doubleStep, String floatStep) throws IOException {
        Path p = Path.of("src/main/java/org/accelgeom/ridge", file);
        String src = Files.readString(p);
        String d = method(src, doubleStep);
        String f = method(src, floatStep);
        String twin = d.replace(doubleStep, floatStep).replace("double", "float").replace("Double.", "Float.");
        assertEquals(normal(twin), normal(f), floatStep + " in " + file + " is not " + doubleStep + " in float");
    }

    /** The method whose declaration starts with {@code head}: from there to its closing brace. */
    private static String method(String src, String head) {
        int a = src.indexOf(head);
        assertTrue(a >= 0, "no " + head);
        int open = src.indexOf('{', a);
        int depth = 0;
        for (int i = open; i < src.length(); i++) {
            char c = src.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return src.substring(a, i + 1);
            }
        }
        throw new AssertionError("unbalanced braces after " + head);
    }

    /** Without comments and with every run of white space one space. */
    private static String normal(String s) {
        return s.replaceAll("//[^\n]*", "").replaceAll("\\s+", " ").trim();
    }
}
