package org.accelgeom.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** The tuning registry: the only reader of system properties, all named accelgeom.*, and its page up to date. */
class TuningTest {

    static final Path MAIN = Path.of("src/main/java");
    static final Pattern READ = Pattern.compile(
            "System\\.getProperty\\(\\s*\"([^\"]*)\"|Boolean\\.getBoolean\\(|Integer\\.getInteger\\(|Long\\.getLong\\(");

    @Test
    void docsPageIsTheRegistry() throws IOException {
        String page = Files.readString(Path.of("docs/tuning.md"), StandardCharsets.UTF_8);
        assertEquals(Tuning.markdown(), page, "docs/tuning.md differs from the registry: regenerate it with "
                + "java -cp target/classes org.accelgeom.engine.Tuning > docs/tuning.md");
    }

    @Test
    void onlyTheRegistryReadsProperties() throws IOException {
        List<String> reads = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                if (p.endsWith(Path.of("org/accelgeom/engine/Tuning.java"))) {
                    continue;
                }
                Matcher m = READ.matcher(Files.readString(p, StandardCharsets.UTF_8));
                while (m.find()) {
                    String name = m.group(1);
                    if (name == null || !(name.startsWith("java.") || name.startsWith("os."))) {
                        reads.add(p + ": " + m.group());
                    }
                }
            }
        }
        assertEquals(List.of(), reads, "system properties read outside org.accelgeom.engine.Tuning");
    }

    @Test
    void everySwitchIsNamedOnceUnderAccelgeomAndUsed() throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                if (!p.endsWith(Path.of("org/accelgeom/engine/Tuning.java"))) {
                    all.append(Files.readString(p, StandardCharsets.UTF_8));
                }
            }
        }
        Set<String> names = new HashSet<>();
        for (Tuning t : Tuning.values()) {
            assertTrue(t.property().startsWith("accelgeom."), t.property());
            assertTrue(names.add(t.property()), "twice: " + t.property());
            assertFalse(t.meaning().isBlank(), t.property());
            assertTrue(all.indexOf("Tuning." + t.name()) >= 0, t.name() + " is read nowhere");
        }
    }

    @Test
    void valuesAreParsedAndClamped() {
        String name = Tuning.HULL_PASSES.property();
        try {
            System.clearProperty(name);
            assertEquals(4, Tuning.HULL_PASSES.intValue());
            System.setProperty(name, "3");
            assertEquals(3, Tuning.HULL_PASSES.intValue());
            System.setProperty(name, "99");
            assertEquals(16, Tuning.HULL_PASSES.intValue());
            System.setProperty(name, "many");
            assertEquals(4, Tuning.HULL_PASSES.intValue());
        } finally {
            System.clearProperty(name);
        }
        String flag = Tuning.VORONOI_DEBUG.property();
        try {
            assertFalse(Tuning.VORONOI_DEBUG.booleanValue());
            System.setProperty(flag, "true");
            assertTrue(Tuning.VORONOI_DEBUG.booleanValue());
        } finally {
            System.clearProperty(flag);
        }
        assertEquals("fallback", Tuning.KDTREE_CLFLAGS.stringValue("fallback"));
        assertEquals("-w", Tuning.VORONOI_CLFLAGS.stringValue("unused"));
    }
}
