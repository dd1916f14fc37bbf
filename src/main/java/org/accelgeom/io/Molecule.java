package org.accelgeom.io;

import java.util.Arrays;

/**
 * Atoms of one molecular model, as structure of arrays: centres {@code x y z} (Å), van der Waals
 * {@code radius} (Å; from the file for PQR and XYZR, else {@link VdwRadii}) and per-atom metadata as the
 * file gives it. Arrays all have {@link #size()} entries. Text fields are never null: missing values are
 * empty strings; a missing number is 0 (residue number) or the atom's position from 1 (serial).
 *
 * @param serial        atom serial number
 * @param atomName      atom name, e.g. {@code CA}
 * @param residueName   residue (component) name, e.g. {@code GLY}
 * @param chainId       chain identifier (author's chain for mmCIF)
 * @param residueNumber residue sequence number (author's for mmCIF)
 * @param element       element symbol, capitalised as in the periodic table ({@code C}, {@code Fe})
 * @param hetero        true for HETATM records
 */
public record Molecule(double[] x, double[] y, double[] z, double[] radius, int[] serial, String[] atomName,
        String[] residueName, String[] chainId, int[] residueNumber, String[] element, boolean[] hetero) {

    public Molecule {
        int n = x.length;
        if (y.length != n || z.length != n || radius.length != n || serial.length != n || atomName.length != n
                || residueName.length != n || chainId.length != n || residueNumber.length != n
                || element.length != n || hetero.length != n) {
            throw new IllegalArgumentException("per-atom arrays of different lengths");
        }
    }

    public int size() {
        return x.length;
    }

    /** The atom centres as a 3D point cloud (the arrays are shared, not copied). */
    public PointCloud centres() {
        return PointCloud.of(x, y, z);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Molecule m && Arrays.equals(x, m.x) && Arrays.equals(y, m.y) && Arrays.equals(z, m.z)
                && Arrays.equals(radius, m.radius) && Arrays.equals(serial, m.serial)
                && Arrays.equals(atomName, m.atomName) && Arrays.equals(residueName, m.residueName)
                && Arrays.equals(chainId, m.chainId) && Arrays.equals(residueNumber, m.residueNumber)
                && Arrays.equals(element, m.element) && Arrays.equals(hetero, m.hetero);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(x) * 31 + Arrays.hashCode(atomName);
    }

    @Override
    public String toString() {
        return "Molecule[" + size() + " atoms]";
    }
}
