#!/usr/bin/env python3
"""Inputs for the several-GPU benchmarks (docs/scale-out.md), written with the standard library only.

  scale-inputs.py jitter OUTDIR COPIES SIGMA FILE...   COPIES copies of each PDB file (.pdb or .pdb.gz), every
      ATOM/HETATM coordinate plus Gaussian noise of SIGMA angstrom (columns 31-54 rewritten as %8.3f), named
      NN<letter>-<stem>.pdb: a sorted listing interleaves the structures in the order given, copy by copy (give the
      largest first: a batch's plans are sized by its first input).
  scale-inputs.py dcd IN.xyzr OUT.dcd FRAMES [SIGMA] [SEED]   a CHARMM DCD (little-endian, no unit cell) of the
      balls of IN.xyzr: FRAMES frames, each the coordinates plus Gaussian noise (SIGMA, default 0.1 angstrom).
"""
import gzip
import os
import random
import struct
import sys


def jitter(out, copies, sigma, files):
    os.makedirs(out, exist_ok=True)
    rnd = random.Random(7)
    for i, f in enumerate(files):
        opener = gzip.open if f.endswith('.gz') else open
        with opener(f, 'rt') as src:
            lines = src.read().splitlines(True)
        stem = os.path.basename(f).split('.')[0]
        for c in range(copies):
            with open(os.path.join(out, '%02d%s-%s.pdb' % (c, chr(97 + i), stem)), 'w') as w:
                for line in lines:
                    if line.startswith(('ATOM', 'HETATM')) and len(line) >= 54:
                        xyz = [float(line[30 + 8 * k:38 + 8 * k]) + rnd.gauss(0, sigma) for k in range(3)]
                        line = line[:30] + ''.join('%8.3f' % v for v in xyz) + line[54:]
                    w.write(line)


def dcd(src, out, frames, sigma=0.1, seed=7):
    rnd = random.Random(seed)
    with open(src) as f:
        pts = [tuple(map(float, l.split()[:3])) for l in f if l.strip() and not l.startswith('#')]

    def rec(b):
        return struct.pack('<i', len(b)) + b + struct.pack('<i', len(b))

    with open(out, 'wb') as f:
        ic = [0] * 20
        ic[0], ic[1], ic[2], ic[19] = frames, 1, 1, 24
        f.write(rec(b'CORD' + struct.pack('<9i', *ic[:9]) + struct.pack('<f', 0.002) + struct.pack('<10i', *ic[10:])))
        f.write(rec(struct.pack('<i', 1) + b'accelgeom scale-inputs.py: balls with noise'.ljust(80)))
        f.write(rec(struct.pack('<i', len(pts))))
        for _ in range(frames):
            for c in range(3):
                f.write(rec(struct.pack('<%df' % len(pts), *[p[c] + rnd.gauss(0, sigma) for p in pts])))


if __name__ == '__main__':
    a = sys.argv[1:]
    if len(a) >= 5 and a[0] == 'jitter':
        jitter(a[1], int(a[2]), float(a[3]), a[4:])
    elif 4 <= len(a) <= 6 and a[0] == 'dcd':
        dcd(a[1], a[2], int(a[3]), float(a[4]) if len(a) > 4 else 0.1, int(a[5]) if len(a) > 5 else 7)
    else:
        sys.exit(__doc__)
