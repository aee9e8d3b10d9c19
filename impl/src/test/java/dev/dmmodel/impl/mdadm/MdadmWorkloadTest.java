package dev.dmmodel.impl.mdadm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.MdLevel;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.WorkloadParseException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code mdadm --create} as a workload line, as the md-raid scenario's README gives it. */
class MdadmWorkloadTest {

    static final String CREATE = "mdadm --create /dev/md0 --run --metadata=1.2 --homehost=oracle --level=5 "
            + "--raid-devices=4 --chunk=64 --layout=left-symmetric --assume-clean --bitmap=none /dev/vda /dev/vdb "
            + "/dev/vdc /dev/vdd";

    @Test
    void theScenariosLineParses() {
        Command.MdadmCreate c = (Command.MdadmCreate) Command.parse(CREATE);
        assertThat(c.request().name()).isEqualTo("/dev/md0");
        assertThat(c.request().level()).isEqualTo(MdLevel.RAID5);
        assertThat(c.request().devices()).containsExactly("/dev/vda", "/dev/vdb", "/dev/vdc", "/dev/vdd");
        assertThat(c.request().chunk()).contains(Bytes.kib(64)); // a bare number is KiB
        assertThat(c.request().layout()).contains("left-symmetric");
        assertThat(c.request().assumeClean()).isTrue();
        assertThatThrownBy(() -> Command.parse("mdadm --create /dev/md0 --level=1 --raid-devices=2 /dev/vda"))
                .isInstanceOf(WorkloadParseException.class)
                .hasMessageContaining("You have listed 1 devices (/dev/vda) but have specified 2 raid-devices");
        assertThatThrownBy(() -> Command.parse("mdadm --stop /dev/md0")).isInstanceOf(WorkloadParseException.class);
    }

    // md-raid5-4x64k-w4k-at0 on a fresh array: 4 KiB at 0 reads the same page of the two other data disks (vdb, vdc
    // at 4096 = data offset), writes data (vda) and parity (vdd: row 0's parity disk in left-symmetric)
    @Test
    void anArrayCreatedByTheWorkloadTakesItsIo() {
        LayoutBuilder b = Layout.builder(KernelProfile.LINUX_6_12);
        for (String d : List.of("vda", "vdb", "vdc", "vdd")) {
            b.disk(d, DiskPresets.virtioBlk().withSize(Bytes.gib(1)));
        }
        Simulation sim = Simulation.of(b.build());
        List<TraceEvent> events = new ArrayList<>();
        for (String l : List.of(CREATE, "dd if=/dev/zero of=/dev/md0 bs=4k count=1 seek=0 oflag=direct,seek_bytes")) {
            CommandResult r = sim.execute(Command.parse(l), events::add);
            assertThat(r.ok()).as(r.message()).isTrue();
        }
        assertThat(events).filteredOn(e -> e.type() == EventType.BIO_REMAP)
                .extracting(e -> e.device() + " " + e.rwbs() + " " + e.sector() + " " + e.extra())
                .containsExactlyInAnyOrder("vdb R 4096 from=md0:128", "vdc R 4096 from=md0:256",
                        "vda WS 4096 from=md0:0", "vdd WS 4096 from=md0:0");
        assertThat(sim.layout().device("md0").size().count()).isEqualTo(6_279_168);
        CommandResult again = sim.execute(Command.parse(CREATE), e -> { });
        assertThat(again.ok()).isFalse();
        assertThat(again.message()).isEqualTo("mdadm: /dev/md0 is already in use.");
    }
}
