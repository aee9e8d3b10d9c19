package dev.dmmodel.impl.md;

import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.MdArraySpec;
import dev.dmmodel.device.MdDevice;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.dm.DeviceView;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Sectors;
import java.util.Collection;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An array started over members that exist ({@code md_run}): the personality's checks, the array's size, its
 * limits and its device number. Plans ({@code HostBuilder}) and running hosts ({@code mdadm --create} in a workload)
 * both start arrays through this.
 */
public final class MdRun {
    private static final Pattern MD_N = Pattern.compile("md(\\d{1,6})");
    /** The first minor a named array ({@code /dev/md/NAME}) gets: md_alloc's {@code 512}. */
    static final int NAMED_MINOR_BASE = 512;

    private MdRun() {
    }

    /**
     * The running array and its queue limits.
     *
     * @param name the kernel name
     * @param spec the array, members by kernel name (resolved and checked by the caller)
     * @param devNumber the device number to use, or empty for md's
     * @param used the device numbers taken already
     * @throws dev.dmmodel.layout.LayoutException when the personality refuses the array
     */
    // drivers/md/md.c: md_run — pers->run, the array size, the limits
    public static Started start(String name, MdArraySpec spec, DeviceView view, KernelProfile profile,
                                Optional<DevNumber> devNumber, Collection<DevNumber> used) {
        MdPersonality pers = MdPersonality.of(spec.level());
        pers.check(name, spec);
        long size = pers.size(spec);
        Limits limits = MdLimits.compute(name, spec, view, profile);
        DevNumber dev = devNumber.orElseGet(() -> number(name, used));
        return new Started(new MdDevice(name, dev, Sectors.of(size), spec, limits.toQueueLimits()), limits);
    }

    /**
     * The array and its limits.
     *
     * @param device the array
     * @param limits its queue limits (mutable, for the block layer)
     */
    public record Started(MdDevice device, Limits limits) {
    }

    // drivers/md/md.c: md_alloc — mdN is 9:N; a named array gets the next free minor from 512
    static DevNumber number(String name, Collection<DevNumber> used) {
        Matcher m = MD_N.matcher(name);
        if (m.matches()) {
            return new DevNumber(MdDevice.MD_MAJOR, Integer.parseInt(m.group(1)));
        }
        int minor = NAMED_MINOR_BASE;
        while (used.contains(new DevNumber(MdDevice.MD_MAJOR, minor))) {
            minor++;
        }
        return new DevNumber(MdDevice.MD_MAJOR, minor);
    }
}
