package dev.dmmodel.impl.dm;

import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.impl.block.Limits;
import java.util.Optional;

/** What dm needs to know about the devices below a table while computing its limits. */
public interface DeviceView {

    /** Whether a device of that kernel name exists. */
    boolean exists(String device);

    /** The limits of the queue the device's I/O goes to: a partition's whole disk, else the device's own. */
    Limits queueLimits(String device);

    /** The partition's start on its disk, 0 for other devices ({@code get_start_sect}). */
    long startSector(String device);

    /** The device's size in sectors. */
    long size(String device);

    /** The thin-pool target of a pool device, if it is one. */
    Optional<ThinPoolTarget> poolTarget(String device);
}
