package org.accelgeom.io;

import java.util.ArrayList;
import java.util.List;

import org.accelgeom.engine.DoubleList;
import org.accelgeom.engine.IntList;

/** Collects atoms one at a time for the molecule readers. */
final class MoleculeBuilder {
    private final DoubleList x = new DoubleList();
    private final DoubleList y = new DoubleList();
    private final DoubleList z = new DoubleList();
    private final DoubleList r = new DoubleList();
    private final IntList serial = new IntList();
    private final IntList resNum = new IntList();
    private final List<String> name = new ArrayList<>();
    private final List<String> resName = new ArrayList<>();
    private final List<String> chain = new ArrayList<>();
    private final List<String> element = new ArrayList<>();
    private final List<Boolean> het = new ArrayList<>();

    /** Adds an atom; a NaN radius means: from {@link VdwRadii} by element. */
    void add(double ax, double ay, double az, double radius, int aSerial, String aName, String aResName,
            String aChain, int aResNum, String aElement, boolean hetero) {
        x.add(ax);
        y.add(ay);
        z.add(az);
        r.add(Double.isNaN(radius) ? VdwRadii.of(aElement) : radius);
        serial.add(aSerial);
        name.add(aName);
        resName.add(aResName);
        chain.add(aChain);
        resNum.add(aResNum);
        element.add(aElement);
        het.add(hetero);
    }

    int size() {
        return x.size();
    }

    Molecule build() {
        boolean[] h = new boolean[het.size()];
        for (int i = 0; i < h.length; i++) {
            h[i] = het.get(i);
        }
        return new Molecule(x.toArray(), y.toArray(), z.toArray(), r.toArray(), serial.toArray(),
                name.toArray(String[]::new), resName.toArray(String[]::new), chain.toArray(String[]::new),
                resNum.toArray(), element.toArray(String[]::new), h);
    }
}
