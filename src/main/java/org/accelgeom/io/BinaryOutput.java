package org.accelgeom.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Binary values written through a ByteBuffer of the chosen byte order. */
final class BinaryOutput {
    private final OutputStream out;
    private final ByteBuffer b;

    BinaryOutput(OutputStream out, ByteOrder order) {
        this.out = out;
        this.b = ByteBuffer.allocate(1 << 16).order(order);
    }

    private void room(int n) throws IOException {
        if (b.remaining() < n) {
            flush();
        }
    }

    void f64(double v) throws IOException {
        room(8);
        b.putDouble(v);
    }

    void i32(int v) throws IOException {
        room(4);
        b.putInt(v);
    }

    void u8(int v) throws IOException {
        room(1);
        b.put((byte) v);
    }

    void flush() throws IOException {
        out.write(b.array(), 0, b.position());
        b.clear();
        out.flush();
    }
}
