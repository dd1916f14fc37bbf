package org.accelgeom.io;

import java.util.Locale;
import java.util.Map;

/**
 * Van der Waals radii in Å by element, from Bondi (1964), "van der Waals Volumes and Radii",
 * J. Phys. Chem. 68(3):441-451: H 1.20, C 1.70, N 1.55, O 1.52, F 1.47, P 1.80, S 1.80, Cl 1.75, Br 1.85,
 * I 1.98, Se 1.90. Any other or unknown element gets {@link #DEFAULT} = 1.80 Å.
 */
public final class VdwRadii {
    /** The radius used for elements without a Bondi value (and for an empty element). */
    public static final double DEFAULT = 1.80;

    private static final Map<String, Double> BONDI = Map.ofEntries(
            Map.entry("H", 1.20), Map.entry("C", 1.70), Map.entry("N", 1.55), Map.entry("O", 1.52),
            Map.entry("F", 1.47), Map.entry("P", 1.80), Map.entry("S", 1.80), Map.entry("CL", 1.75),
            Map.entry("BR", 1.85), Map.entry("I", 1.98), Map.entry("SE", 1.90));

    /** Element symbols that two-letter PDB atom names starting in column 13 may spell. */
    private static final java.util.Set<String> TWO_LETTER = java.util.Set.of("CL", "BR", "SE", "FE", "ZN", "MG",
            "MN", "CA", "NA", "CU", "CO", "NI", "CD", "HG", "SR", "BA", "CS", "LI", "AL", "SI", "AS", "AU", "AG",
            "PT", "PB", "GA", "KR", "XE", "YB", "SM", "EU", "GD", "TB", "IR", "OS", "RU", "RH", "PD", "MO", "W");

    private VdwRadii() {
    }

    /** The Bondi radius of an element symbol (any case), or {@link #DEFAULT}. */
    public static double of(String element) {
        Double r = BONDI.get(element.toUpperCase(Locale.ROOT));
        return r == null ? DEFAULT : r;
    }

    /** The symbol with its second letter lower case ({@code FE} to {@code Fe}). */
    static String capitalise(String e) {
        e = e.strip();
        if (e.isEmpty()) {
            return e;
        }
        return e.substring(0, 1).toUpperCase(Locale.ROOT) + e.substring(1).toLowerCase(Locale.ROOT);
    }

    /**
     * The element of a PDB atom name in columns 13-16 (4 characters, unstripped), by the PDB convention: the
     * element is right-justified in columns 13-14, so a name starting with a blank or a digit has a
     * one-letter element in column 14; a name starting with a letter in column 13 has a two-letter element
     * when it spells one (and is not a 4-character hydrogen name such as {@code HG21}), else its first letter.
     */
    static String fromPdbName(String name4) {
        String n = name4.length() > 4 ? name4.substring(0, 4) : name4;
        if (n.isBlank()) {
            return "";
        }
        char c0 = n.charAt(0);
        if (c0 == ' ' || Character.isDigit(c0)) {
            String rest = n.substring(1).strip();
            int k = 0;
            while (k < rest.length() && !Character.isLetter(rest.charAt(k))) {
                k++;
            }
            return k < rest.length() ? capitalise(rest.substring(k, k + 1)) : "";
        }
        String s = n.strip().toUpperCase(Locale.ROOT);
        if (s.length() >= 2 && TWO_LETTER.contains(s.substring(0, 2)) && !(s.charAt(0) == 'H' && s.length() == 4)) {
            return capitalise(s.substring(0, 2));
        }
        return capitalise(s.substring(0, 1));
    }

    /** The element of an atom name in a format without column conventions (PQR, mmCIF without type_symbol). */
    static String fromName(String name) {
        String s = name.strip();
        int k = 0;
        while (k < s.length() && !Character.isLetter(s.charAt(k))) {
            k++;
        }
        return k < s.length() ? capitalise(s.substring(k, k + 1)) : "";
    }
}
