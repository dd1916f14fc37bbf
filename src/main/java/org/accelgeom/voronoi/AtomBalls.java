package org.accelgeom.voronoi;

import java.util.Locale;
import java.util.Set;

import org.accelgeom.io.Molecule;

/**
 * The balls of a molecule's atoms: which atoms (filters) and which radii.
 *
 * <p>Filters, as {@code voronota get-balls-from-atoms-file} does by default: hydrogens (element H or D),
 * waters (residue HOH, WAT, DOD, H2O) and HETATM records are left out unless included. Alternate locations and
 * models are chosen by the reader ({@link org.accelgeom.io.Formats#readMolecule}).
 *
 * <p>Radii ({@link Radii}): {@code VORONOTA} is what Voronota 1.22 assigns without a radii file (observed on
 * 1UBQ, 4HHB, 1D3Z): H 1.20, C 1.70, N 1.55, O 1.52, P 1.80, S 1.80 and 1.70 for every other element (Fe of
 * heme, ...), i.e. Bondi's radii with Voronota's default; {@code BONDI} is {@link org.accelgeom.io.VdwRadii}
 * (other elements 1.80); {@code FILE} keeps the radii of the input (PQR and XYZR files carry them; for PDB and
 * mmCIF the reader's are Bondi's).
 */
public final class AtomBalls {

    /** Radius tables. */
    public enum Radii { VORONOTA, BONDI, FILE }

    private static final Set<String> WATERS = Set.of("HOH", "WAT", "DOD", "H2O");

    private AtomBalls() {
    }

    /** The selected atoms (their indices in the molecule) and their balls. */
    public record Selection(int[] atoms, Balls balls) {
    }

    /** Selects atoms and assigns radii. */
    public static Selection of(Molecule m, boolean hydrogens, boolean waters, boolean hetero, Radii radii) {
        int n = m.size();
        int[] keep = new int[n];
        int k = 0;
        for (int i = 0; i < n; i++) {
            String e = m.element()[i].toUpperCase(Locale.ROOT);
            boolean isH = e.equals("H") || e.equals("D");
            boolean isWater = WATERS.contains(m.residueName()[i].trim().toUpperCase(Locale.ROOT));
            if ((isH && !hydrogens) || (isWater && !waters) || (m.hetero()[i] && !hetero && !isWater)) {
                continue;
            }
            keep[k++] = i;
        }
        double[] x = new double[k], y = new double[k], z = new double[k], r = new double[k];
        for (int j = 0; j < k; j++) {
            int i = keep[j];
            x[j] = m.x()[i];
            y[j] = m.y()[i];
            z[j] = m.z()[i];
            r[j] = switch (radii) {
                case FILE -> m.radius()[i];
                case BONDI -> org.accelgeom.io.VdwRadii.of(m.element()[i]);
                case VORONOTA -> voronota(m.element()[i]);
            };
        }
        return new Selection(java.util.Arrays.copyOf(keep, k), new Balls(x, y, z, r));
    }

    /** Voronota's default radius of an element. */
    static double voronota(String element) {
        return switch (element.toUpperCase(Locale.ROOT)) {
            case "H", "D" -> 1.20;
            case "C" -> 1.70;
            case "N" -> 1.55;
            case "O" -> 1.52;
            case "P", "S" -> 1.80;
            default -> 1.70;
        };
    }
}
