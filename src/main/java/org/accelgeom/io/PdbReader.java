package org.accelgeom.io;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * PDB (wwPDB format v3.3) ATOM and HETATM records, by fixed columns: serial 7-11, name 13-16, altLoc 17,
 * residue name 18-20, chain 22, residue number 23-26, insertion code 27, x y z 31-54, element 77-78
 * (inferred from the atom name when blank, see {@link VdwRadii#fromPdbName}).
 *
 * <p>Models: atoms between {@code MODEL}/{@code ENDMDL} belong to that model; {@code model} selects the
 * n-th model of the file (from 1; a file without MODEL records has one). Alternate locations: within each
 * residue the first altLoc code seen (usually 'A') is kept and atoms with other codes are dropped; atoms
 * with a blank altLoc are always kept. Coordinates that are not numbers are an error naming the line.
 */
final class PdbReader {
    private PdbReader() {
    }

    static Molecule read(Input in, int model) throws IOException {
        if (model < 1) {
            throw new org.accelgeom.engine.AccelGeomException("model numbers count from 1, got " + model);
        }
        MoleculeBuilder mol = new MoleculeBuilder();
        AltLocs alt = new AltLocs();
        int current = 0;   // ordinal of the MODEL record last seen
        boolean inModel = false;
        while (in.nextLine()) {
            int len = in.le - in.ls;
            if (len < 6) {
                continue;
            }
            String rec = field(in, 0, 6);
            if (rec.equals("MODEL")) {
                current++;
                inModel = true;
                if (current > model) {
                    break;
                }
                continue;
            }
            if (rec.equals("ENDMDL")) {
                inModel = false;
                if (current == model) {
                    break;
                }
                continue;
            }
            boolean het = rec.equals("HETATM");
            if (!het && !rec.equals("ATOM")) {
                continue;
            }
            int ordinal = inModel || current > 0 ? current : 1;
            if (ordinal != model) {
                continue;
            }
            if (len < 54) {
                throw in.error("expected x y z in columns 31-54 of an " + rec + " record, found a line of " + len
                        + " characters");
            }
            String chain = field(in, 21, 22);
            String resSeq = field(in, 22, 26);
            String iCode = field(in, 26, 27);
            char altLoc = in.bytes().array()[in.ls + 16] == ' ' ? ' ' : (char) in.bytes().array()[in.ls + 16];
            if (!alt.keep(chain + '/' + resSeq + '/' + iCode, altLoc)) {
                continue;
            }
            double x = number(in, 30, 38, "x");
            double y = number(in, 38, 46, "y");
            double z = number(in, 46, 54, "z");
            String name4 = raw(in, 12, 16);
            String element = VdwRadii.capitalise(field(in, 76, 78));
            if (element.isEmpty() || !Character.isLetter(element.charAt(0))) {
                element = VdwRadii.fromPdbName(name4);
            }
            mol.add(x, y, z, Double.NaN, integer(field(in, 6, 11), mol.size() + 1), name4.strip(),
                    field(in, 17, 20), chain, integer(resSeq, 0), element, het);
        }
        int models = Math.max(current, 1);
        if (model > 1 && current < model) {
            throw new NoSuchModelException(in.name + ":" + in.line + ": expected model " + model + ", found only "
                    + models + (models == 1 ? " model" : " models"));
        }
        if (mol.size() == 0) {
            throw new FormatException(in.name + ":" + in.line + ": expected ATOM or HETATM records, found none");
        }
        return mol.build();
    }

    /** Columns [from, to) (0-based) of the line, stripped; shorter lines give what there is. */
    private static String field(Input in, int from, int to) {
        return raw(in, from, to).strip();
    }

    private static String raw(Input in, int from, int to) {
        int len = in.le - in.ls;
        if (from >= len) {
            return "";
        }
        return new String(in.bytes().array(), in.ls + from, Math.min(to, len) - from,
                java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    private static double number(Input in, int from, int to, String what) {
        byte[] b = in.bytes().array();
        int s = in.ls + from;
        int e = in.ls + to;
        while (s < e && b[s] == ' ') {
            s++;
        }
        while (e > s && b[e - 1] == ' ') {
            e--;
        }
        try {
            return Numbers.parseDouble(b, s, e);
        } catch (NumberFormatException ex) {
            throw in.error("expected the " + what + " coordinate in columns " + (from + 1) + "-" + to + ", found '"
                    + new String(b, s, e - s, java.nio.charset.StandardCharsets.ISO_8859_1) + "'");
        }
    }

    private static int integer(String s, int fallback) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return fallback; // hybrid-36 or ***** serials in very large files
        }
    }

    /** Keeps, within each residue, the first alternate location code seen. */
    static final class AltLocs {
        private final Map<String, Character> chosen = new HashMap<>();

        boolean keep(String residue, char altLoc) {
            if (altLoc == ' ' || altLoc == '.' || altLoc == '?') {
                return true;
            }
            Character c = chosen.putIfAbsent(residue, altLoc);
            return c == null || c == altLoc;
        }
    }
}
