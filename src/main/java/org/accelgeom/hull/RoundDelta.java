package org.accelgeom.hull;

/**
 * The topology changes of one QuickHull round, as the host hands them to a backend: faces
 * {@code newBase .. newBase+newCount-1} were created with the given planes; the deleted faces
 * {@code deleted[k]} were replaced by the cones {@code coneFirst[k] .. coneFirst[k]+coneCount[k]-1};
 * the points {@code apexes} became hull vertices. Arrays may be longer than their counts.
 */
public final class RoundDelta {
    public int newBase;
    public int newCount;
    public double[] planes = new double[0];
    public int deletedCount;
    public int[] deleted = new int[0];
    public int[] coneFirst = new int[0];
    public int[] coneCount = new int[0];
    public int apexCount;
    public int[] apexes = new int[0];

    void clear(int base) {
        newBase = base;
        newCount = 0;
        deletedCount = 0;
        apexCount = 0;
    }

    /** Adds the planes of the faces {@code first .. first+count-1} of {@code plane} (faces in id order). */
    void addFaces(double[] plane, int first, int count) {
        int stride = HullKernels.PLANE_STRIDE;
        planes = grow(planes, (newCount + count) * stride);
        System.arraycopy(plane, first * stride, planes, newCount * stride, count * stride);
        newCount += count;
    }

    void addDeleted(int f, int first, int count) {
        if (deletedCount == deleted.length) {
            int cap = Math.max(64, deleted.length * 2);
            deleted = java.util.Arrays.copyOf(deleted, cap);
            coneFirst = java.util.Arrays.copyOf(coneFirst, cap);
            coneCount = java.util.Arrays.copyOf(coneCount, cap);
        }
        deleted[deletedCount] = f;
        coneFirst[deletedCount] = first;
        coneCount[deletedCount] = count;
        deletedCount++;
    }

    public void addApex(int p) {
        if (apexCount == apexes.length) {
            apexes = java.util.Arrays.copyOf(apexes, Math.max(64, apexes.length * 2));
        }
        apexes[apexCount++] = p;
    }

    private static double[] grow(double[] a, int need) {
        return need <= a.length ? a : java.util.Arrays.copyOf(a, Math.max(need, a.length * 2));
    }
}
