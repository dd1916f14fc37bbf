package org.accelgeom.cli;

import java.io.PrintWriter;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.TornadoSupport;
import org.accelgeom.io.Formats;
import org.accelgeom.io.Grid;
import org.accelgeom.render.Camera;
import org.accelgeom.terrain.FlightPath;
import org.accelgeom.terrain.FractalTerrain;
import org.accelgeom.terrain.Terrain;
import org.accelgeom.terrain.TerrainResult;
import org.accelgeom.terrain.TerrainOptions;
import org.accelgeom.terrain.TerrainPictures;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code accelgeom terrain}: an adaptive LEB terrain over a CBT along a camera flight. */
@Command(name = "terrain", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Adaptive terrain by conforming longest-edge bisection over a concurrent binary tree (Dupuy 2020):",
            "settles at the first camera, then flies a circle over a DEM or a fractal heightmap, one CBT cycle per frame",
            "(split, reduce, merge, reduce, emit) on the chosen backend. Prints per-frame counts and times;",
            "--output writes the last frame's mesh (.obj/.ply), --picture a top-down view by depth, --shaded a 3D view."},
        footer = {"", "Examples:",
            "  accelgeom terrain --fractal 9 --max-depth 20 --target-pixels 6 --frames 60 --picture top.png --shaded view.png",
            "  accelgeom terrain --fractal 10 --roughness 0.6 --backend tornado --output frame.ply",
            "  accelgeom terrain --input heights.png --z-scale 0.01 --size 2000 --frames 60 --shaded view.png",
            "  accelgeom terrain --input data/grids/terralib_elevation_382x422_f32le.raw --nx 382 --ny 422 --frames 100 --timings"})
final class TerrainCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    Heightmap heightmap;

    @Option(names = "--size", paramLabel = "METRES", defaultValue = "1000", description = "Side of the terrain square (default: ${DEFAULT-VALUE}).")
    double size;

    @Option(names = "--z-scale", paramLabel = "S", defaultValue = "120",
            description = "Metres per height unit (default: ${DEFAULT-VALUE}; fractal heights are 0..1).")
    double zScale;

    @Option(names = "--max-depth", paramLabel = "D", defaultValue = "20", description = "Maximum depth of the CBT, 6..24 (default: ${DEFAULT-VALUE}).")
    int maxDepth;

    @Option(names = "--target-pixels", paramLabel = "P", defaultValue = "8",
            description = "Split triangles whose longest edge looks longer than P pixels (default: ${DEFAULT-VALUE}).")
    double targetPixels;

    @Mixin
    Flight flight;

    @Mixin
    Pictures pictures;

    @Option(names = "--timings", description = "Print the time of each phase over all frames.")
    boolean timings;

    @Override
    public Integer call() {
        common.validate(spec);
        validate();
        if (common.backend == Backend.TORNADO) {
            TornadoSupport.require();
        }
        Grid g = heightmap.read(spec, common.input, common.seed);
        checkHeights(g);
        TerrainOptions o = new TerrainOptions(maxDepth, targetPixels, size, zScale, common.backend, common.threads, common.device, 0,
                RepeatOptions.level(timings));
        float highest = -Float.MAX_VALUE;
        for (float v : g.values()) {
            highest = Math.max(highest, v);
        }
        FlightPath path = flight.path(size, highest * zScale);
        PrintWriter out = spec.commandLine().getOut();
        int frames = flight.frames;
        int warm = flight.settle != null ? flight.settle : maxDepth + 2;
        out.printf(Locale.ROOT, "terrain: %d x %d heights, %.0f m square, D = %d, target %.1f px, %s%n", g.nx(), g.ny(), size, maxDepth,
                targetPixels, common.describeBackend());
        Camera c = path.frame(0, frames);
        double flyMs = 0;
        try (Terrain t = Terrain.create(g, o)) {
            for (int f = 0; f < warm + frames; f++) {
                c = path.frame(Math.max(0, f - warm), frames);
                TerrainResult fr = t.frame(c);
                if (f >= warm) {
                    flyMs += fr.millis();
                }
                if (!common.quiet || f == warm + frames - 1) {
                    out.printf(Locale.ROOT, "frame %4d%s: %9d triangles, deepest %2d, %8.3f ms%n", f - warm, f < warm ? " (settling)" : "",
                            fr.triangles(), fr.deepest(), fr.millis());
                }
            }
            long defects = Terrain.conformityDefects(t.nodes());
            out.printf(Locale.ROOT, "flight: %d frames, %.3f ms per frame on average; last frame %s%n", frames, flyMs / frames,
                    defects == 0 ? "conforming (no T-junctions)" : defects + " CONFORMITY DEFECTS");
            if (timings) {
                PhaseTimings pt = t.timings();
                out.print(pt.format());
            }
            if (common.output != null) {
                Formats.writeMesh(common.output, t.mesh());
                out.println("wrote " + common.output);
            }
            pictures.write(t, c, maxDepth, size, out);
        }
        out.flush();
        return 0;
    }

    /** Larger heights, sizes or altitudes (metres) would overflow the float squared distances of the LOD test. */
    static final double MAX_METRES = 1e15;

    private void validate() {
        flight.validate(spec);
        Check.range(spec, "--max-depth", maxDepth, 6, Terrain.MAX_DEPTH);
        Check.interval(spec, "--size", size, 0, false, MAX_METRES, true);
        Check.interval(spec, "--z-scale", zScale, 0, true, MAX_METRES, true);
        Check.interval(spec, "--target-pixels", targetPixels, 0, false, Double.POSITIVE_INFINITY, false);
        Check.onlyWith(spec, common.input == null, "no --input (a generated heightmap)", "--roughness", "--seed");
        heightmap.validate(spec, common.input);
        Check.extension(spec, "--output", common.output, true, "the mesh", ".obj", ".ply", ".off");
        pictures.validate(spec);
        Check.writable(common.output, pictures.picture, pictures.shaded); // before the work, not after
    }

    /**
     * Every height finite, and small enough times --z-scale: NaN, Inf or 3e38 would otherwise flow into the mesh
     * ({@code v 0.0 0.0 Infinity}). The first bad sample is named by row and column, from 1.
     */
    private void checkHeights(Grid g) {
        float[] v = g.values();
        for (int i = 0; i < v.length; i++) {
            double metres = (double) v[i] * zScale;
            if (!Float.isFinite(v[i]) || Math.abs(metres) > MAX_METRES) {
                String where = common.input == null ? "the fractal heightmap" : common.input;
                throw new AccelGeomException(String.format(Locale.ROOT, "%s: height at row %d, column %d is %s%s: "
                        + "heights must be finite and |height x --z-scale| <= %.0e m", where, i / g.nx() + 1,
                        i % g.nx() + 1, Float.toString(v[i]), Float.isFinite(v[i]) ? " (" + Check.num(metres) + " m)" : "",
                        MAX_METRES));
            }
        }
    }

    /** Where the heights come from: a raw float32 or PNG {@code --input}, or a generated fractal heightmap. */
    static final class Heightmap {

        @Option(names = "--fractal", paramLabel = "M",
                description = "Without --input: a diamond-square heightmap of (2^M+1)^2 samples, M in 1..13 (default: 9).")
        Integer fractal;

        @Option(names = "--roughness", paramLabel = "H", defaultValue = "0.75", description = "Roughness of --fractal in (0, 1] (default: ${DEFAULT-VALUE}).")
        double roughness;

        @Option(names = "--nx", paramLabel = "N", description = "Columns of a raw float32 --input (little-endian unless --big-endian).")
        Integer nx;

        @Option(names = "--ny", paramLabel = "N", description = "Rows of a raw float32 --input.")
        Integer ny;

        @Option(names = "--big-endian", description = "The raw float32 --input is big-endian.")
        boolean bigEndian;

        /** The options fit the input (a file or none) and are in range (usage errors). */
        void validate(CommandSpec spec, String input) {
            Check.interval(spec, "--roughness", roughness, 0, false, 1, true);
            boolean raw = nx != null || ny != null || bigEndian;
            if (input != null) {
                if (fractal != null) {
                    throw Check.usage(spec, "--fractal generates the heights: not with --input");
                }
                if (raw && input.toLowerCase(Locale.ROOT).endsWith(".png")) {
                    throw Check.usage(spec, "--nx, --ny and --big-endian describe a raw float32 --input, not a .png");
                }
            } else {
                if (fractal != null) {
                    Check.range(spec, "--fractal", fractal, 1, 13);
                }
                if (raw) {
                    throw Check.usage(spec, "--nx, --ny and --big-endian describe a raw float32 --input: give --input FILE");
                }
            }
            if (nx != null) {
                Check.atLeast(spec, "--nx", nx, 2);
            }
            if (ny != null) {
                Check.atLeast(spec, "--ny", ny, 2);
            }
        }

        /** The heights of {@code input} (a .png, or raw float32 of --nx by --ny), or without it a fractal of {@code seed}. */
        Grid read(CommandSpec spec, String input, long seed) {
            if (input == null) {
                return FractalTerrain.generate(fractal != null ? fractal : 9, roughness, seed);
            }
            Path in = Path.of(input);
            String name = in.getFileName().toString().toLowerCase(Locale.ROOT);
            if (name.endsWith(".png")) {
                return Formats.readHeightmapPng(in);
            }
            if (nx == null || ny == null) {
                throw Check.usage(spec, "--input " + input + ": a raw float32 grid needs --nx and --ny (or give a 16-bit .png)");
            }
            return Formats.readGrid(in, nx, ny, bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        }
    }

    /** The camera's flight: its frames, the settling before it, the picture it sees, its height and pitch. */
    static final class Flight {

        @Option(names = "--frames", paramLabel = "N", defaultValue = "30", description = "Frames of the flight (default: ${DEFAULT-VALUE}).")
        int frames;

        @Option(names = "--settle", paramLabel = "N",
                description = "Frames at the first camera before flying, >= 0 (default: the maximum depth + 2).")
        Integer settle;

        @Mixin
        ViewOptions view = new ViewOptions(1280, 720, 60);

        @Option(names = "--altitude", paramLabel = "METRES", defaultValue = "40", description = "Flight height above the highest point (default: ${DEFAULT-VALUE}).")
        double altitude;

        @Option(names = "--pitch", paramLabel = "DEG", defaultValue = "25", description = "Camera pitch below the horizon (default: ${DEFAULT-VALUE}).")
        double pitch;

        /** Every value in range (usage errors). */
        void validate(CommandSpec spec) {
            Check.atLeast(spec, "--frames", frames, 1);
            if (settle != null) {
                Check.atLeast(spec, "--settle", settle, 0);
            }
            view.validate(spec);
            Check.interval(spec, "--altitude", altitude, -MAX_METRES, true, MAX_METRES, true);
            Check.interval(spec, "--pitch", pitch, -90, false, 90, false);
        }

        /** A circle over a terrain square of side {@code size} whose highest point is {@code highest} metres. */
        FlightPath path(double size, double highest) {
            return new FlightPath(size, highest, altitude, pitch, view.fov, view.width, view.height, 1);
        }
    }

    /** The pictures of the last frame: top-down by depth, and shaded. */
    static final class Pictures {

        @Option(names = "--picture", paramLabel = "FILE.png", description = "Top-down picture of the last frame's triangles coloured by depth.")
        Path picture;

        @Option(names = "--shaded", paramLabel = "FILE.png", description = "Shaded 3D picture of the last frame's mesh.")
        Path shaded;

        /** PNG names (usage errors). */
        void validate(CommandSpec spec) {
            Check.extension(spec, "--picture", picture, false, "a picture", ".png");
            Check.extension(spec, "--shaded", shaded, false, "a picture", ".png");
        }

        /** Writes the pictures asked for, of terrain {@code t} seen from {@code c}. */
        void write(Terrain t, Camera c, int maxDepth, double size, PrintWriter out) {
            if (picture != null) {
                Formats.writePng(picture, TerrainPictures.topDown(t.nodes(), maxDepth, c, size, 1024));
                out.println("wrote " + picture);
            }
            if (shaded != null) {
                Formats.writePng(shaded, TerrainPictures.shaded(t, 1280, 800));
                out.println("wrote " + shaded);
            }
        }
    }
}
