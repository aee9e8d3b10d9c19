package dev.dmmodel.impl.dm;

import dev.dmmodel.device.DevNumber;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/** How device-mapper numbers its devices: one dynamic block major, minors handed out lowest free first. */
public final class DmMinors {

    /** The major the kernel gave device-mapper on every recorded host (dynamic: the first free one). */
    public static final int DM_MAJOR = 253;

    private DmMinors() {
    }

    /** The minor a new dm device gets, given the device numbers in use. */
    // drivers/md/dm.c: next_free_minor (idr_alloc from 0: the lowest free id)
    public static int nextFreeMinor(Collection<DevNumber> inUse) {
        Set<Integer> used = new HashSet<>();
        for (DevNumber d : inUse) {
            if (d.major() == DM_MAJOR) {
                used.add(d.minor());
            }
        }
        int minor = 0;
        while (used.contains(minor)) {
            minor++;
        }
        return minor;
    }
}
