package org.accelgeom.io;

/**
 * LZF decompression (the format of liblzf, used by PCD {@code binary_compressed}). A control byte c below 32
 * starts a literal run of c+1 bytes; otherwise its top three bits give a back-reference length (7 means:
 * add the next byte) and the low five bits with the next byte the distance minus one; a reference copies
 * length+2 bytes.
 */
final class Lzf {
    private Lzf() {
    }

    /** Decodes {@code in} into {@code out}; returns the number of bytes written, or -1 on corrupt data. */
    static int decompress(byte[] in, byte[] out) {
        int ip = 0;
        int op = 0;
        while (ip < in.length) {
            int ctrl = in[ip++] & 0xff;
            if (ctrl < 32) {
                int run = ctrl + 1;
                if (ip + run > in.length || op + run > out.length) {
                    return -1;
                }
                System.arraycopy(in, ip, out, op, run);
                ip += run;
                op += run;
                continue;
            }
            int len = ctrl >> 5;
            if (len == 7) {
                if (ip >= in.length) {
                    return -1;
                }
                len += in[ip++] & 0xff;
            }
            if (ip >= in.length) {
                return -1;
            }
            int ref = op - ((ctrl & 0x1f) << 8) - (in[ip++] & 0xff) - 1;
            len += 2;
            if (ref < 0 || op + len > out.length) {
                return -1;
            }
            for (int k = 0; k < len; k++) {
                out[op++] = out[ref++]; // may overlap: byte by byte
            }
        }
        return op;
    }
}
