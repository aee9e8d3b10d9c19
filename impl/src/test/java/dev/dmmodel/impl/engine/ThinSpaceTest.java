package dev.dmmodel.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.dm.ThinPoolFeature;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.engine.ThinStats;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Script;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThinSpaceTest {

    private static Layout pool(ThinPoolFeature... features) {
        // 16 data blocks of 64 KiB, low water mark 4 blocks, a 4 MiB thin device over 1 MiB of data
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(8192), "sdb", Sectors.ZERO))
                .dmsetupCreate("tdata", t -> t.linear(Sectors.of(2048), "sdb", Sectors.of(8192)))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.of(2048), "tmeta", "tdata", 128, 4, features))
                .dmsetupCreate("thin", t -> t.thin(Sectors.of(8192), "pool", 0))
                .build();
    }

    @Test
    void writingPastTheDataFailsWithErrorIfNoSpace() {
        Simulation sim = Simulation.of(pool(ThinPoolFeature.ERROR_IF_NO_SPACE));
        CommandResult r = sim.execute(Script.parse("dd if=/dev/zero of=/dev/mapper/thin bs=64k count=20 oflag=direct")
                .commands().get(0), TraceListener.NONE);
        // 16 blocks fit; the 17th write finds no free block
        assertThat(r.exitStatus()).isEqualTo(1);
        assertThat(r.message()).isEqualTo("dd: error writing '/dev/mapper/thin': No space left on device");
        assertThat(r.bytes()).isEqualTo(16 * 65536);
        ThinStats s = sim.thinStats().get(0);
        assertThat(s.poolUsedBlocks()).isEqualTo(16);
        assertThat(s.lowWaterMarkReached()).isTrue();
        assertThat(s.outOfSpaceBios()).isEqualTo(1);
    }

    @Test
    void theLowWaterMarkFiresWhenFreeBlocksReachIt() {
        Simulation sim = Simulation.of(pool());
        sim.run(Script.parse("dd if=/dev/zero of=/dev/mapper/thin bs=64k count=11 oflag=direct"), TraceListener.NONE);
        // 16 - 11 = 5 free > 4: not yet
        assertThat(sim.thinStats().get(0).lowWaterMarkReached()).isFalse();
        sim.run(Script.parse("dd if=/dev/zero of=/dev/mapper/thin bs=64k count=1 seek=11 oflag=direct"),
                TraceListener.NONE);
        assertThat(sim.thinStats().get(0).lowWaterMarkReached()).isTrue();
    }

    @Test
    void sysfsWritesCheckTheAttributeBeforeTheValue() {
        Simulation sim = Simulation.of(pool());
        // a modelled attribute with a value the kernel's kstrtoul refuses: EINVAL, as echo reports it
        CommandResult bad = sim.execute(Script.parse("echo lots > /sys/block/sdb/queue/max_sectors_kb").commands()
                .get(0), TraceListener.NONE);
        assertThat(bad.exitStatus()).isEqualTo(1);
        assertThat(bad.message()).isEqualTo("echo: write error: Invalid argument");
        // an attribute the engine does not model is said to be so, whatever the value
        for (String line : List.of("echo noop > /sys/block/sdb/queue/scheduler",
                "echo 1 > /sys/block/sdb/queue/nomerges")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> sim.execute(Script.parse(line).commands().get(0),
                            TraceListener.NONE))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageStartingWith("the engine does not model writes to /sys/block/sdb/queue/");
        }
    }
}
