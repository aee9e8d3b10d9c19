package dev.dmmodel.impl.mdadm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.MdArraySpec;
import dev.dmmodel.device.MdDevice;
import dev.dmmodel.device.MdLevel;
import dev.dmmodel.device.MdMember;
import dev.dmmodel.device.MdadmCreateRequest;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Bytes;
import org.junit.jupiter.api.Test;

/**
 * mdadm --create's defaults against the recordings (kernel-traces-6.12-stacks/md-*: mdadm 4.2, four 1 GiB = 2097152
 * sector virtio disks; every recorded member has md/dev-X/offset 4096 and size 1046528 KiB = 2093056 sectors).
 */
class MdadmCreateTest {

    private static LayoutBuilder disks(int n) {
        LayoutBuilder b = Layout.builder(KernelProfile.LINUX_6_12);
        for (int i = 0; i < n; i++) {
            b.disk("vd" + (char) ('a' + i), DiskPresets.virtioBlk().withSize(Bytes.gib(1)));
        }
        return b;
    }

    // 1 GiB, 64 KiB chunk: bitmap space 4 KiB (8 sectors: not over 8 GiB); headroom halves from 128 MiB while
    // 1024 x headroom exceeds the disk and half of it is at least 4 chunks: 262144 -> ... -> 2048 (2048 x 1024 =
    // 2097152, no longer more); 24 + 8 + 2048 = 2080 rounded up to 1 MiB = 4096. Free 2097152 - 4096 = 2093056, a
    // multiple of the 128-sector chunk: the recorded offset and size
    @Test
    void theRecordedRaid5() {
        MdDevice md = disks(4).mdadmCreate(MdadmCreateRequest.of("/dev/md0", MdLevel.RAID5, "vda", "vdb", "vdc", "vdd")
                .withChunk(Bytes.kib(64)).withLayout("left-symmetric").withAssumeClean()).build().mdDevices().get(0);
        MdArraySpec s = md.spec();
        assertThat(md.name()).isEqualTo("md0");
        assertThat(s.layout()).isEqualTo(2);
        assertThat(s.chunk().count()).isEqualTo(128);
        assertThat(s.members()).extracting(MdMember::dataOffset).allMatch(o -> o.count() == 4096);
        assertThat(s.members()).extracting(MdMember::dataSize).allMatch(o -> o.count() == 2_093_056);
        assertThat(md.size().count()).isEqualTo(6_279_168); // recorded md0 size
    }

    // raid1 has no chunk (the headroom loop runs to 2048 too); raid10's default layout is n2 = 258; the default
    // chunk is 512 KiB: half the headroom must stay >= 2048, which 2048 / 2 = 1024 is not, so it stops at 2048 too,
    // and 2093056 is a multiple of 1024
    @Test
    void defaults() {
        MdArraySpec r1 = disks(2).mdadmCreate(MdadmCreateRequest.of("md0", MdLevel.RAID1, "vda", "vdb")).build()
                .mdDevices().get(0).spec();
        assertThat(r1.chunk().count()).isZero();
        assertThat(r1.members().get(1).dataSize().count()).isEqualTo(2_093_056);
        MdArraySpec r10 = disks(4).mdadmCreate(MdadmCreateRequest.of("md1", MdLevel.RAID10, "vda", "vdb", "vdc", "vdd"))
                .build().mdDevices().get(0).spec();
        assertThat(r10.layout()).isEqualTo(258);
        assertThat(r10.chunk().count()).isEqualTo(1024);
        assertThat(r10.members().get(0).dataOffset().count()).isEqualTo(4096);
        assertThat(disks(4).mdadmCreate(MdadmCreateRequest.of("md0", MdLevel.RAID10, "vda", "vdb", "vdc", "vdd")
                .withLayout("f2")).build().mdDevices().get(0).spec().layout()).isEqualTo(0x201);
    }

    // a 200 GB member (390625000 sectors): bitmap space 64 KiB (over 8 GiB, under 200 GiB), headroom stays 128 MiB
    // (1024 x 262144 <= 390625000): 24 + 128 + 262144 = 262296 -> 264192 (129 MiB)
    @Test
    void aLargeMemberKeepsTheFullHeadroom() {
        assertThat(MdadmCreate.dataOffset("1.2", 390_625_000L, 128)).isEqualTo(264_192);
        assertThat(MdadmCreate.chooseBmSpace(390_625_000L)).isEqualTo(128);
        assertThat(MdadmCreate.chooseBmSpace(500L * 1024 * 1024 * 2)).isEqualTo(256);
    }

    // 0.90: the superblock in the last 64 KiB-aligned 64 KiB: (2097152 & ~127) - 128 = 2097024 from sector 0;
    // 1.0: at the end, (2097152 & ~7) - (16 + 8 + 8) = 2097120
    @Test
    void metadataAtTheEnd() {
        MdArraySpec v090 = disks(2).mdadmCreate(MdadmCreateRequest.of("md0", MdLevel.RAID1, "vda", "vdb")
                .withMetadata("0.90")).build().mdDevices().get(0).spec();
        assertThat(v090.members().get(0).dataOffset().count()).isZero();
        assertThat(v090.members().get(0).dataSize().count()).isEqualTo(2_097_024 / 128 * 128);
        assertThat(MdadmCreate.freeSize("1.0", 2_097_152, 0)).isEqualTo(2_097_120);
    }

    // a slot left empty ("missing") makes a degraded array; mdadm's refusals in its words
    @Test
    void missingAndRefused() {
        MdArraySpec s = disks(2).mdadmCreate(MdadmCreateRequest.of("md0", MdLevel.RAID5, "vda", "vdb", "missing"))
                .build().mdDevices().get(0).spec();
        assertThat(s.raidDisks()).isEqualTo(3);
        assertThat(s.complete()).isFalse();
        assertThatThrownBy(() -> disks(2).mdadmCreate(MdadmCreateRequest.of("md0", MdLevel.RAID1, "vda", "vdb")
                .withChunk(Bytes.kib(64))).build()).isInstanceOf(LayoutException.class)
                .hasMessageContaining("specifying chunk size is forbidden for this level");
        assertThatThrownBy(() -> disks(3).mdadmCreate(MdadmCreateRequest.of("md0", MdLevel.RAID5, "vda", "vdb", "vdc")
                .withLayout("sideways")).build()).hasMessageContaining("layout sideways not understood for raid5");
        assertThatThrownBy(() -> disks(2).mdadmCreate(MdadmCreateRequest.of("/dev/md/home", MdLevel.RAID1, "vda",
                "vdb")).build()).hasMessageContaining("/dev/md/home is not an md device name");
    }
}
