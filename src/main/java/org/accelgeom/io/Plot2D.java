package org.accelgeom.io;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A 2D plot of point sets and polylines with auto-scaled axes (ticks at 1, 2 or 5 times a power of ten),
 * for pictures of 2D results (hulls, ridges, Voronoi cells). Layers are drawn in the order added. By default
 * both axes have the same scale (geometry keeps its shape); {@link #equalAspect(boolean)} turns that off.
 * Non-finite coordinates are skipped. The configuration methods return this; not thread-safe.
 */
public final class Plot2D extends Picture<Plot2D> {
    private record Layer(double[] x, double[] y, int rgb, double size, boolean line, boolean closed) {
    }

    private final List<Layer> layers = new ArrayList<>();
    private boolean equalAspect = true;

    public Plot2D(int width, int height) {
        super(width, height, 100, "a plot needs at least 100 x 100 pixels");
    }

    @Override
    Plot2D self() {
        return this;
    }

    /** Same scale on both axes (default true). */
    public Plot2D equalAspect(boolean on) {
        equalAspect = on;
        return this;
    }

    /** Points as dots of the given radius in pixels, colour 0xRRGGBB. */
    public Plot2D points(double[] x, double[] y, int rgb, double radius) {
        check(x, y);
        layers.add(new Layer(x, y, rgb, radius, false, false));
        return this;
    }

    /** A polyline through the points in order (closed: back to the first), colour 0xRRGGBB, width in pixels. */
    public Plot2D polyline(double[] x, double[] y, boolean closed, int rgb, double lineWidth) {
        check(x, y);
        layers.add(new Layer(x, y, rgb, lineWidth, true, closed));
        return this;
    }

    private static void check(double[] x, double[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("x and y of different lengths: " + x.length + " and " + y.length);
        }
    }

    public void writePng(Path file) {
        Formats.writePng(file, render());
    }

    public BufferedImage render() {
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        int fontSize = Math.max(10, Math.min(width, height) / 42);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, fontSize));
        FontMetrics fm = g.getFontMetrics();
        int left = fm.stringWidth("-0.000e+00") + 12;
        int top = title == null ? 12 : fm.getHeight() + 14;
        int right = 16;
        int bottom = fm.getHeight() + 14;
        int pw = width - left - right;
        int ph = height - top - bottom;

        double[] box = bounds();
        double x0 = box[0];
        double x1 = box[1];
        double y0 = box[2];
        double y1 = box[3];
        if (equalAspect) {
            double unit = Math.max((x1 - x0) / pw, (y1 - y0) / ph);
            double cx = (x0 + x1) / 2;
            double cy = (y0 + y1) / 2;
            x0 = cx - unit * pw / 2;
            x1 = cx + unit * pw / 2;
            y0 = cy - unit * ph / 2;
            y1 = cy + unit * ph / 2;
        }
        double sx = pw / (x1 - x0);
        double sy = ph / (y1 - y0);
        final double fx0 = x0;
        final double fy1 = y1;

        // grid, ticks and labels
        g.setColor(new Color(0xe8e8e8));
        double[] xt = ticks(x0, x1, Math.max(2, pw / 90));
        double[] yt = ticks(y0, y1, Math.max(2, ph / 60));
        for (double t : xt) {
            int px = left + (int) Math.round((t - fx0) * sx);
            g.drawLine(px, top, px, top + ph);
        }
        for (double t : yt) {
            int py = top + (int) Math.round((fy1 - t) * sy);
            g.drawLine(left, py, left + pw, py);
        }
        g.setColor(new Color(0x303030));
        g.drawRect(left, top, pw, ph);
        for (double t : xt) {
            int px = left + (int) Math.round((t - fx0) * sx);
            String s = label(t, xt);
            g.drawLine(px, top + ph, px, top + ph + 4);
            g.drawString(s, px - fm.stringWidth(s) / 2, top + ph + 6 + fm.getAscent());
        }
        for (double t : yt) {
            int py = top + (int) Math.round((fy1 - t) * sy);
            String s = label(t, yt);
            g.drawLine(left - 4, py, left, py);
            g.drawString(s, left - 6 - fm.stringWidth(s), py + fm.getAscent() / 2 - 1);
        }
        if (title != null) {
            g.drawString(title, left, 6 + fm.getAscent());
        }

        // layers, clipped to the plot area
        g.setClip(left, top, pw + 1, ph + 1);
        int[] pixels = ((DataBufferInt) img.getRaster().getDataBuffer()).getData();
        for (Layer l : layers) {
            if (l.line) {
                Path2D.Double path = new Path2D.Double();
                boolean pen = false;
                for (int i = 0; i < l.x.length; i++) {
                    if (!Double.isFinite(l.x[i]) || !Double.isFinite(l.y[i])) {
                        pen = false;
                        continue;
                    }
                    double px = left + (l.x[i] - fx0) * sx;
                    double py = top + (fy1 - l.y[i]) * sy;
                    if (pen) {
                        path.lineTo(px, py);
                    } else {
                        path.moveTo(px, py);
                        pen = true;
                    }
                }
                if (l.closed && pen) {
                    path.closePath();
                }
                g.setColor(new Color(l.rgb));
                g.setStroke(new BasicStroke((float) l.size, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
                g.draw(path);
            } else {
                for (int i = 0; i < l.x.length; i++) {
                    if (Double.isFinite(l.x[i]) && Double.isFinite(l.y[i])) {
                        dot(pixels, left + (l.x[i] - fx0) * sx, top + (fy1 - l.y[i]) * sy, l.size, l.rgb,
                                left, top, left + pw, top + ph);
                    }
                }
            }
        }
        g.dispose();
        return img;
    }

    /** A dot written straight into the pixels (fast for many points), edge pixels blended by coverage. */
    private void dot(int[] pixels, double px, double py, double radius, int rgb, int xMin, int yMin, int xMax, int yMax) {
        int x0 = Math.max(xMin, (int) Math.floor(px - radius - 1));
        int x1 = Math.min(xMax, (int) Math.ceil(px + radius + 1));
        int y0 = Math.max(yMin, (int) Math.floor(py - radius - 1));
        int y1 = Math.min(yMax, (int) Math.ceil(py + radius + 1));
        for (int y = y0; y <= y1; y++) {
            for (int x = x0; x <= x1; x++) {
                double d = Math.hypot(x + 0.5 - px, y + 0.5 - py);
                double cover = Math.max(0, Math.min(1, radius + 0.5 - d));
                if (cover > 0) {
                    int idx = y * width + x;
                    pixels[idx] = MeshPicture.blend(pixels[idx], rgb, cover);
                }
            }
        }
    }

    private double[] bounds() {
        double x0 = Double.POSITIVE_INFINITY;
        double x1 = Double.NEGATIVE_INFINITY;
        double y0 = Double.POSITIVE_INFINITY;
        double y1 = Double.NEGATIVE_INFINITY;
        for (Layer l : layers) {
            for (int i = 0; i < l.x.length; i++) {
                if (Double.isFinite(l.x[i]) && Double.isFinite(l.y[i])) {
                    x0 = Math.min(x0, l.x[i]);
                    x1 = Math.max(x1, l.x[i]);
                    y0 = Math.min(y0, l.y[i]);
                    y1 = Math.max(y1, l.y[i]);
                }
            }
        }
        if (!(x0 <= x1)) {
            return new double[] {0, 1, 0, 1};
        }
        double px = x1 > x0 ? 0.05 * (x1 - x0) : Math.max(1, Math.abs(x0)) * 0.5;
        double py = y1 > y0 ? 0.05 * (y1 - y0) : Math.max(1, Math.abs(y0)) * 0.5;
        return new double[] {x0 - px, x1 + px, y0 - py, y1 + py};
    }

    /** Ticks at multiples of a 1-2-5 step, about {@code target} of them inside [lo, hi]. */
    static double[] ticks(double lo, double hi, int target) {
        double raw = (hi - lo) / target;
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
        long first = (long) Math.ceil(lo / step);
        long last = (long) Math.floor(hi / step);
        int n = (int) Math.max(0, Math.min(1000, last - first + 1));
        double[] t = new double[n];
        for (int k = 0; k < n; k++) {
            t[k] = (first + k) * step;
        }
        return t;
    }

    private static String label(double v, double[] all) {
        double step = all.length > 1 ? Math.abs(all[1] - all[0]) : Math.max(Math.abs(v), 1);
        double big = 0;
        for (double t : all) {
            big = Math.max(big, Math.abs(t));
        }
        if (big >= 1e6 || big > 0 && big < 1e-3) {
            return String.format(Locale.ROOT, "%.2e", v);
        }
        int decimals = (int) Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
        if (Math.abs(v) < step * 1e-9) {
            v = 0;
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
