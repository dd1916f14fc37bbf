package org.accelgeom.terrain;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.Polygon;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;

import org.accelgeom.cbt.CbtKernels;
import org.accelgeom.io.MeshPicture;
import org.accelgeom.render.Camera;

/** Pictures of a terrain frame: the LEB triangles seen from above coloured by depth, and a shaded 3D view. */
public final class TerrainPictures {

    private TerrainPictures() {
    }

    /**
     * The square seen from above (y up), each triangle filled with a colour for its depth (blue coarse to red
     * fine) and outlined; the camera as a white dot with its view direction.
     */
    public static BufferedImage topDown(int[] nodes, int maxDepth, Camera camera, double size, int pixels) {
        BufferedImage img = new BufferedImage(pixels, pixels, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.BLACK);
        g.fillRect(0, 0, pixels, pixels);
        float[] v = new float[6];
        int lo = Integer.MAX_VALUE;
        int hi = 0;
        for (int k : nodes) {
            lo = Math.min(lo, CbtKernels.depth(k));
            hi = Math.max(hi, CbtKernels.depth(k));
        }
        g.setStroke(new BasicStroke(pixels >= 1024 ? 0.6f : 0.4f));
        for (int k : nodes) {
            LebKernels.vertices(k, v, 0);
            Polygon p = new Polygon();
            for (int i = 0; i < 3; i++) {
                p.addPoint((int) Math.round(v[2 * i] * (pixels - 1)), (int) Math.round((1 - v[2 * i + 1]) * (pixels - 1)));
            }
            float t = hi > lo ? (CbtKernels.depth(k) - lo) / (float) (hi - lo) : 0;
            g.setColor(Color.getHSBColor(0.66f * (1 - t), 0.75f, 0.55f));
            g.fillPolygon(p);
            g.setColor(Color.getHSBColor(0.66f * (1 - t), 0.4f, 0.95f));
            g.drawPolygon(p);
        }
        if (camera != null) {
            int cx = (int) Math.round(camera.x() / size * (pixels - 1));
            int cy = (int) Math.round((1 - camera.y() / size) * (pixels - 1));
            g.setColor(Color.WHITE);
            g.fillOval(cx - 4, cy - 4, 9, 9);
            double h = Math.hypot(camera.dx(), camera.dy());
            if (h > 0) {
                g.setStroke(new BasicStroke(2f));
                g.drawLine(cx, cy, cx + (int) (30 * camera.dx() / h), cy - (int) (30 * camera.dy() / h));
            }
        }
        g.dispose();
        return img;
    }

    /** The frame's mesh flat-shaded in perspective, seen obliquely from the south-west, with its edges. */
    public static BufferedImage shaded(Terrain terrain, int width, int height) {
        return new MeshPicture(width, height).viewFrom(-0.8, -1.2, 0.9).perspective(true)
                .wireframe(terrain.triangleCount() <= 20_000).colours(0xffffff, 0xa8c69f, 0x3a4a3a).render(terrain.mesh());
    }
}
