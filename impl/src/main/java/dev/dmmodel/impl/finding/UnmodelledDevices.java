package dev.dmmodel.impl.finding;

import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Whole block devices that a stacking driver the model does not implement makes, known by the kernel names their
 * drivers give them; a host snapshot imports each as a disk with its recorded limits.
 */
final class UnmodelledDevices {

    /** A driver by the names it gives its devices. */
    private record Driver(Pattern names, String what) {
    }

    private static final List<Driver> DRIVERS = List.of(
            // drivers/md/md.c: md_alloc names arrays md<N> (and md_d<N>)
            new Driver(Pattern.compile("md(_d)?\\d+"), "an md RAID array (drivers/md/md.c)"),
            // drivers/md/bcache/super.c: bcache_device_init
            new Driver(Pattern.compile("bcache\\d+"), "a bcache device (drivers/md/bcache)"),
            new Driver(Pattern.compile("drbd\\d+"), "a DRBD device (drivers/block/drbd)"),
            new Driver(Pattern.compile("zram\\d+"), "a zram device (drivers/block/zram)"),
            new Driver(Pattern.compile("nbd\\d+"), "a network block device (drivers/block/nbd.c)"),
            new Driver(Pattern.compile("rbd\\d+"), "a Ceph RBD device (drivers/block/rbd.c)"));

    private UnmodelledDevices() {
    }

    /** {@link FindingType#DEVICE_NOT_MODELLED} for a disk of such a driver. */
    static void check(Disk disk, List<Finding> out) {
        if (disk.driver() != DiskDriver.OTHER) {
            return;
        }
        for (Driver d : DRIVERS) {
            if (d.names().matcher(disk.name()).matches()) {
                FindingType type = FindingType.DEVICE_NOT_MODELLED;
                out.add(new Finding(type, type.defaultSeverity(), disk.name(), disk.name() + " is " + d.what()
                        + ", which the model does not implement: it is modelled as a disk with the limits the kernel"
                        + " reported, and what it sends to the devices below it is not",
                        "none needed for the layout; a trace ends at " + disk.name() + " as at a disk"));
                return;
            }
        }
    }
}
