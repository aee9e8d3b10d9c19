package dev.dmmodel.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.VolumeGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A generated large host (small here: 20 disks, 200 LVs) imports whole, as LargeHostImport measures it. */
class LargeHostsTest {

    @TempDir
    Path tmp;

    @Test
    void diskNamesAndNumbersAreTheKernels() {
        assertThat(LargeHosts.sdName(0)).isEqualTo("sda");
        assertThat(LargeHosts.sdName(25)).isEqualTo("sdz");
        assertThat(LargeHosts.sdName(26)).isEqualTo("sdaa");
        assertThat(LargeHosts.sdName(701)).isEqualTo("sdzz");
        assertThat(LargeHosts.sdName(702)).isEqualTo("sdaaa");
        assertThat(LargeHosts.sdDev(0)).isEqualTo("8:0");
        assertThat(LargeHosts.sdDev(1)).isEqualTo("8:16");
        assertThat(LargeHosts.sdDev(16)).isEqualTo("65:0");
        assertThat(LargeHosts.sdDev(128)).isEqualTo("128:0");
        assertThat(LargeHosts.sdDev(255)).isEqualTo("135:240");
        assertThat(LargeHosts.sdDev(256)).isEqualTo("8:256");
        assertThat(LargeHosts.sdDev(999)).isEqualTo("134:880");
    }

    @Test
    void theSnapshotImportsWithEveryDeviceLimitAndFinding() throws IOException {
        Path dir = tmp.resolve("host");
        LargeHosts.Host host = LargeHosts.write(dir, new LargeHosts.Shape(20, 200, 2, true));
        assertThat(host.linearLvs()).hasSize(100);
        assertThat(host.thinLvs()).hasSize(100);
        assertThat(host.pools()).hasSize(2);
        // per pool: _tmeta, _tdata, -tpool, the pool's own device
        assertThat(host.dmDevices()).isEqualTo(200 + 2 * 4);

        HostSnapshot snapshot = HostSnapshot.read(dir);
        assertThat(snapshot.lvmProblems()).isEmpty();
        assertThat(snapshot.filledIn()).isEmpty();
        Layout layout = Layout.of(snapshot.toLayoutSpec());

        assertThat(layout.disks()).hasSize(20);
        assertThat(layout.partitions()).isEmpty();
        assertThat(layout.dmDevices()).hasSize(208);
        assertThat(layout.physicalVolumes()).hasSize(20);
        assertThat(layout.volumeGroups()).extracting(VolumeGroup::name).containsExactly("vg00", "vg01");
        for (String lv : host.linearLvs()) {
            assertThat(layout.limits("/dev/" + lv).logicalBlockSize()).as(lv).isEqualTo(512);
            String[] vgLv = lv.split("/");
            assertThat(layout.logicalVolume(vgLv[0], vgLv[1]).map(LogicalVolume::isActive)).as(lv).contains(true);
        }
        for (String lv : host.thinLvs()) {
            DmDevice d = (DmDevice) layout.device("/dev/" + lv);
            assertThat(d.table().targets()).singleElement().isInstanceOf(ThinTarget.class);
            // a thin LV's limits come from its pool's chunk, 1 MiB
            assertThat(layout.limits(lv).ioOpt()).as(lv).isEqualTo(1 << 20);
        }
        for (Map.Entry<String, List<String>> pool : host.pools().entrySet()) {
            DmDevice tpool = (DmDevice) layout.device("/dev/mapper/" + pool.getKey().replace('/', '-') + "-tpool");
            assertThat(tpool.table().targets()).singleElement().isInstanceOf(ThinPoolTarget.class);
            List<String> thins = layout.dmDevices().stream()
                    .filter(d -> d.table().targets().stream().anyMatch(t -> t instanceof ThinTarget))
                    .filter(d -> d.table().devices().contains(tpool.name()))
                    .map(d -> d.dmName().replaceFirst("-", "/")).sorted().toList();
            assertThat(thins).as(pool.getKey()).isEqualTo(pool.getValue().stream().sorted().toList());
        }
        // every device has its limits
        for (var d : layout.devices()) {
            assertThat(layout.limits(d.name())).as(d.name()).isNotNull();
        }
        List<Finding> findings = layout.findings();
        assertThat(findings).isNotNull();
        assertThat(layout.findings()).isSameAs(findings);
        Map<FindingType, Long> types = findings.stream().collect(Collectors.groupingBy(Finding::type,
                Collectors.counting()));
        assertThat(types).doesNotContainKeys(FindingType.DM_TARGET_NOT_MODELLED, FindingType.DEVICE_NOT_MODELLED);
    }

    @Test
    void theSameShapeGivesTheSameFiles() throws IOException {
        LargeHosts.Shape shape = new LargeHosts.Shape(4, 30, 2, false);
        LargeHosts.write(tmp.resolve("a"), shape);
        LargeHosts.write(tmp.resolve("b"), shape);
        for (String f : List.of("dmsetup-table.txt", "dmsetup-status.txt", "lvm/vg00.vg", "lvm/vg01.vg",
                "block/dm-3/dm/uuid")) {
            assertThat(Files.readString(tmp.resolve("b").resolve(f))).as(f)
                    .isEqualTo(Files.readString(tmp.resolve("a").resolve(f)));
        }
        assertThat(Files.exists(tmp.resolve("a/block/dm-0/queue"))).isFalse();
    }
}
