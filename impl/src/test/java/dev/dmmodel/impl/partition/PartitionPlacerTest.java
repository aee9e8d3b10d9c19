package dev.dmmodel.impl.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PartitionPlacerTest {
    private static final long DISK = 131072; // 64 MiB, as the recorded limits-* disks

    private static Limits limits(long lbs, long pbs, long ioMin, long ioOpt) {
        Limits l = new Limits();
        l.logicalBlockSize = lbs;
        l.physicalBlockSize = pbs;
        l.ioMin = ioMin;
        l.ioOpt = ioOpt;
        return l;
    }

    @Test
    void legacyMsdosPartitionAt63ToTheEnd() {
        var placed = PartitionPlacer.place("sdg", DISK, limits(512, 512, 512, 0), PartitionTableType.MSDOS,
                List.of(PartitionSpec.atToEnd(Sectors.of(63))));
        // recorded: sdg1 start 63 size 131009
        assertThat(placed).containsExactly(new PartitionPlacer.Placed(1, 63, 131009));
    }

    @Test
    void optimalPlacementIsOneMiBWithoutTopology() {
        var placed = PartitionPlacer.place("sda", DISK, limits(512, 512, 512, 0), PartitionTableType.MSDOS,
                List.of(PartitionSpec.optimal(Optional.empty())));
        assertThat(placed).containsExactly(new PartitionPlacer.Placed(1, 2048, DISK - 2048));
    }

    @Test
    void optimalPlacementFollowsAFullStripeThatDoesNotDivideOneMiB() {
        // io_opt 448 KiB = 896 sectors does not divide 2048 -> parted aligns to io_opt: 896
        var placed = PartitionPlacer.place("sda", DISK, limits(512, 4096, 65536, 458752), PartitionTableType.MSDOS,
                List.of(PartitionSpec.optimal(Optional.of(Sectors.of(8960))), PartitionSpec.optimal(Optional.empty())));
        assertThat(placed).containsExactly(new PartitionPlacer.Placed(1, 896, 8960),
                new PartitionPlacer.Placed(2, 9856, DISK - 9856));
    }

    @Test
    void minimalPlacementFollowsIoMin() {
        var placed = PartitionPlacer.place("sda", DISK, limits(512, 4096, 65536, 458752), PartitionTableType.MSDOS,
                List.of(PartitionSpec.minimal(Optional.of(Sectors.of(1000)))));
        assertThat(placed).containsExactly(new PartitionPlacer.Placed(1, 128, 1000));
    }

    @Test
    void gptKeepsItsHeadersAndEntryArrays() {
        // 512-byte LBAs: 34 sectors in front, 33 at the end
        var placed = PartitionPlacer.place("sda", DISK, limits(512, 512, 512, 0), PartitionTableType.GPT,
                List.of(PartitionSpec.atToEnd(Sectors.of(34))));
        assertThat(placed).containsExactly(new PartitionPlacer.Placed(1, 34, DISK - 34 - 33));
        // 4 KiB LBAs: 2 + 4 blocks in front (48 sectors), 1 + 4 at the end (40 sectors)
        var big = PartitionPlacer.place("sda", DISK, limits(4096, 4096, 4096, 0), PartitionTableType.GPT,
                List.of(PartitionSpec.atToEnd(Sectors.of(48))));
        assertThat(big).containsExactly(new PartitionPlacer.Placed(1, 48, DISK - 48 - 40));
    }

    @Test
    void overlappingPartitionsAreRefused() {
        assertThatThrownBy(() -> PartitionPlacer.place("sda", DISK, limits(512, 512, 512, 0), PartitionTableType.MSDOS,
                List.of(PartitionSpec.at(Sectors.of(2048), Sectors.of(4096)),
                        PartitionSpec.at(Sectors.of(4096), Sectors.of(100)))))
                .isInstanceOf(LayoutException.class)
                .hasMessage("sda partition 2: sectors 4096-4195 overlap partition 1 (2048-6143)");
    }

    @Test
    void aPartitionBeyondTheDiskIsRefused() {
        assertThatThrownBy(() -> PartitionPlacer.place("sda", DISK, limits(512, 512, 512, 0), PartitionTableType.MSDOS,
                List.of(PartitionSpec.at(Sectors.of(2048), Sectors.of(DISK)))))
                .isInstanceOf(LayoutException.class)
                .hasMessage("sda partition 1: sectors 2048-133119 lie beyond the end of the usable area (131071) of sda");
    }

    @Test
    void aStartInsideALogicalBlockIsRefused() {
        assertThatThrownBy(() -> PartitionPlacer.place("sdg", DISK, limits(4096, 4096, 4096, 0), PartitionTableType.MSDOS,
                List.of(PartitionSpec.atToEnd(Sectors.of(63)))))
                .isInstanceOf(LayoutException.class)
                .hasMessage("sdg partition 1: start 63 and size 131009 must be whole logical blocks of 4096 bytes (8 sectors)");
    }

    @Test
    void msdosHoldsFourPrimaries() {
        PartitionSpec p = PartitionSpec.optimal(Optional.of(Sectors.of(2048)));
        assertThatThrownBy(() -> PartitionPlacer.place("sda", DISK, limits(512, 512, 512, 0), PartitionTableType.MSDOS,
                List.of(p, p, p, p, p)))
                .isInstanceOf(LayoutException.class)
                .hasMessage("sda: an msdos label holds at most 4 primary partitions, 5 requested");
    }
}
