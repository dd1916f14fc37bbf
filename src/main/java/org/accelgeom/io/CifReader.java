package org.accelgeom.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * mmCIF (PDBx): the {@code _atom_site} loop, its columns found by name in the loop header. Reads
 * {@code Cartn_x/y/z} (required), {@code group_PDB}, {@code id}, {@code type_symbol}, the author's atom
 * name, residue name, chain and residue number (falling back to the {@code label_} ones),
 * {@code label_alt_id}, {@code pdbx_PDB_ins_code} and {@code pdbx_PDB_model_num}. Values may be quoted
 * with ' or "; {@code .} and {@code ?} mean missing. {@code model} selects the n-th distinct model number
 * (from 1); alternate locations as in {@link PdbReader}.
 */
final class CifReader {
    private CifReader() {
    }

    /** A token reader over CIF lines: quoted strings, semicolon text fields, # comments. */
    private static final class Tokens {
        private final Input in;
        private int p;
        private boolean started;
        boolean quoted;
        String pushed;
        boolean pushedQuoted;

        Tokens(Input in) {
            this.in = in;
        }

        void push(String t, boolean q) {
            pushed = t;
            pushedQuoted = q;
        }

        /** The next token, or null at the end of the file. */
        String next() throws IOException {
            if (pushed != null) {
                String t = pushed;
                quoted = pushedQuoted;
                pushed = null;
                return t;
            }
            byte[] b = in.bytes().array();
            while (true) {
                if (!started || p >= in.le) {
                    if (!in.nextLine()) {
                        return null;
                    }
                    started = true;
                    b = in.bytes().array();
                    p = in.ls;
                    if (p < in.le && b[p] == ';') {
                        return textField();
                    }
                }
                while (p < in.le && (b[p] == ' ' || b[p] == '\t')) {
                    p++;
                }
                if (p >= in.le) {
                    continue;
                }
                if (b[p] == '#') {
                    p = in.le;
                    continue;
                }
                quoted = false;
                if (b[p] == '\'' || b[p] == '"') {
                    byte q = b[p];
                    int s = p + 1;
                    int e = s;
                    while (e < in.le && !(b[e] == q && (e + 1 == in.le || b[e + 1] == ' ' || b[e + 1] == '\t'))) {
                        e++;
                    }
                    if (e >= in.le) {
                        throw in.error("expected a closing " + (char) q + " on the same line");
                    }
                    p = e + 1;
                    quoted = true;
                    return new String(b, s, e - s, StandardCharsets.ISO_8859_1);
                }
                int s = p;
                while (p < in.le && b[p] != ' ' && b[p] != '\t') {
                    p++;
                }
                return new String(b, s, p - s, StandardCharsets.ISO_8859_1);
            }
        }

        private String textField() throws IOException {
            long start = in.line;
            StringBuilder sb = new StringBuilder(in.lineText().substring(1));
            while (in.nextLine()) {
                byte[] b = in.bytes().array();
                if (in.le > in.ls && b[in.ls] == ';') {
                    p = in.ls + 1;
                    quoted = true;
                    return sb.toString();
                }
                sb.append('\n').append(in.lineText());
            }
            throw FormatException.at(in.name, start, "expected a line starting with ';' to end this text field");
        }
    }

    static Molecule read(Input in, int model) throws IOException {
        if (model < 1) {
            throw new org.accelgeom.engine.AccelGeomException("model numbers count from 1, got " + model);
        }
        Tokens tk = new Tokens(in);
        String t;
        while ((t = tk.next()) != null) {
            if (tk.quoted || !t.equals("loop_")) {
                continue;
            }
            List<String> names = new ArrayList<>();
            while ((t = tk.next()) != null && !tk.quoted && t.startsWith("_")) {
                names.add(t);
            }
            if (t != null) {
                tk.push(t, tk.quoted);
            }
            if (!names.isEmpty() && names.get(0).startsWith("_atom_site.")) {
                return atoms(in, tk, names, model);
            }
        }
        throw in.error("expected an _atom_site loop, found the end of the file");
    }

    private static Molecule atoms(Input in, Tokens tk, List<String> names, int model) throws IOException {
        int n = names.size();
        int cx = col(names, "Cartn_x");
        int cy = col(names, "Cartn_y");
        int cz = col(names, "Cartn_z");
        if (cx < 0 || cy < 0 || cz < 0) {
            throw in.error("expected _atom_site.Cartn_x, Cartn_y and Cartn_z in the loop header");
        }
        int group = col(names, "group_PDB");
        int id = col(names, "id");
        int type = col(names, "type_symbol");
        int atom = col(names, "auth_atom_id", "label_atom_id");
        int comp = col(names, "auth_comp_id", "label_comp_id");
        int chain = col(names, "auth_asym_id", "label_asym_id");
        int seq = col(names, "auth_seq_id", "label_seq_id");
        int alt = col(names, "label_alt_id");
        int ins = col(names, "pdbx_PDB_ins_code");
        int mod = col(names, "pdbx_PDB_model_num");
        MoleculeBuilder mol = new MoleculeBuilder();
        PdbReader.AltLocs altLocs = new PdbReader.AltLocs();
        String[] row = new String[n];
        String lastModel = null;
        int ordinal = 0;
        while (true) {
            String t = tk.next();
            if (t == null || !tk.quoted && (t.startsWith("_") || t.equals("loop_") || t.startsWith("data_"))) {
                break;
            }
            row[0] = t;
            for (int k = 1; k < n; k++) {
                row[k] = tk.next();
                if (row[k] == null) {
                    throw in.error("the _atom_site loop ends inside a row: expected " + n + " values, found " + k);
                }
            }
            if (mod >= 0 && !row[mod].equals(lastModel)) {
                lastModel = row[mod];
                ordinal++;
            } else if (mod < 0) {
                ordinal = 1;
            }
            if (ordinal > model) {
                break;
            }
            if (ordinal != model) {
                continue;
            }
            String ch = value(row, chain);
            String sq = value(row, seq);
            String a = value(row, alt);
            if (!altLocs.keep(ch + '/' + sq + '/' + value(row, ins), a.isEmpty() ? ' ' : a.charAt(0))) {
                continue;
            }
            String name = value(row, atom);
            String element = VdwRadii.capitalise(value(row, type));
            if (element.isEmpty()) {
                element = VdwRadii.fromName(name);
            }
            mol.add(number(in, row[cx], "Cartn_x"), number(in, row[cy], "Cartn_y"), number(in, row[cz], "Cartn_z"),
                    Double.NaN, integer(value(row, id), mol.size() + 1), name, value(row, comp), ch,
                    integer(sq, 0), element, value(row, group).equals("HETATM"));
        }
        if (mol.size() == 0) {
            throw ordinal < model ? new NoSuchModelException(in.name + ":" + in.line + ": expected model " + model
                    + ", found only " + ordinal) : in.error("expected atoms in the _atom_site loop, found none");
        }
        return mol.build();
    }

    private static int col(List<String> names, String... wanted) {
        for (String w : wanted) {
            int k = names.indexOf("_atom_site." + w);
            if (k >= 0) {
                return k;
            }
        }
        return -1;
    }

    private static String value(String[] row, int k) {
        if (k < 0) {
            return "";
        }
        String v = row[k];
        return v.equals(".") || v.equals("?") ? "" : v;
    }

    private static double number(Input in, String s, String what) {
        try {
            int p = s.indexOf('(');
            return Double.parseDouble(p > 0 ? s.substring(0, p) : s); // drop a standard uncertainty "1.23(4)"
        } catch (NumberFormatException e) {
            throw in.error("expected a number for " + what + ", found '" + s + "'");
        }
    }

    private static int integer(String s, int fallback) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
