package dev.dmmodel.impl.engine;

import static dev.dmmodel.impl.engine.EngineTestSupport.of;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DiscardTest {

    @Test
    void aDiscardOnAStripedDeviceGoesOnceToEachStripe() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.ahciSataSsd().withSize(Bytes.gib(1)))
                .disk("sdb", DiskPresets.ahciSataSsd().withSize(Bytes.gib(1)))
                .dmsetupCreate("str", t -> t.striped(Sectors.of(262144), 128, List.of(
                        new StripedTarget.Stripe("sda", Sectors.ZERO), new StripedTarget.Stripe("sdb", Sectors.ZERO))))
                .build();
        List<TraceEvent> ev = new ArrayList<>();
        var r = Simulation.of(layout).execute(Script.parse("blkdiscard -o 32768 -l 524288 /dev/mapper/str").commands()
                .get(0), ev::add);
        assertThat(r.ok()).isTrue();
        // LV sectors 64..1088: chunks 0..8 alternate sda, sdb. stripe_map_range: sda gets rows 0..4
        // (sectors 64..128 of chunk 0, whole chunks 2, 4, 6, and chunk 8's first 64) = device 64..576;
        // sdb gets chunks 1, 3, 5, 7 = device 0..512
        assertThat(of(ev, "sda", EventType.BIO_QUEUE)).containsExactly("64+512");
        assertThat(of(ev, "sdb", EventType.BIO_QUEUE)).containsExactly("0+512");
    }
}
