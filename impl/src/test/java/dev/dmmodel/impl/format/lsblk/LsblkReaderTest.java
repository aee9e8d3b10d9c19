package dev.dmmodel.impl.format.lsblk;

import dev.dmmodel.io.LsblkImport;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.impl.format.json.JsonException;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sectors;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Fixtures written by hand from the sysfs values recorded in
 * {@code shared/kernel-traces/lp-raid-part63-4M-lv-direct64k/snapshot/block/} (Debian 12, util-linux 2.38.1):
 * {@code sda} 8388608 sectors, logical/physical 512, minimum_io_size 65536, optimal_io_size 458752,
 * alignment_offset 0, discard_granularity 4096, discard_max_bytes 1073741824, rotational 1, read_ahead_kb 896,
 * nr_requests 256, scheduler none; {@code sda1} at sector 63, 8388545 sectors, alignment_offset 33280;
 * {@code dm-0} ({@code vg-lv}, 253:0) 2097152 sectors. {@code lp-raid-part63-2.38.json} is what
 * {@code lsblk --json --bytes --output-all} prints there (numbers and booleans bare, {@code start});
 * {@code lp-raid-part63-2.32.json} the same as util-linux before 2.33 prints it (every value a string, no
 * {@code start}).
 */
class LsblkReaderTest {

    static String resource(String name) {
        try (InputStream in = LsblkReaderTest.class.getResourceAsStream("/lsblk/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource lsblk/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void assertSda(LayoutStep step) {
        assertThat(step).isInstanceOf(LayoutStep.AddDisk.class);
        LayoutStep.AddDisk disk = (LayoutStep.AddDisk) step;
        assertThat(disk.name()).isEqualTo("sda");
        assertThat(disk.devNumber()).contains(new DevNumber(8, 0));
        DiskSpec spec = disk.spec();
        assertThat(spec.driver()).isEqualTo(DiskDriver.SD);
        assertThat(spec.size()).isEqualTo(Sectors.of(8_388_608)); // 4294967296 bytes / 512
        QueueLimits l = spec.limits();
        assertThat(l.logicalBlockSize()).isEqualTo(512);
        assertThat(l.physicalBlockSize()).isEqualTo(512);
        assertThat(l.ioMin()).isEqualTo(65_536);
        assertThat(l.ioOpt()).isEqualTo(458_752);
        assertThat(l.alignmentOffset()).isZero();
        assertThat(l.misaligned()).isFalse();
        assertThat(l.discardGranularity()).isEqualTo(4096);
        assertThat(l.maxDiscardSectors()).isEqualTo(2_097_152); // 1073741824 bytes / 512
        assertThat(l.maxHwDiscardSectors()).isEqualTo(2_097_152);
        assertThat(l.rotational()).isTrue();
        assertThat(spec.readAheadKb()).isEqualTo(896);
        assertThat(spec.maxSectors()).isZero(); // lsblk shows no max_sectors_kb: left for the kernel profile
    }

    @Test
    void util238GivesDiskPartitionAndAPendingDmDevice() {
        LsblkImport imp = LsblkReader.read(resource("lp-raid-part63-2.38.json"), "lsblk.json");
        assertThat(imp.problems()).isEmpty();
        assertThat(imp.steps()).hasSize(2);
        assertSda(imp.steps().get(0));
        assertThat(imp.steps().get(1)).isEqualTo(new LayoutStep.AddPartition("sda", 1, Sectors.of(63),
                Sectors.of(8_388_545), Optional.of("sda1"), Optional.of(new DevNumber(8, 1))));
        assertThat(imp.dmDevices()).containsExactly(new LsblkImport.PendingDm("vg-lv", "dm-0", new DevNumber(253, 0),
                Sectors.of(2_097_152), "lvm"));
    }

    @Test
    void util232StringsWithoutStartLeaveThePartitionOutWithAProblem() {
        LsblkImport imp = LsblkReader.read(resource("lp-raid-part63-2.32.json"), "old.json");
        assertThat(imp.steps()).hasSize(1);
        assertSda(imp.steps().get(0));
        assertThat(imp.problems()).singleElement().asString()
                .startsWith("old.json:")
                .contains("partition sda1 has no \"start\" (util-linux before 2.38 does not print it)")
                .contains("collect a snapshot");
        // the dm device under the left-out partition is still listed
        assertThat(imp.dmDevices()).extracting(LsblkImport.PendingDm::kname).containsExactly("dm-0");
    }

    @Test
    void aDmDeviceOnTwoParentsIsListedOnce() {
        String json = """
                {"blockdevices": [
                  {"name":"sda", "kname":"sda", "maj:min":"8:0", "size":1073741824, "type":"disk",
                   "children": [{"name":"vg-s", "kname":"dm-0", "maj:min":"253:0", "size":2097152, "type":"lvm"}]},
                  {"name":"sdb", "kname":"sdb", "maj:min":"8:16", "size":1073741824, "type":"disk",
                   "children": [{"name":"vg-s", "kname":"dm-0", "maj:min":"253:0", "size":2097152, "type":"lvm"}]}
                ]}
                """;
        LsblkImport imp = LsblkReader.read(json, "two");
        assertThat(imp.steps()).extracting(s -> ((LayoutStep.AddDisk) s).name()).containsExactly("sda", "sdb");
        assertThat(imp.dmDevices()).singleElement().satisfies(d -> assertThat(d.size()).isEqualTo(Sectors.of(4096)));
        assertThat(imp.problems()).isEmpty();
    }

    @Test
    void listFormWithPknameAndPartn() {
        String json = """
                {"blockdevices": [
                  {"name":"nvme0n1", "kname":"nvme0n1", "maj:min":"259:0", "size":512110190592, "type":"disk",
                   "log-sec":4096, "phy-sec":4096, "alignment":-1, "rota":false},
                  {"name":"nvme0n1p2", "kname":"nvme0n1p2", "maj:min":"259:2", "size":1048576, "type":"part",
                   "pkname":"nvme0n1", "start":2048, "partn":2}
                ]}
                """;
        LsblkImport imp = LsblkReader.read(json, "nvme");
        assertThat(imp.problems()).isEmpty();
        LayoutStep.AddDisk disk = (LayoutStep.AddDisk) imp.steps().get(0);
        assertThat(disk.spec().driver()).isEqualTo(DiskDriver.NVME);
        assertThat(disk.spec().limits().logicalBlockSize()).isEqualTo(4096);
        assertThat(disk.spec().limits().misaligned()).isTrue();
        assertThat(disk.spec().size()).isEqualTo(Sectors.of(1_000_215_216)); // 512110190592 / 512
        assertThat(imp.steps().get(1)).isEqualTo(new LayoutStep.AddPartition("nvme0n1", 2, Sectors.of(2048),
                Sectors.of(2048), Optional.of("nvme0n1p2"), Optional.of(new DevNumber(259, 2))));
    }

    @Test
    void deviceProblemsAreListedWithTheirPlace() {
        String json = """
                {"blockdevices": [
                  {"name":"sda", "kname":"sda", "maj:min":"8:0", "size":"1G", "type":"disk"},
                  {"name":"md0", "kname":"md0", "maj:min":"9:0", "size":1048576, "type":"raid1"},
                  {"name":"sdc", "kname":"sdc", "maj:min":"8:32", "size":1000, "type":"disk"},
                  {"name":"sdd", "kname":"sdd", "maj:min":"8:48", "size":1048576, "type":"disk", "log-sec":1000}
                ]}
                """;
        LsblkImport imp = LsblkReader.read(json, "p");
        assertThat(imp.steps()).isEmpty();
        // sdd: a logical block size must be a power of two of at least 512 bytes (the kernel's
        // blk_validate_block_size); 1000 is neither, and it is the first field checked
        assertThat(imp.problems()).containsExactly(
                "p:2:57: sda: found the string \"1G\" for \"size\"; expected a whole number (run lsblk with --bytes)",
                "p:3:73: device md0 of type \"raid1\" is not modelled (expected disk, loop, part or a dm device)",
                "p:4:58: sdc: \"size\" 1000 bytes is not a whole number of 512-byte sectors",
                "p:5:3: sdd: limits that are not valid (queue limit logicalBlockSize (1000) must be a power of two"
                        + " of at least 512 bytes)");
    }

    @Test
    void aNegativeStartIsAProblem() {
        String json = """
                {"blockdevices": [
                  {"name":"sda", "kname":"sda", "maj:min":"8:0", "size":1048576, "type":"disk", "children": [
                    {"name":"sda1", "kname":"sda1", "maj:min":"8:1", "size":512, "type":"part", "start":-1}]}
                ]}
                """;
        assertThat(LsblkReader.read(json, "n").problems()).singleElement().asString()
                .endsWith("partition sda1: \"start\" -1 is negative");
    }

    @Test
    void malformedTextThrowsJsonException() {
        assertThatThrownBy(() -> LsblkReader.read("{\"blockdevices\": [", "x.json"))
                .isInstanceOf(JsonException.class).hasMessage("x.json:1:19: found the end of the text; expected a "
                        + "JSON value");
        assertThatThrownBy(() -> LsblkReader.read("{\"devices\": []}", "x.json"))
                .isInstanceOf(JsonException.class).hasMessage("x.json:1:1: found no \"blockdevices\" member; expected "
                        + "{\"blockdevices\": [...]} as lsblk --json prints");
        assertThatThrownBy(() -> LsblkReader.read("{\"blockdevices\": [1]}", "x.json"))
                .isInstanceOf(JsonException.class).hasMessage("x.json:1:19: found the number 1; expected a device object");
    }
}
