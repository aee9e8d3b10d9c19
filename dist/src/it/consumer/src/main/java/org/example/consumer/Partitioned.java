package org.example.consumer;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;

/** A 512e disk (512-byte logical, 4 KiB physical blocks) with one msdos partition starting at a given sector. */
public final class Partitioned {
    private Partitioned() {
    }

    /** The layout on Linux 6.12: disk {@code sda}, partition {@code sda1} at {@code startSector}. */
    public static Layout at(long startSector) {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.scsiDebug(512, 4096, 0).withSize(Bytes.gib(8)))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(startSector)))
                .build();
    }
}
