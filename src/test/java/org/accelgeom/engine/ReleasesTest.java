package org.accelgeom.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The release loop of every close: all items released, the clean-up run, the first failure thrown. */
class ReleasesTest {

    @Test
    void everyItemIsReleasedAndTheCleanUpRunsDespiteFailures() {
        RuntimeException first = new IllegalStateException("a");
        List<String> released = new ArrayList<>();
        List<String> cleaned = new ArrayList<>();
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> Releases.each(Arrays.asList("a", null, "b", "c"),
                item -> {
                    released.add(item);
                    if (item.equals("a")) {
                        throw first;
                    }
                    if (item.equals("c")) {
                        throw new IllegalArgumentException("c");
                    }
                }, () -> cleaned.add("after " + released.size())));
        assertSame(first, thrown);
        assertEquals(List.of("a", "b", "c"), released);
        assertEquals(List.of("after 3"), cleaned);
    }

    @Test
    void withoutFailuresNothingIsThrownAndTheCleanUpRunsOnce() {
        List<String> cleaned = new ArrayList<>();
        Releases.each(List.of(1, 2), i -> { }, () -> cleaned.add("done"));
        assertEquals(List.of("done"), cleaned);
    }
}
