package org.accelgeom.io;

import java.io.IOException;

/**
 * PQR (as written by PDB2PQR and read by APBS): whitespace-separated ATOM/HETATM records
 * {@code ATOM serial name resName [chain] resNum x y z charge radius}; the radius comes from the file,
 * the charge is not kept. Other records are ignored. The element is inferred from the atom name.
 */
final class PqrReader {
    private PqrReader() {
    }

    static Molecule read(Input in) throws IOException {
        MoleculeBuilder mol = new MoleculeBuilder();
        String[] t = new String[16];
        while (in.nextLine()) {
            if (!in.nextToken()) {
                continue;
            }
            boolean het = in.tokenIs("HETATM");
            if (!het && !in.tokenIs("ATOM")) {
                continue;
            }
            int n = 0;
            while (in.nextToken()) {
                if (n == t.length) {
                    throw in.error("expected at most " + (t.length + 1) + " fields in a PQR record");
                }
                t[n++] = in.token();
            }
            if (n < 9) {
                throw in.error("expected 'serial name resName [chain] resNum x y z charge radius', found " + (n + 1)
                        + " fields");
            }
            double x = number(in, t[n - 5], "x");
            double y = number(in, t[n - 4], "y");
            double z = number(in, t[n - 3], "z");
            number(in, t[n - 2], "the charge");
            double r = number(in, t[n - 1], "the radius");
            String chain = n >= 10 ? t[3] : "";
            int resNum = 0;
            try {
                resNum = Integer.parseInt(t[n - 6]);
            } catch (NumberFormatException e) {
                resNum = 0;
            }
            int serial;
            try {
                serial = Integer.parseInt(t[0]);
            } catch (NumberFormatException e) {
                serial = mol.size() + 1;
            }
            mol.add(x, y, z, r, serial, t[1], t[2], chain, resNum, VdwRadii.fromName(t[1]), het);
        }
        if (mol.size() == 0) {
            throw in.error("expected ATOM or HETATM records, found none");
        }
        return mol.build();
    }

    private static double number(Input in, String s, String what) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw in.error("expected " + what + ", found '" + s + "'");
        }
    }
}
