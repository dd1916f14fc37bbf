package org.accelgeom.io;

import static org.accelgeom.io.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MoleculeReadersTest {

    @Test
    void pdbFirstModelKeepsFirstAltLoc() {
        Molecule m = Formats.readMolecule(file("twomodels.pdb"));
        assertEquals(5, m.size());
        assertArrayEquals(new int[] {1, 2, 4, 5, 6}, m.serial());
        assertArrayEquals(new String[] {"N", "CA", "O", "FE", "O"}, m.atomName());
        assertArrayEquals(new String[] {"N", "C", "O", "Fe", "O"}, m.element(), "element from 77-78, else the name");
        assertArrayEquals(new double[] {1.55, 1.70, 1.52, 1.80, 1.52}, m.radius());
        assertArrayEquals(new boolean[] {false, false, false, true, true}, m.hetero());
        assertArrayEquals(new String[] {"A", "A", "A", "B", "B"}, m.chainId());
        assertArrayEquals(new int[] {1, 1, 1, 2, 3}, m.residueNumber());
        assertEquals("HEM", m.residueName()[3]);
        assertEquals(0.0, m.x()[1], "altLoc A kept, B dropped");
        assertEquals(12.0, m.z()[3]);
    }

    @Test
    void pdbSecondModel() {
        Molecule m = Formats.readMolecule(file("twomodels.pdb"), 2);
        assertEquals(2, m.size());
        assertArrayEquals(new double[] {-2, 0.5}, m.x());
        TestFiles.assertFormatError("twomodels.pdb", "model 3", () -> Formats.readMolecule(file("twomodels.pdb"), 3));
    }

    @Test
    void mmcifByColumnNameWithQuotesModelsAndAltLocs() {
        Molecule m = Formats.readMolecule(file("small.cif"));
        assertEquals(4, m.size());
        assertArrayEquals(new String[] {"N", "CA", "O5'", "FE"}, m.atomName());
        assertArrayEquals(new String[] {"X", "X", "X", "Y"}, m.chainId(), "author chain");
        assertArrayEquals(new int[] {10, 10, 10, 20}, m.residueNumber(), "author residue number");
        assertArrayEquals(new String[] {"N", "C", "O", "Fe"}, m.element());
        assertArrayEquals(new double[] {1.5, 1.0, -1.0}, new double[] {m.x()[2], m.y()[2], m.z()[2]});
        assertEquals(true, m.hetero()[3]);
        Molecule m2 = Formats.readMolecule(file("small.cif"), 2);
        assertArrayEquals(new double[] {-2, 0.5}, m2.x());
    }

    @Test
    void pqrRadiiFromTheFileWithAndWithoutChain() {
        Molecule m = Formats.readMolecule(file("small.pqr"));
        assertEquals(3, m.size());
        assertArrayEquals(new double[] {1.8240, 1.9080, 1.6612}, m.radius());
        assertArrayEquals(new double[] {-10.5, -9, 1}, m.x());
        assertArrayEquals(new String[] {"", "A", ""}, m.chainId());
        assertArrayEquals(new int[] {1, 1, 2}, m.residueNumber());
        assertEquals("HOH", m.residueName()[2]);
    }

    @Test
    void xyzr() {
        Molecule m = Formats.readMolecule(file("small.xyzr"));
        assertArrayEquals(new double[] {1.5, 1.2, 2}, m.radius());
        assertArrayEquals(new double[] {3, 6, -3}, m.z());
    }

    @Test
    void elementInference() {
        assertEquals("C", VdwRadii.fromPdbName(" CA "));
        assertEquals("Ca", VdwRadii.fromPdbName("CA  "));
        assertEquals("H", VdwRadii.fromPdbName("HG21"));
        assertEquals("H", VdwRadii.fromPdbName("1HB "));
        assertEquals("Cl", VdwRadii.fromPdbName("CL1 "));
        assertEquals(1.98, VdwRadii.of("I"));
        assertEquals(VdwRadii.DEFAULT, VdwRadii.of("Xx"));
    }
}
