package org.accelgeom.io;

import java.io.IOException;

/**
 * XYZR (as MSMS reads it): one atom per line, {@code x y z radius}; further columns are ignored, blank lines
 * and {@code #} lines skipped. There is no metadata: serials count from 1, names and elements are empty.
 */
final class XyzrReader {
    private XyzrReader() {
    }

    static Molecule read(Input in) throws IOException {
        MoleculeBuilder mol = new MoleculeBuilder();
        while (in.nextContentLine('#')) {
            double x = in.nextDouble("x");
            double y = in.nextDouble("y");
            double z = in.nextDouble("z");
            double r = in.nextDouble("the radius");
            if (!(r >= 0)) {
                throw in.error("expected a radius >= 0, found " + r);
            }
            mol.add(x, y, z, r, mol.size() + 1, "", "", "", 0, "", false);
        }
        if (mol.size() == 0) {
            throw in.error("expected atoms 'x y z radius', found none");
        }
        return mol.build();
    }
}
