package org.accelgeom.cli;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import javax.imageio.ImageIO;

import org.accelgeom.io.Plot2D;

/**
 * The plots of {@code scripts/bench-e2e.sh}: for each task of its raw table (tab-separated {@code task tool run size
 * seconds}, {@code run} being {@code first} or {@code later}), a log-log PNG of wall time against input size, one
 * line per tool and run (peers and backends), with a legend. Drawn with {@link Plot2D} on log10 values.
 *
 * <p>Usage: {@code java -cp accelgeom.jar org.accelgeom.cli.WallTimePlot RAW.tsv OUTDIR}
 */
public final class WallTimePlot {

    private static final int[] COLOURS = {0x1f77b4, 0xd62728, 0x2ca02c, 0xff7f0e, 0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f};

    private WallTimePlot() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: WallTimePlot RAW.tsv OUTDIR");
            System.exit(2);
        }
        // task -> series (tool, run) -> size -> seconds (the median of repeated rows is taken by the script)
        Map<String, Map<String, TreeMap<Double, Double>>> tasks = new TreeMap<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.split("\t");
            if (f.length < 5 || line.startsWith("#") || f[0].equals("task")) {
                continue;
            }
            double size;
            double secs;
            try {
                size = Double.parseDouble(f[3]);
                secs = Double.parseDouble(f[4]);
            } catch (NumberFormatException e) {
                continue;
            }
            if (size <= 0 || secs <= 0) {
                continue;
            }
            tasks.computeIfAbsent(f[0], k -> new TreeMap<>()).computeIfAbsent(f[1] + " (" + f[2] + ")", k -> new TreeMap<>())
                    .merge(size, secs, Math::min);
        }
        Files.createDirectories(Path.of(args[1]));
        for (var task : tasks.entrySet()) {
            Path png = Path.of(args[1], task.getKey().replaceAll("[^A-Za-z0-9._-]", "_") + ".png");
            plot(task.getKey(), task.getValue(), png);
            System.out.println("wrote " + png);
        }
    }

    static void plot(String task, Map<String, TreeMap<Double, Double>> series, Path png) throws IOException {
        Plot2D plot = new Plot2D(900, 600).equalAspect(false)
                .title(task + ": wall time of one process, log10 seconds against log10 input size");
        List<String> names = new ArrayList<>(series.keySet());
        for (int s = 0; s < names.size(); s++) {
            TreeMap<Double, Double> pts = series.get(names.get(s));
            double[] x = pts.keySet().stream().mapToDouble(Math::log10).toArray();
            double[] y = pts.values().stream().mapToDouble(Math::log10).toArray();
            int rgb = COLOURS[s % COLOURS.length];
            if (x.length > 1) {
                plot.polyline(x, y, false, rgb, names.get(s).endsWith("(first)") ? 1.5 : 2.5);
            }
            plot.points(x, y, rgb, 4);
        }
        BufferedImage img = plot.render();
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        int lx = img.getWidth() - 260;
        int ly = 60;
        for (int s = 0; s < names.size(); s++) {
            g.setColor(new Color(COLOURS[s % COLOURS.length]));
            g.fillRect(lx, ly + 18 * s - 9, 14, 10);
            g.setColor(Color.BLACK);
            g.drawString(names.get(s), lx + 20, ly + 18 * s);
        }
        g.dispose();
        ImageIO.write(img, "png", png.toFile());
    }
}
