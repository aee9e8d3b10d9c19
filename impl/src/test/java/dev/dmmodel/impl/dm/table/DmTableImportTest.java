package dev.dmmodel.impl.dm.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Bytes;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DmTableImportTest {

    /** Two 256 MiB SCSI disks, sda (8:0) and sdb (8:16), as the builder numbers them. */
    private static LayoutSpec twoDisks() {
        return new LayoutSpec(KernelProfile.LINUX_6_12, Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(256)))
                .disk("sdb", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(256)))
                .steps());
    }

    @Test
    void handWrittenTablesOnTheBuildersDisks() {
        String text = """
                top: 0 4096 linear /dev/mapper/span 0
                span: 0 2048 linear /dev/sda 2048
                span: 2048 2048 linear 8:16 2048
                str: 0 4096 striped 2 128 sda 8192 /dev/sdb 8192
                """;
        DmTables tables = DmTableParser.parse(text, "tables.txt");
        Layout layout = Layout.of(DmTableImport.addTo(twoDisks(), tables, "tables.txt"));
        // span (line 2) and str (line 4) need nothing of the text, top (line 1) needs span: span first, then of
        // top and str the one with the earlier line; so span is dm-0 (253:0), top dm-1, str dm-2
        assertThat(layout.dmDevices()).extracting(DmDevice::dmName).containsExactly("span", "top", "str");
        assertThat(layout.device("/dev/mapper/top").devNumber()).isEqualTo(new DevNumber(253, 1));
        assertThat(DmTableFormatter.tables(layout)).isEqualTo("""
                span: 0 2048 linear 8:0 2048
                span: 2048 2048 linear 8:16 2048
                str: 0 4096 striped 2 128 8:0 8192 8:16 8192
                top: 0 4096 linear 253:0 0
                """);
    }

    @Test
    void identitiesGiveUuidKernelNameAndNumber() {
        DmTables tables = DmTableParser.parse("a: 0 8 linear 8:0 0\nb: 0 8 linear 253:7 0\n", "t.txt",
                Map.of("a", new DevNumber(253, 7)));
        Layout layout = Layout.of(DmTableImport.addTo(twoDisks(), tables, Map.of("a",
                new DmTableImport.Identity("CRYPT-x", Optional.of("dm-7"), Optional.of(new DevNumber(253, 7)))),
                "t.txt"));
        DmDevice a = (DmDevice) layout.device("/dev/mapper/a");
        assertThat(a.name()).isEqualTo("dm-7");
        assertThat(a.uuid()).isEqualTo("CRYPT-x");
        assertThat(((DmDevice) layout.device("/dev/mapper/b")).table().devices()).containsExactly("dm-7");
    }

    @Test
    void theStepsGoBeforeTheFirstVolumeGroupImport() {
        LayoutSpec spec = twoDisks();
        DmTables tables = DmTableParser.parse("a: 0 8 zero\n", "t.txt");
        LayoutSpec with = DmTableImport.addTo(spec, tables, "t.txt");
        assertThat(with.steps()).hasSize(spec.steps().size() + 1);
        assertThat(with.steps().get(with.steps().size() - 1)).isInstanceOf(LayoutStep.DmCreate.class);
    }

    @Test
    void aDeviceNeitherOfTheLayoutNorOfTheTables() {
        DmTables tables = DmTableParser.parse("a: 0 8 zero\nb: 0 8 linear 8:32 0\n", "t.txt");
        DmTableException e = catchThrowableOfType(() -> DmTableImport.addTo(twoDisks(), tables, "t.txt"),
                DmTableException.class);
        assertThat(e).hasMessage("t.txt:2: found device 8:32 in the table of b, which is neither a device of the "
                + "layout nor of the tables; expected a device of the layout (sda 8:0, sdb 8:16) or of the tables");
    }
}
