package org.accelgeom.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;

import org.junit.jupiter.api.Test;

/** The ticker of steps without progress of their own, and the note of a progress line. */
class ProgressTest {

    @Test
    void tickerDrawsElapsedTimeAndClearsItsLine() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true);
        Progress.TerminalProgress.lastDraw0 = 0;
        Progress.Ticker t = new Progress.Ticker(err, "voronoi diagram of 22128 balls", 0);
        long until = System.nanoTime() + 5_000_000_000L;
        while (!t.drew() && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        t.close();
        String s = bytes.toString();
        assertTrue(s.startsWith("\rvoronoi diagram of 22128 balls: "), s);
        assertTrue(s.endsWith("\r\033[K"), s);
        int after = bytes.size();
        Thread.sleep(250);
        assertEquals(after, bytes.size(), "nothing after close");
    }

    @Test
    void tickerIsSilentBeforeItsDelay() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (Progress.Ticker t = new Progress.Ticker(new PrintStream(bytes, true), "reading", 60_000_000_000L)) {
            Thread.sleep(300);
        }
        assertEquals(0, bytes.size());
    }

    @Test
    void progressLineShowsTheNote() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress p = new Progress.TerminalProgress(new PrintStream(bytes, true));
        p.begin("quickhull rounds", 0);
        Thread.sleep(120); // redrawn at most ten times a second
        p.update(23, "81 points inserted");
        p.end();
        assertTrue(bytes.toString().contains("quickhull rounds: 23 (81 points inserted)"), bytes.toString());
    }
}
