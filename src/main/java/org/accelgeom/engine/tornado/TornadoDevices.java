package org.accelgeom.engine.tornado;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.TornadoSupport;

import uk.ac.manchester.tornado.api.TornadoBackend;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoRuntime;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.runtime.TornadoRuntimeProvider;

/**
 * Device discovery for the engine: lists the devices of the TornadoVM runtime and resolves {@code --device N}.
 * Device numbers count the devices of backend 0 (the default backend), as {@code tornado --devices} lists them.
 */
public final class TornadoDevices implements TornadoSupport.DeviceBridge {

    @Override
    public List<String> describeDevices() {
        TornadoRuntime rt = TornadoRuntimeProvider.getTornadoRuntime();
        List<String> out = new ArrayList<>();
        for (int b = 0; b < rt.getNumBackends(); b++) {
            TornadoBackend backend = rt.getBackend(b);
            for (int d = 0; d < backend.getNumDevices(); d++) {
                TornadoDevice dev = backend.getDevice(d);
                String id = b == 0 ? Integer.toString(d) : b + ":" + d;
                out.add(String.format(Locale.ROOT, "%s: %s (%s, %s, %.1f GiB global memory, max allocation %.1f GiB)", id,
                        dev.getPhysicalDevice().getDeviceName(), backend.getName(), dev.getDeviceType(),
                        dev.getMaxGlobalMemory() / 1073741824.0, dev.getMaxAllocMemory() / 1073741824.0));
            }
        }
        return out;
    }

    @Override
    public int deviceCount() {
        return TornadoRuntimeProvider.getTornadoRuntime().getBackend(0).getNumDevices();
    }

    /**
     * The device {@code index} of the default backend, or the runtime's default device when index is negative.
     * An index out of range is a user error with the list of devices in the message.
     */
    public static TornadoDevice device(int index) {
        TornadoRuntime rt = TornadoRuntimeProvider.getTornadoRuntime();
        if (index < 0) {
            return rt.getDefaultDevice();
        }
        int n = rt.getBackend(0).getNumDevices();
        if (index >= n) {
            throw new AccelGeomException("--device " + index + ": TornadoVM has " + n + " device(s) ("
                    + String.join("; ", new TornadoDevices().describeDevices()) + ")");
        }
        return TornadoExecutionPlan.getDevice(0, index);
    }

    /** A one-dimensional work-group size for {@code device}: {@code wanted}, at most its maximum (256 if unknown). */
    public static int workGroup(TornadoDevice device, int wanted) {
        long[] max = device.getDeviceMaxWorkgroupDimensions();
        long cap = max != null && max.length > 0 && max[0] > 0 ? max[0] : 256;
        return (int) Math.max(1, Math.min(wanted, cap));
    }
}
