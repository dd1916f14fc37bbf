package org.accelgeom.engine;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Diagnostics: a sampling profiler of one thread for machines without Java Flight Recorder (the GPU machine's
 * runtime). With {@code -Daccelgeom.sample=FILE} the CLI's main thread is sampled every millisecond, after
 * {@code -Daccelgeom.sample.after=MS} (default 0) from the start; at exit FILE gets the methods by samples in which
 * they were on the stack (inclusive) and at its top (self).
 */
public final class StackSampler {

    private StackSampler() {
    }

    /** Starts sampling the calling thread when asked for by the system property. */
    public static void startIfAsked() {
        String file = Tuning.SAMPLE.stringValue(null);
        if (file == null || file.isEmpty()) {
            return;
        }
        long after = Tuning.SAMPLE_AFTER.longValue();
        Thread target = Thread.currentThread();
        Map<String, Integer> inclusive = new HashMap<>();
        Map<String, Integer> self = new HashMap<>();
        int[] samples = new int[1];
        Thread sampler = new Thread(() -> {
            try {
                Thread.sleep(after);
                while (target.isAlive()) {
                    StackTraceElement[] st = target.getStackTrace();
                    synchronized (inclusive) {
                        samples[0]++;
                        Set<String> seen = new HashSet<>();
                        for (int i = 0; i < st.length; i++) {
                            String m = st[i].getClassName() + "." + st[i].getMethodName();
                            if (i == 0) {
                                self.merge(m, 1, Integer::sum);
                            }
                            if (seen.add(m)) {
                                inclusive.merge(m, 1, Integer::sum);
                            }
                        }
                    }
                    Thread.sleep(1);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "accelgeom-sampler");
        sampler.setDaemon(true);
        sampler.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            synchronized (inclusive) {
                try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(Path.of(file)))) {
                    w.printf("%d samples%n%n inclusive:%n", samples[0]);
                    print(w, inclusive, 80);
                    w.printf("%n self:%n");
                    print(w, self, 40);
                } catch (IOException e) {
                    System.err.println("accelgeom: cannot write " + file + ": " + e.getMessage());
                }
            }
        }));
    }

    private static void print(PrintWriter w, Map<String, Integer> counts, int top) {
        counts.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(top)
                .forEach(e -> w.printf("%8d  %s%n", e.getValue(), e.getKey()));
    }
}
