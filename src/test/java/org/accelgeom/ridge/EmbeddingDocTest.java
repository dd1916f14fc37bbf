package org.accelgeom.ridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The examples of docs/embedding.md are the code the tornado-tagged EmbeddingExampleTests run: the section's
 * {@code java} block equals the lines between the test's "docs/embedding.md, begin" and "end" markers (indentation
 * aside). Runs without TornadoVM (it compares text).
 */
class EmbeddingDocTest {

    @ParameterizedTest
    @CsvSource({
        "Ridge detection, ridge",
        "CBT usage cycle and decode, cbt",
        "Terrain frame, terrain",
        "kd-tree build, kdtree/zhou"})
    void theDocsExampleIsTheTestedCode(String section, String family) throws IOException {
        String doc = Files.readString(Path.of("docs/embedding.md"));
        int at = doc.indexOf("\n## " + section + "\n");
        assertTrue(at >= 0, "no section " + section);
        int end = doc.indexOf("\n## ", at + 4);
        String body = doc.substring(at, end < 0 ? doc.length() : end);
        int open = body.indexOf("```java\n");
        assertTrue(open >= 0, "no java example in " + section);
        String example = body.substring(open + 8, body.indexOf("```", open + 8));
        String test = Files.readString(
                Path.of("src/test/java/org/accelgeom", family, "tornado/EmbeddingExampleTest.java"));
        String begin = "// --- docs/embedding.md, begin\n";
        int a = test.indexOf(begin);
        int b = test.indexOf("// --- docs/embedding.md, end");
        assertTrue(a >= 0 && b > a, "no markers in the " + family + " example test");
        assertEquals(normal(test.substring(a + begin.length(), b)), normal(example), section);
    }

    /** Each line without its leading white space, no blank lines. */
    private static String normal(String s) {
        return s.lines().map(String::strip).filter(l -> !l.isEmpty()).reduce("", (x, y) -> x + y + "\n");
    }
}
