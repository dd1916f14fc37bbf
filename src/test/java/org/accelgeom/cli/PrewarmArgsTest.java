package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which command lines read their input from the start of main ({@link Prewarm#oneHullFile}): one hull file only. */
class PrewarmArgsTest {

    @TempDir
    Path dir;

    @Test
    void oneRegularFileOfTheHullOnly() throws Exception {
        Path a = Files.writeString(dir.resolve("a.xyz"), "0 0 0\n");
        Path b = Files.writeString(dir.resolve("b.xyz"), "1 1 1\n");
        String f = a.toString();
        assertEquals(f, Prewarm.oneHullFile("hull", "--input", f, "--backend", "tornado"));
        assertEquals(f, Prewarm.oneHullFile("hull", "--backend", "tornado", "--input=" + f));
        assertEquals(f, Prewarm.oneHullFile("hull", "--input", f));
        assertNull(Prewarm.oneHullFile("voronoi", "--input", f, "--backend", "tornado"), "the hull only");
        assertNull(Prewarm.oneHullFile("hull", "--input", f, b.toString(), "--backend", "tornado"), "a batch");
        assertNull(Prewarm.oneHullFile("hull", "--input", f, "--input", b.toString()), "two inputs");
        assertNull(Prewarm.oneHullFile("hull", "--input", dir.toString()), "a directory");
        assertNull(Prewarm.oneHullFile("hull", "--input", dir.resolve("none.xyz").toString()), "no such file");
        assertNull(Prewarm.oneHullFile("hull", "--input", "-"), "standard input");
        assertNull(Prewarm.oneHullFile("hull", "--input", f, "--devices", "0,1"), "split over devices");
        assertNull(Prewarm.oneHullFile("hull", "--random", "1000"));
        assertNull(Prewarm.oneHullFile("hull", "--input"));
        assertNull(Prewarm.oneHullFile());
    }
}
