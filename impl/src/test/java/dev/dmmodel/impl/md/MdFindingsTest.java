package dev.dmmodel.impl.md;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.MdArraySpec;
import dev.dmmodel.device.MdLevel;
import dev.dmmodel.device.MdMember;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Command;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a run says about md arrays, with the recordings' geometry (1 GiB members, data offset 4096). */
class MdFindingsTest {

    private static List<Finding> run(MdLevel level, int disks, long chunk, int layout, String... lines) {
        LayoutBuilder b = Layout.builder(KernelProfile.LINUX_6_12);
        List<MdMember> members = new ArrayList<>();
        for (int i = 0; i < disks; i++) {
            String name = "vd" + (char) ('a' + i);
            b.disk(name, DiskPresets.virtioBlk().toBuilder().maxSegments(1022).size(Bytes.gib(1)).build());
            members.add(new MdMember(name, i, Sectors.of(4096), Sectors.of(2_093_056)));
        }
        Simulation sim = Simulation.of(b.mdArray("md0", new MdArraySpec(level, disks, Sectors.of(chunk), layout,
                "1.2", members)).build());
        for (String l : lines) {
            assertThat(sim.execute(Command.parse(l), TraceListener.NONE).ok()).isTrue();
        }
        return sim.findings();
    }

    // md-raid5-4x64k-w4k-at0: one page of one stripe head; a reconstruct-write reads the two other data pages:
    // 2 pages for 4 KiB = 2 / (8 / 2048) = 512 pages per MiB; the members write the page and its parity: 16 sectors
    // for 8 (2.00 x); 4 KiB is below the 192 KiB data stripe, and a chunk fitting it would be 4 KiB (12 KiB stripe)
    @Test
    void aSmallRaid5WriteIsAPartialStripe() {
        List<Finding> f = run(MdLevel.RAID5, 4, 128, 2,
                "dd if=/dev/zero of=/dev/md0 bs=4k count=1 seek=0 oflag=direct,seek_bytes");
        assertThat(f).extracting(Finding::id).containsExactly("md.partial-stripe-writes", "md.write-amplification",
                "md.chunk-larger-than-writes");
        assertThat(f.get(0).message()).contains("of 1 stripe heads written, 1 needed a reconstruct-write and 0 a "
                + "read-modify-write; the members read 2 pages").contains("512.0 pages read per MiB");
        assertThat(f.get(1).message()).contains("(2.00 x)");
        assertThat(f.get(2).message()).contains("the largest of 1 writes was 4 KiB, smaller than the 192 KiB data "
                + "stripe (3 x 64 KiB chunks)");
        assertThat(f.get(2).fix()).contains("a chunk of 4 KiB would make a 12 KiB stripe");
    }

    // md-raid5-4x64k-w192k-at576k: one full stripe: no reads, data + parity = 4/3 of the data (1.33 x)
    @Test
    void aFullStripeWriteOnlyCostsItsParity() {
        List<Finding> f = run(MdLevel.RAID5, 4, 128, 2,
                "dd if=/dev/zero of=/dev/md0 bs=192k count=1 seek=589824 oflag=direct,seek_bytes");
        assertThat(f).extracting(Finding::id).containsExactly("md.write-amplification");
        assertThat(f.get(0).message()).contains("(1.33 x)");
    }

    // raid1 writes both mirrors (2.00 x); raid0 writes each sector once: nothing to say
    @Test
    void mirrorsDoubleWritesStripesDoNot() {
        assertThat(run(MdLevel.RAID1, 2, 0, 0, "dd if=/dev/zero of=/dev/md0 bs=1M count=1 oflag=direct"))
                .extracting(Finding::message).containsExactly("md0 (raid1): 1.00 MiB written to the array became 2.00 MiB"
                        + " at its members (2.00 x): every mirror gets each write");
        assertThat(run(MdLevel.RAID0, 4, 128, -1, "dd if=/dev/zero of=/dev/md0 bs=1M count=1 oflag=direct"))
                .isEmpty();
    }

    // raid10 near=2 on 5.10 (no chunk_sectors: raid10 splits at each chunk and resubmits the rest to itself): a
    // 1 MiB write is counted once, 2048 sectors, and written twice: 2.00 x, not less
    @Test
    void aRemainderResubmittedIsCountedOnce() {
        LayoutBuilder b = Layout.builder(KernelProfile.LINUX_5_10);
        List<MdMember> members = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String name = "vd" + (char) ('a' + i);
            b.disk(name, DiskPresets.virtioBlk().toBuilder().maxSegments(1022).size(Bytes.gib(1)).build());
            members.add(new MdMember(name, i, Sectors.of(4096), Sectors.of(2_093_056)));
        }
        Simulation sim = Simulation.of(b.mdArray("md0", new MdArraySpec(MdLevel.RAID10, 4, Sectors.of(128), 258,
                "1.2", members)).build());
        assertThat(sim.execute(Command.parse("dd if=/dev/zero of=/dev/md0 bs=1M count=1 oflag=direct"),
                TraceListener.NONE).ok()).isTrue();
        assertThat(sim.findings()).extracting(Finding::message).containsExactly("md0 (raid10): 1.00 MiB written to "
                + "the array became 2.00 MiB at its members (2.00 x): each chunk is written to each of its copies");
    }

    // md on partitions of 4 KiB-sector (512e) disks, one partition at 2048 and one at 63: member data starts at
    // disk sector 2048 + 4096 (aligned) and 63 + 4096 = 4159, 7 sectors past a 4 KiB boundary, i.e. 512 bytes before
    // the next: blk_stack_limits cannot reconcile 0 with 512 and marks the array misaligned (-1, as 5.10 reports it);
    // 6.12's blk_validate_limits then keeps the offset modulo the physical block: alignment_offset 512
    private static Layout mixedMembers(KernelProfile p) {
        LayoutBuilder b = Layout.builder(p);
        for (String d : List.of("sda", "sdb")) {
            b.disk(d, DiskPresets.ahciSata().toBuilder().physicalBlockSize(4096).size(Bytes.gib(2)).build());
        }
        b.partitionTable("sda", dev.dmmodel.device.PartitionTableType.MSDOS,
                dev.dmmodel.device.PartitionSpec.atToEnd(Sectors.of(2048)));
        b.partitionTable("sdb", dev.dmmodel.device.PartitionTableType.MSDOS,
                dev.dmmodel.device.PartitionSpec.atToEnd(Sectors.of(63)));
        return b.mdArray("md0", new MdArraySpec(MdLevel.RAID1, 2, Sectors.of(0), 0, "1.2", List.of(
                new MdMember("sda1", 0, Sectors.of(4096), Sectors.of(1_000_000)),
                new MdMember("sdb1", 1, Sectors.of(4096), Sectors.of(1_000_000))))).build();
    }

    @Test
    void membersAlignedDifferentlyMisalignTheArray() {
        Layout old = mixedMembers(KernelProfile.LINUX_5_10);
        assertThat(old.limits("md0").misaligned()).isTrue();
        assertThat(old.findings().stream().filter(f -> f.id().equals("align.device.misaligned")).findFirst()
                .orElseThrow().fix()).contains("member of the array");
        Layout now = mixedMembers(KernelProfile.LINUX_6_12);
        assertThat(now.limits("md0").alignmentOffset()).isEqualTo(512);
        assertThat(now.findings().stream().filter(f -> f.id().equals("align.device.offset")).findFirst()
                .orElseThrow().message()).startsWith("md0 reports alignment_offset 512");
    }
}
