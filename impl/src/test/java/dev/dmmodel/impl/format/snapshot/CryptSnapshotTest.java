package dev.dmmodel.impl.format.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.dm.CryptTarget;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.OpaqueTarget;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
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
 * A host with a dm-crypt device imports as one the model has: the plain dm-crypt device of
 * {@code crypt-plain-showkeys} (recorded on 6.12, {@code crypt-plain512-w4k-at1M}'s snapshot with its table as
 * {@code --showkeys} prints it with a planted key). And a target the model does not implement (dm-delay, built by
 * hand) is an {@link OpaqueTarget} with the kernel's limits, refusing I/O.
 */
class CryptSnapshotTest {

    private static final String KEY = "5ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7";

    private final HostSnapshot host = HostSnapshot.read(SnapshotTest.fixture("crypt-plain-showkeys"));
    private final Layout layout = Layout.of(host.toLayoutSpec());

    @Test
    void theCryptDeviceImportsWithComputedLimitsThatAreTheRecordedOnes() {
        CryptTarget crypt = (CryptTarget) layout.dmDevices().get(0).table().targets().get(0);
        // crypt_ctr's device argument 254:0 is vda; the key is zeros
        assertThat(crypt.devices()).containsExactly("vda");
        assertThat(crypt.key()).isEqualTo("0".repeat(64));
        assertThat(crypt.sectorSize()).isEqualTo(512);
        // recorded dm-0: no discards and no write-zeroes (no allow_discards; vda has both), max_sectors_kb 1280
        QueueLimits dm = layout.limits("cplain");
        assertThat(dm.maxDiscardSectors()).isZero();
        assertThat(dm.maxWriteZeroesSectors()).isZero();
        assertThat(dm.maxSectors()).isEqualTo(2560);
        assertThat(layout.limits("vda").maxDiscardSectors()).isEqualTo(2147483136L / 512);
    }

    @Test
    void checkHasNothingNotModelled() {
        assertThat(layout.findings()).noneMatch(x -> x.type() == FindingType.DM_TARGET_NOT_MODELLED);
    }

    @Test
    void ioThroughItIsSplitTo128KiBAndRemapped() {
        List<TraceEvent> events = new ArrayList<>();
        List<CommandResult> results = Simulation.of(layout).run(Script.parse("""
                dd if=/dev/zero of=/dev/mapper/cplain bs=4k count=1 seek=256 oflag=direct
                dd if=/dev/zero of=/dev/mapper/cplain bs=1M count=1 seek=65536 oflag=direct,seek_bytes
                """), events::add);
        assertThat(results).allMatch(CommandResult::ok);
        // the 4 KiB write at 256 x 8 = 2048: one piece, offset 0 on vda; the 1 MiB write at 64 KiB = sector 128:
        // get_max_request_size is 128 KiB = 256 sectors, counted from the bio's start: 8 pieces from 128, 384, ...
        assertThat(events).filteredOn(e -> e.device().equals("vda") && e.type() == EventType.BIO_REMAP)
                .extracting(e -> e.sector() + "+" + e.nrSectors() + " " + e.extra())
                .containsExactlyInAnyOrder("2048+8 from=dm-0:2048", "128+256 from=dm-0:128",
                        "384+256 from=dm-0:384", "640+256 from=dm-0:640", "896+256 from=dm-0:896",
                        "1152+256 from=dm-0:1152", "1408+256 from=dm-0:1408", "1664+256 from=dm-0:1664",
                        "1920+256 from=dm-0:1920");
        // dm core traces the 7 cuts at the crypt device, each at the rest's new start
        assertThat(events).filteredOn(e -> e.device().equals("dm-0") && e.type() == EventType.SPLIT)
                .extracting(TraceEvent::sector).containsExactly(384L, 640L, 896L, 1152L, 1408L, 1664L, 1920L);
    }

    @Test
    void theKeyIsNowhereInWhatTheImportHolds() {
        assertThat(layout.dmsetupTable()).doesNotContain(KEY).contains("crypt aes-xts-plain64 " + "0".repeat(64)
                + " 0 254:0 0");
        assertThat(layout.toString()).doesNotContain(KEY);
        assertThat(host.toString()).doesNotContain(KEY);
        assertThat(host.toLayoutSpec().toString()).doesNotContain(KEY);
    }

    @Test
    void ioThroughAnUnmodelledTargetFailsWithOneMessageAndTheOtherDevicesStillTrace() {
        Layout l = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.sasDisk().withSize(Bytes.gib(1)))
                .dmsetupCreate("delayed", new DmTable(List.of(new OpaqueTarget(Sectors.ZERO, Sectors.of(2097152),
                        "delay", List.of("sda", "0", "100"), List.of(0), Optional.empty()))))
                .build();
        List<TraceEvent> events = new ArrayList<>();
        List<CommandResult> results = Simulation.of(l).run(Script.parse("""
                dd if=/dev/zero of=/dev/mapper/delayed bs=4k count=1 oflag=direct
                dd if=/dev/zero of=/dev/sda bs=4k count=1 seek=16 oflag=direct
                """), events::add);
        assertThat(results.get(0).ok()).isFalse();
        assertThat(results.get(0).message()).contains("I/O reached its delay target, which the model does"
                + " not implement");
        // the second write: 8 sectors at 16 x 8 = 128 on sda, queued
        assertThat(results.get(1).ok()).isTrue();
        assertThat(events).filteredOn(e -> e.device().equals("sda") && e.type() == EventType.BIO_QUEUE)
                .extracting(e -> e.sector() + "+" + e.nrSectors()).containsExactly("128+8");
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
