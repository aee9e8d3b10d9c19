package dev.dmmodel.impl.format.layoutfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.RaidLvRequest;
import dev.dmmodel.units.Bytes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code raid} step of layout files: the lvmraid-* setup (README.txt) read, built, written and read back. */
class RaidLayoutFileTest {

    private static final String FILE = """
            version: 1
            kernel: 6.12
            steps:
              - disk: vda
                preset: virtio-blk
                size: 1GiB
              - disk: vdb
                preset: virtio-blk
                size: 1GiB
              - disk: vdc
                preset: virtio-blk
                size: 1GiB
              - pvcreate: vda
              - pvcreate: vdb
              - pvcreate: vdc
              - vgcreate: vgr
                pvs: [vda, vdb, vdc]
              - raid: r1
                vg: vgr
                type: raid1
                mirrors: 1
                size: 64MiB
                nosync: true
                pvs: [vda, vdb]
              - raid: r5
                vg: vgr
                type: raid5
                stripes: 2
                stripe_size: 64KiB
                size: 64MiB
                nosync: true
                pvs: [vda, vdb, vdc]
            """;

    @Test
    void theRaidStepsReadBuildAndWriteBack() {
        LayoutFile file = LayoutFileReader.read(FILE, "lvmraid.yaml");
        List<LayoutStep> steps = file.spec().steps();
        assertThat(steps.get(steps.size() - 1)).isEqualTo(new LayoutStep.RaidLvCreate("vgr", new RaidLvRequest("r5",
                "raid5", Bytes.mib(64), 0, 0, 2, Bytes.kib(64), null, true, AllocationPolicy.INHERIT,
                List.of("vda", "vdb", "vdc"))));
        Layout layout = Layout.of(file.spec());
        // the recorded r1 table (lvmraid-*/snapshot/dmsetup-table.txt)
        assertThat(layout.dmsetupTable()).contains("vgr-r1: 0 131072 raid raid1 4 0 nosync region_size 4096 2 253:0 "
                + "253:1 253:2 253:3\n");
        String written = LayoutFileWriter.write(file.spec());
        assertThat(written).contains("raid: r5").contains("type: raid5").contains("stripe_size: 64KiB");
        assertThat(LayoutFileReader.read(written, "written.yaml").spec()).isEqualTo(file.spec());
    }

    @Test
    void unknownKeysAndTypesAreRefused() {
        assertThatThrownBy(() -> LayoutFileReader.read(FILE.replace("type: raid1", "type: raid10"), "t.yaml"))
                .isInstanceOf(LayoutFileException.class);
        assertThatThrownBy(() -> LayoutFileReader.read(FILE.replace("mirrors: 1", "copies: 1"), "t.yaml"))
                .isInstanceOf(LayoutFileException.class).hasMessageContaining("copies");
    }
}
