package org.accelgeom.io;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.nio.file.Path;

/**
 * A small software renderer for pictures of results: a {@link Mesh} flat-shaded by face normal under a
 * directional light, z-buffered, seen from a chosen direction by an orthographic or perspective camera that
 * frames the bounding box; optional wireframe edges; an optional {@link PointCloud} overlay drawn as dots,
 * highlighted points (e.g. hull vertices) in a second colour. Points hidden behind the surface are drawn
 * faintly ("x-ray") unless that is turned off. Rendered at {@code supersample}&sup2; samples per pixel and
 * box-filtered, so edges are antialiased.
 *
 * <p>Contract: {@link #render(Mesh)} accepts a null or empty mesh (points only) and no points (mesh only); with
 * neither it returns the background. Faces are lit from both sides, so orientation does not matter. At most
 * {@link #maxPoints(int)} points are drawn: all highlighted ones first, then an even stride through the rest.
 * The configuration methods return this, for chaining; an instance is not thread-safe.
 */
public final class MeshPicture extends Picture<MeshPicture> {
    /** Opacity of points hidden behind the surface. */
    private static final double XRAY_ALPHA = 0.12;

    private double[] view = {1, -1.6, 0.9};
    private double[] upDir = {0, 0, 1};
    private boolean perspective;
    private boolean wireframe;
    private boolean xray = true;
    private int supersample = 2;
    private int background = 0xffffff;
    private int surface = 0x8fb3d9;
    private int edgeColour = 0x1f2f3f;
    private int pointColour = 0x606060;
    private int highlightColour = 0xd62728;
    private double pointRadius = 1.0;
    private int maxPoints = 300_000;
    private PointCloud points;
    private boolean[] highlight;

    /** A picture of width x height pixels. */
    public MeshPicture(int width, int height) {
        super(width, height, 1, "picture size must be positive");
    }

    @Override
    MeshPicture self() {
        return this;
    }

    /** The direction from the scene's centre towards the camera (need not be unit length). */
    public MeshPicture viewFrom(double dx, double dy, double dz) {
        view = unit("view direction", dx, dy, dz);
        return this;
    }

    /** The world direction shown upwards in the picture (default +z; +y when looking along z). */
    public MeshPicture up(double dx, double dy, double dz) {
        upDir = unit("up direction", dx, dy, dz);
        return this;
    }

    /** Perspective (field of view 35 degrees) instead of orthographic. */
    public MeshPicture perspective(boolean on) {
        perspective = on;
        return this;
    }

    /** Draws the face edges. */
    public MeshPicture wireframe(boolean on) {
        wireframe = on;
        return this;
    }

    /** Draws points hidden behind the surface faintly (default on). */
    public MeshPicture xray(boolean on) {
        xray = on;
        return this;
    }

    /** Samples per pixel along each axis (1 to 4; default 2). */
    public MeshPicture supersample(int s) {
        supersample = Math.max(1, Math.min(4, s));
        return this;
    }

    /** Colours as 0xRRGGBB: background, surface, edges. */
    public MeshPicture colours(int background, int surface, int edges) {
        this.background = background;
        this.surface = surface;
        this.edgeColour = edges;
        return this;
    }

    /**
     * Points to overlay (dimension 2 or 3; 2D points lie at z = 0).
     *
     * @param highlight per point: drawn in the highlight colour and slightly larger (e.g. hull vertices), or null
     */
    public MeshPicture points(PointCloud p, boolean[] highlight) {
        if (p.dimension() < 2) {
            throw new IllegalArgumentException("points of dimension " + p.dimension() + " cannot be drawn");
        }
        if (highlight != null && highlight.length != p.size()) {
            throw new IllegalArgumentException("need one highlight flag per point");
        }
        this.points = p;
        this.highlight = highlight;
        return this;
    }

    /** Colours as 0xRRGGBB of ordinary and highlighted points, and the dot radius in pixels. */
    public MeshPicture pointStyle(int ordinary, int highlighted, double radius) {
        pointColour = ordinary;
        highlightColour = highlighted;
        pointRadius = radius;
        return this;
    }

    /** The most points drawn (default 300,000). */
    public MeshPicture maxPoints(int n) {
        maxPoints = Math.max(0, n);
        return this;
    }

    /** Renders and writes a PNG. */
    public void writePng(Path file, Mesh mesh) {
        Formats.writePng(file, render(mesh));
    }

    // ---------------------------------------------------------------- rendering

    private int w;
    private int h;
    private int[] rgb;
    private float[] zbuf;   // larger is nearer
    private double[] c;     // scene centre
    private double[] r;     // camera right
    private double[] u;     // camera up
    private double[] f;     // camera forward (into the scene)
    private double scale;   // orthographic: pixels per unit; perspective: focal length in pixels
    private double eyeDist;
    private double depthLo;
    private double depthHi;

    /** The picture of a mesh (may be null) with the configured points. */
    public BufferedImage render(Mesh mesh) {
        int s = supersample;
        w = width * s;
        h = height * s;
        rgb = new int[w * h];
        java.util.Arrays.fill(rgb, background);
        zbuf = new float[w * h];
        java.util.Arrays.fill(zbuf, Float.NEGATIVE_INFINITY);
        if (!setUpCamera(mesh)) {
            return downsample();
        }
        if (mesh != null) {
            drawFaces(mesh);
            if (wireframe) {
                drawEdges(mesh);
            }
        }
        if (points != null) {
            drawPoints(mesh != null && mesh.faceCount() > 0);
        }
        return downsample();
    }

    private boolean setUpCamera(Mesh mesh) {
        double[] lo = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY};
        double[] hi = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
        if (mesh != null) {
            for (int i = 0; i < mesh.vertexCount(); i++) {
                grow(lo, hi, mesh.x()[i], mesh.y()[i], mesh.z()[i]);
            }
        }
        if (points != null) {
            for (int i = 0; i < points.size(); i++) {
                grow(lo, hi, points.x()[i], points.y()[i], points.dimension() > 2 ? points.z()[i] : 0);
            }
        }
        if (!(lo[0] <= hi[0])) {
            return false;
        }
        c = new double[] {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
        // the bounding sphere about the box centre: frames a round object tighter than the box diagonal
        double r2 = 0;
        if (mesh != null) {
            for (int i = 0; i < mesh.vertexCount(); i++) {
                r2 = farther(r2, mesh.x()[i], mesh.y()[i], mesh.z()[i]);
            }
        }
        if (points != null) {
            for (int i = 0; i < points.size(); i++) {
                r2 = farther(r2, points.x()[i], points.y()[i], points.dimension() > 2 ? points.z()[i] : 0);
            }
        }
        double radius = Math.sqrt(r2);
        if (!(radius > 0)) {
            radius = 1;
        }
        f = normalise(new double[] {-view[0], -view[1], -view[2]});
        double[] up = upDir;
        if (Math.abs(f[0] * up[0] + f[1] * up[1] + f[2] * up[2]) > 0.99) {
            up = Math.abs(f[1]) < 0.9 ? new double[] {0, 1, 0} : new double[] {1, 0, 0}; // looking along up
        }
        r = normalise(cross(f, up));
        u = cross(r, f);
        double half = 0.5 * Math.min(w, h) * 0.92;
        if (perspective) {
            double halfFov = Math.toRadians(35) / 2;
            eyeDist = radius / Math.sin(halfFov);
            scale = half / Math.tan(halfFov);
            depthLo = eyeDist - radius;
            depthHi = eyeDist + radius;
        } else {
            scale = half / radius;
            depthLo = -radius;
            depthHi = radius;
        }
        return true;
    }

    private double farther(double r2, double x, double y, double z) {
        double d = sq(x - c[0]) + sq(y - c[1]) + sq(z - c[2]);
        return Double.isFinite(d) && d > r2 ? d : r2;
    }

    private static void grow(double[] lo, double[] hi, double x, double y, double z) {
        if (!Double.isFinite(x) || !Double.isFinite(y) || !Double.isFinite(z)) {
            return;
        }
        lo[0] = Math.min(lo[0], x);
        lo[1] = Math.min(lo[1], y);
        lo[2] = Math.min(lo[2], z);
        hi[0] = Math.max(hi[0], x);
        hi[1] = Math.max(hi[1], y);
        hi[2] = Math.max(hi[2], z);
    }

    /** Projects a point: {sx, sy, key, depth}; key is larger for nearer points and affine in screen space. */
    private boolean project(double x, double y, double z, double[] out) {
        double qx = x - c[0];
        double qy = y - c[1];
        double qz = z - c[2];
        double a = qx * r[0] + qy * r[1] + qz * r[2];
        double b = qx * u[0] + qy * u[1] + qz * u[2];
        double d = qx * f[0] + qy * f[1] + qz * f[2];
        if (perspective) {
            d += eyeDist;
            if (d <= 1e-9 * eyeDist) {
                return false;
            }
            out[0] = w / 2.0 + a / d * scale;
            out[1] = h / 2.0 - b / d * scale;
            out[2] = 1 / d;
        } else {
            out[0] = w / 2.0 + a * scale;
            out[1] = h / 2.0 - b * scale;
            out[2] = -d;
        }
        out[3] = d;
        return Double.isFinite(out[0]) && Double.isFinite(out[1]);
    }

    private void drawFaces(Mesh m) {
        double[] light = normalise(new double[] {
            -f[0] * 0.7 + u[0] * 0.55 - r[0] * 0.45, -f[1] * 0.7 + u[1] * 0.55 - r[1] * 0.45,
            -f[2] * 0.7 + u[2] * 0.55 - r[2] * 0.45});
        double[] half = normalise(new double[] {light[0] - f[0], light[1] - f[1], light[2] - f[2]});
        double[][] p = new double[3][4];
        int base = surface;
        for (int face = 0; face < m.faceCount(); face++) {
            int s = m.faceStart()[face];
            int n = m.faceSize(face);
            if (n < 3) {
                continue;
            }
            // Newell's normal: robust for polygons, zero only for degenerate faces
            double nx = 0;
            double ny = 0;
            double nz = 0;
            for (int k = 0; k < n; k++) {
                int i = m.faceIndex()[s + k];
                int j = m.faceIndex()[s + (k + 1) % n];
                nx += (m.y()[i] - m.y()[j]) * (m.z()[i] + m.z()[j]);
                ny += (m.z()[i] - m.z()[j]) * (m.x()[i] + m.x()[j]);
                nz += (m.x()[i] - m.x()[j]) * (m.y()[i] + m.y()[j]);
            }
            double len = Math.sqrt(nx * nx + ny * ny + nz * nz);
            double shade;
            if (len > 0) {
                nx /= len;
                ny /= len;
                nz /= len;
                if (nx * f[0] + ny * f[1] + nz * f[2] > 0) { // two-sided: turn the normal towards the camera
                    nx = -nx;
                    ny = -ny;
                    nz = -nz;
                }
                double diffuse = Math.max(0, nx * light[0] + ny * light[1] + nz * light[2]);
                double spec = Math.pow(Math.max(0, nx * half[0] + ny * half[1] + nz * half[2]), 40);
                shade = 0.36 + 0.62 * diffuse + 0.25 * spec;
            } else {
                shade = 0.5;
            }
            int colour = shadeColour(base, shade);
            int i0 = m.faceIndex()[s];
            if (!project(m.x()[i0], m.y()[i0], m.z()[i0], p[0])) {
                continue;
            }
            for (int k = 1; k + 1 < n; k++) {
                int i1 = m.faceIndex()[s + k];
                int i2 = m.faceIndex()[s + k + 1];
                if (project(m.x()[i1], m.y()[i1], m.z()[i1], p[1]) && project(m.x()[i2], m.y()[i2], m.z()[i2], p[2])) {
                    triangle(p[0], p[1], p[2], colour);
                }
            }
        }
    }

    private void triangle(double[] a, double[] b, double[] cc, int colour) {
        double area = (b[0] - a[0]) * (cc[1] - a[1]) - (b[1] - a[1]) * (cc[0] - a[0]);
        if (area == 0 || !Double.isFinite(area)) {
            return;
        }
        int x0 = Math.max(0, (int) Math.floor(Math.min(a[0], Math.min(b[0], cc[0]))));
        int x1 = Math.min(w - 1, (int) Math.ceil(Math.max(a[0], Math.max(b[0], cc[0]))));
        int y0 = Math.max(0, (int) Math.floor(Math.min(a[1], Math.min(b[1], cc[1]))));
        int y1 = Math.min(h - 1, (int) Math.ceil(Math.max(a[1], Math.max(b[1], cc[1]))));
        double inv = 1 / area;
        for (int y = y0; y <= y1; y++) {
            double py = y + 0.5;
            for (int x = x0; x <= x1; x++) {
                double px = x + 0.5;
                // barycentric weights from the edge functions
                double wa = ((b[0] - px) * (cc[1] - py) - (b[1] - py) * (cc[0] - px)) * inv;
                double wb = ((cc[0] - px) * (a[1] - py) - (cc[1] - py) * (a[0] - px)) * inv;
                double wc = 1 - wa - wb;
                if (wa < 0 || wb < 0 || wc < 0) {
                    continue;
                }
                float key = (float) (wa * a[2] + wb * b[2] + wc * cc[2]);
                int idx = y * w + x;
                if (key > zbuf[idx]) {
                    zbuf[idx] = key;
                    rgb[idx] = colour;
                }
            }
        }
    }

    /** A depth tolerance in key units, so that edges and points on the surface pass the depth test. */
    private float bias() {
        if (perspective) {
            return (float) (0.004 * (1 / depthLo - 1 / depthHi));
        }
        return (float) (0.004 * (depthHi - depthLo));
    }

    private void drawEdges(Mesh m) {
        double[] a = new double[4];
        double[] b = new double[4];
        float bias = bias();
        double thick = Math.max(1, supersample * 0.8);
        for (int face = 0; face < m.faceCount(); face++) {
            int s = m.faceStart()[face];
            int n = m.faceSize(face);
            for (int k = 0; k < n; k++) {
                int i = m.faceIndex()[s + k];
                int j = m.faceIndex()[s + (k + 1) % n];
                if (project(m.x()[i], m.y()[i], m.z()[i], a) && project(m.x()[j], m.y()[j], m.z()[j], b)) {
                    line(a, b, thick, bias);
                }
            }
        }
    }

    private void line(double[] a, double[] b, double thick, float bias) {
        double dx = b[0] - a[0];
        double dy = b[1] - a[1];
        int steps = (int) Math.ceil(Math.max(Math.abs(dx), Math.abs(dy)));
        if (steps > 4 * (w + h)) {
            return; // far outside: not worth drawing
        }
        int half = (int) Math.floor(thick / 2);
        for (int t = 0; t <= steps; t++) {
            double q = steps == 0 ? 0 : (double) t / steps;
            int cx = (int) Math.floor(a[0] + q * dx);
            int cy = (int) Math.floor(a[1] + q * dy);
            float key = (float) (a[2] + q * (b[2] - a[2]));
            for (int y = cy - half; y <= cy - half + (int) thick - 1; y++) {
                for (int x = cx - half; x <= cx - half + (int) thick - 1; x++) {
                    if (x < 0 || y < 0 || x >= w || y >= h) {
                        continue;
                    }
                    int idx = y * w + x;
                    if (key + bias >= zbuf[idx]) {
                        rgb[idx] = blend(rgb[idx], edgeColour, 0.85);
                    }
                }
            }
        }
    }

    private void drawPoints(boolean overSurface) {
        int n = points.size();
        int marked = 0;
        if (highlight != null) {
            for (boolean b : highlight) {
                marked += b ? 1 : 0;
            }
        }
        int budgetMarked = Math.min(marked, maxPoints);
        int budgetOther = Math.max(0, maxPoints - budgetMarked);
        int others = n - marked;
        int stride = others <= budgetOther ? 1 : (int) Math.ceil((double) others / Math.max(1, budgetOther));
        if (budgetOther == 0) {
            stride = Integer.MAX_VALUE;
        }
        float bias = bias();
        double[] p = new double[4];
        boolean is3d = points.dimension() > 2;
        // ordinary points first, highlighted on top
        for (int pass = 0; pass < 2; pass++) {
            boolean wantMarked = pass == 1;
            int taken = 0;
            int seen = 0;
            double radius = (wantMarked ? 1.6 : 1.0) * pointRadius * supersample;
            int colour = wantMarked ? highlightColour : pointColour;
            for (int i = 0; i < n; i++) {
                boolean isMarked = highlight != null && highlight[i];
                if (isMarked != wantMarked) {
                    continue;
                }
                if (wantMarked ? taken >= budgetMarked : seen++ % stride != 0) {
                    continue;
                }
                taken++;
                if (!project(points.x()[i], points.y()[i], is3d ? points.z()[i] : 0, p)) {
                    continue;
                }
                double t = (p[3] - depthLo) / (depthHi - depthLo); // 0 near .. 1 far
                int shaded = overSurface ? colour : shadeColour(colour, 1.15 - 0.45 * Math.max(0, Math.min(1, t)));
                dot(p[0], p[1], (float) p[2], radius, shaded, bias, overSurface);
            }
        }
    }

    private void dot(double px, double py, float key, double radius, int colour, float bias, boolean overSurface) {
        int x0 = (int) Math.floor(px - radius);
        int x1 = (int) Math.ceil(px + radius);
        int y0 = (int) Math.floor(py - radius);
        int y1 = (int) Math.ceil(py + radius);
        double r2 = radius * radius;
        for (int y = Math.max(0, y0); y <= Math.min(h - 1, y1); y++) {
            for (int x = Math.max(0, x0); x <= Math.min(w - 1, x1); x++) {
                double ddx = x + 0.5 - px;
                double ddy = y + 0.5 - py;
                if (ddx * ddx + ddy * ddy > r2) {
                    continue;
                }
                int idx = y * w + x;
                if (key + bias >= zbuf[idx]) {
                    rgb[idx] = colour;
                    if (!overSurface) {
                        zbuf[idx] = Math.max(zbuf[idx], key);
                    }
                } else if (xray) {
                    rgb[idx] = blend(rgb[idx], colour, XRAY_ALPHA);
                }
            }
        }
    }

    private BufferedImage downsample() {
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        int s = supersample;
        int[] row = new int[width];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int sr = 0;
                int sg = 0;
                int sb = 0;
                for (int j = 0; j < s; j++) {
                    for (int i = 0; i < s; i++) {
                        int v = rgb[(y * s + j) * w + x * s + i];
                        sr += (v >> 16) & 0xff;
                        sg += (v >> 8) & 0xff;
                        sb += v & 0xff;
                    }
                }
                int k = s * s;
                row[x] = (sr / k) << 16 | (sg / k) << 8 | sb / k;
            }
            img.setRGB(0, y, width, 1, row, 0, width);
        }
        if (title != null) {
            Graphics2D g = img.createGraphics();
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, Math.max(10, Math.min(width, height) / 40)));
            g.setColor(new Color(0x202020));
            g.drawString(title, 8, 8 + g.getFontMetrics().getAscent());
            g.dispose();
        }
        rgb = null;
        zbuf = null;
        return img;
    }

    static int shadeColour(int colour, double s) {
        int cr = (int) Math.min(255, ((colour >> 16) & 0xff) * s);
        int cg = (int) Math.min(255, ((colour >> 8) & 0xff) * s);
        int cb = (int) Math.min(255, (colour & 0xff) * s);
        return cr << 16 | cg << 8 | cb;
    }

    static int blend(int under, int over, double alpha) {
        int cr = (int) (((under >> 16) & 0xff) * (1 - alpha) + ((over >> 16) & 0xff) * alpha);
        int cg = (int) (((under >> 8) & 0xff) * (1 - alpha) + ((over >> 8) & 0xff) * alpha);
        int cb = (int) ((under & 0xff) * (1 - alpha) + (over & 0xff) * alpha);
        return cr << 16 | cg << 8 | cb;
    }

    private static double sq(double v) {
        return v * v;
    }

    private static double[] cross(double[] a, double[] b) {
        return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }

    private static double[] normalise(double[] v) {
        double n = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        return new double[] {v[0] / n, v[1] / n, v[2] / n};
    }
}
