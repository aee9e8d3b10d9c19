package dev.dmmodel.impl.format.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.OpaqueTarget;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A host with a target the model does not implement imports: the plain dm-crypt device of
 * {@code crypt-plain-showkeys} (recorded on 6.12, its table as {@code --showkeys} prints it with a planted key).
 */
class OpaqueTargetSnapshotTest {

    private static final String KEY = "5ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7";

    private final HostSnapshot host = HostSnapshot.read(SnapshotTest.fixture("crypt-plain-showkeys"));
    private final Layout layout = Layout.of(host.toLayoutSpec());

    @Test
    void theCryptDeviceImportsWithTheLimitsTheKernelRecorded() {
        OpaqueTarget crypt = (OpaqueTarget) layout.dmDevices().get(0).table().targets().get(0);
        assertThat(crypt.type()).isEqualTo("crypt");
        // crypt_ctr's device argument 254:0 is vda; the key is zeros
        assertThat(crypt.devices()).containsExactly("vda");
        assertThat(crypt.args().get(1)).isEqualTo("0".repeat(64));
        // recorded dm-0: no discards and no write-zeroes (no allow_discards; vda has both), max_sectors_kb 1280
        QueueLimits dm = layout.limits("cplain");
        assertThat(crypt.limits()).contains(dm);
        assertThat(dm.maxDiscardSectors()).isZero();
        assertThat(dm.maxWriteZeroesSectors()).isZero();
        assertThat(dm.maxSectors()).isEqualTo(2560);
        assertThat(layout.limits("vda").maxDiscardSectors()).isEqualTo(2147483136L / 512);
    }

    @Test
    void checkNamesTheDeviceAndTheTarget() {
        List<Finding> f = layout.findings().stream().filter(x -> x.type() == FindingType.DM_TARGET_NOT_MODELLED)
                .toList();
        assertThat(f).hasSize(1);
        assertThat(f.get(0).id()).isEqualTo("dm.target.not-modelled");
        assertThat(f.get(0).device()).isEqualTo("dm-0");
        assertThat(f.get(0).message()).startsWith("dm-0 (cplain) has a crypt target, which the model does not"
                + " implement: its limits are the kernel's as recorded");
    }

    @Test
    void ioThroughItFailsWithOneMessageAndTheOtherDevicesStillTrace() {
        List<TraceEvent> events = new ArrayList<>();
        List<CommandResult> results = Simulation.of(layout).run(Script.parse("""
                dd if=/dev/zero of=/dev/mapper/cplain bs=4k count=1 oflag=direct
                dd if=/dev/zero of=/dev/vda bs=4k count=1 seek=16 oflag=direct
                """), events::add);
        assertThat(results.get(0).ok()).isFalse();
        assertThat(results.get(0).message()).isEqualTo("dm-0: I/O reached its crypt target, which the model does"
                + " not implement: I/O through dm-0 cannot be traced (every other device can)");
        // the second write: 8 sectors at 16 x 8 = 128 on vda, queued and issued
        assertThat(results.get(1).ok()).isTrue();
        assertThat(events).filteredOn(e -> e.device().equals("vda") && e.type() == EventType.BIO_QUEUE)
                .extracting(e -> e.sector() + "+" + e.nrSectors()).containsExactly("128+8");
        // the crypt device saw its bio arrive, and nothing went below it
        assertThat(events).filteredOn(e -> e.device().equals("dm-0") && e.type() == EventType.BIO_QUEUE)
                .extracting(e -> e.sector() + "+" + e.nrSectors()).containsExactly("0+8");
    }

    @Test
    void theKeyIsNowhereInWhatTheImportHolds() {
        assertThat(layout.dmsetupTable()).doesNotContain(KEY).contains("crypt aes-xts-plain64 " + "0".repeat(64)
                + " 0 254:0 0");
        assertThat(layout.toString()).doesNotContain(KEY);
        assertThat(host.toString()).doesNotContain(KEY);
        assertThat(host.toLayoutSpec().toString()).doesNotContain(KEY);
    }

    /**
     * Built by hand: an opaque target with the limits a kernel reported (max_sectors 256, io_opt 64 KiB) is a device
     * with exactly those limits, and dm-linear above it stacks on them as on any device.
     */
    @Test
    void recordedLimitsAreTheDevicesAndTheDevicesAboveStackOnThem() {
        QueueLimits reported = QueueLimits.builder().maxSectors(256).maxHwSectors(256).ioMin(4096).ioOpt(65536)
                .physicalBlockSize(4096).build();
        Layout l = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.sasDisk().withSize(Bytes.gib(1)))
                .dmsetupCreate("delayed", new DmTable(List.of(new OpaqueTarget(Sectors.ZERO, Sectors.of(2097152),
                        "delay", List.of("sda", "0", "100"), List.of(0), Optional.of(reported)))))
                .dmsetupCreate("top", t -> t.linear(Sectors.of(1 << 20), "delayed", Sectors.ZERO))
                .build();
        assertThat(l.limits("delayed")).isEqualTo(reported);
        // blk_stack_limits: min of max_sectors (256), max of io_min and io_opt
        assertThat(l.limits("top").maxSectors()).isEqualTo(256);
        assertThat(l.limits("top").ioOpt()).isEqualTo(65536);
    }
}
