package org.accelgeom.io;

import java.io.IOException;

/**
 * PQR (as written by PDB2PQR and read by APBS): whitespace-separated ATOM/HETATM records in one of two
 * layouts, told apart by their field count: {@code ATOM serial name resName resNum x y z charge radius}
 * (10 fields) or, with a chain ID, {@code ATOM serial name resName chain resNum x y z charge radius}
 * (11 fields). Any other count is an error naming the line; in a 10-field record the residue number must be
 * an integer, so a record with a chain ID but no radius is an error, never a silent shift of columns
 * (a numeric chain ID without a radius cannot be told from the 10-field layout). The radius comes
 * from the file (finite, &ge; 0), the charge is checked but not kept; other records are ignored. The element
 * is inferred from the atom name.
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
                    throw in.error("expected 10 or 11 fields in a PQR record, found more than " + (t.length + 1));
                }
                t[n++] = in.token();
            }
            if (n != 9 && n != 10) {
                throw in.error("expected 'ATOM serial name resName [chain] resNum x y z charge radius' (10 or 11 "
                        + "fields), found " + (n + 1) + " fields");
            }
            boolean chained = n == 10;
            int resNum;
            try {
                resNum = Integer.parseInt(t[n - 6]);
            } catch (NumberFormatException e) {
                if (!chained) {
                    throw in.error("expected the residue number in field 5, found '" + t[n - 6]
                            + "' (a chain ID with a value missing?)");
                }
                resNum = 0;
            }
            double x = number(in, t[n - 5], "x");
            double y = number(in, t[n - 4], "y");
            double z = number(in, t[n - 3], "z");
            number(in, t[n - 2], "the charge");
            double r = number(in, t[n - 1], "the radius");
            if (!(r >= 0)) {
                throw in.error("expected a radius >= 0, found " + t[n - 1]);
            }
            String chain = chained ? t[3] : "";
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
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        double v;
        try {
            v = Numbers.parseDouble(b, 0, b.length);
        } catch (NumberFormatException e) {
            throw in.error("expected " + what + ", found '" + TextBlocks.shown(b, 0, b.length) + "'");
        }
        if (!Double.isFinite(v)) {
            throw in.error("expected " + what + ", found '" + s + "' (beyond the range of a double)");
        }
        return v;
    }
}
