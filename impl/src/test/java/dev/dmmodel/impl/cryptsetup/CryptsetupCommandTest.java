package dev.dmmodel.impl.cryptsetup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.plan.Plan;
import dev.dmmodel.plan.PlanException;
import dev.dmmodel.plan.PlanResult;
import dev.dmmodel.units.Bytes;
import org.junit.jupiter.api.Test;

/** cryptsetup in a plan, against the 6.12 dm-crypt recordings (kernel-traces-6.12-stacks/crypt-*). */
class CryptsetupCommandTest {

    /** The recorded host: a 1 GiB virtio-blk disk, PV of vgc, LV vgc/lv of 256 MiB. */
    private static LayoutSpec host() {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("vdb", DiskPresets.virtioBlk().withSize(Bytes.gib(1)))
                .build().spec().orElseThrow();
    }

    private static final String LVM = "pvcreate /dev/vdb\nvgcreate vgc /dev/vdb\nlvcreate -L 256M -n lv vgc\n";

    private static String cryptLine(PlanResult r) {
        return r.layout().dmsetupTable().lines().filter(l -> l.startsWith("cluks:")).findFirst().orElseThrow()
                .replaceAll(":64:logon:\\S+", "KEY");
    }

    @Test
    void luks2With4kSectorsIsTheRecordedTable() {
        // crypt-luks4k-lv-*: "cluks: 0 491520 crypt aes-xts-plain64 KEY 0 253:0 32768 1 sector_size:4096"
        // 256 MiB = 524288 sectors less the 16 MiB header (32768) = 491520
        PlanResult r = Plan.parse(LVM + """
                cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --hash sha256 \\
                    --cipher aes-xts-plain64 --key-size 512 --sector-size 4096 --key-file /tmp/key.bin /dev/vgc/lv
                cryptsetup open --type luks2 --key-file /tmp/key.bin /dev/vgc/lv cluks
                """, "luks.sh").applyTo(host());
        assertThat(r.failure()).isEmpty();
        assertThat(cryptLine(r)).isEqualTo("cluks: 0 491520 crypt aes-xts-plain64 KEY 0 253:0 32768 1 sector_size:4096");
        assertThat(r.entries().get(3).results()).containsExactly(
                "/dev/vgc/lv: LUKS2 header, data offset 32768s, encryption sector size 4096");
    }

    @Test
    void luks2With512SectorsAndDiscardsIsTheRecordedTable() {
        // crypt-luks512-lv-dis-*: "cluks: 0 491520 crypt aes-xts-plain64 KEY 0 253:0 32768 1 allow_discards"
        PlanResult r = Plan.parse(LVM + """
                cryptsetup luksFormat -q --sector-size 512 /dev/vgc/lv /tmp/key.bin
                cryptsetup open --allow-discards --key-file /tmp/key.bin /dev/vgc/lv cluks
                """, "luks.sh").applyTo(host());
        assertThat(cryptLine(r)).isEqualTo("cluks: 0 491520 crypt aes-xts-plain64 KEY 0 253:0 32768 1 allow_discards");
    }

    @Test
    void theDefaultSectorSizeAndOffsetFollowTheDevice() {
        // no --sector-size: a 4Kn disk's physical 4096 gives 4096; io_opt 448 KiB is no divisor of 1 MiB, so the
        // data starts at the 16 MiB header rounded up to 448 KiB: ceil(16384 / 448) = 37 x 448 KiB = 16576 KiB
        // = 33152 sectors
        LayoutSpec raid = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(1)))
                .build().spec().orElseThrow();
        PlanResult r = Plan.parse("cryptsetup luksFormat -q /dev/sda\n", "x.sh").applyTo(raid);
        assertThat(r.entries().get(0).results().get(0)).startsWith("/dev/sda: LUKS2 header, data offset 33152s, "
                + "encryption sector size 512");
        LayoutSpec fourKn = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("nvme0n1", DiskPresets.nvmeSsd().toBuilder().logicalBlockSize(4096).physicalBlockSize(4096)
                        .build().withSize(Bytes.gib(1)))
                .build().spec().orElseThrow();
        r = Plan.parse("cryptsetup luksFormat -q /dev/nvme0n1\n", "x.sh").applyTo(fourKn);
        assertThat(r.entries().get(0).results().get(0)).isEqualTo("/dev/nvme0n1: LUKS2 header, data offset "
                + "32768s, encryption sector size 4096 (from the device's physical_block_size 4096)");
    }

    @Test
    void openingWhatWasNotFormattedFailsAndKeysNeverShow() {
        PlanResult r = Plan.parse(LVM + "cryptsetup open /dev/vgc/lv cluks\n", "x.sh").applyTo(host());
        assertThat(r.failure().orElseThrow().toString()).isEqualTo("x.sh:4: cryptsetup: Device /dev/vgc/lv is not a "
                + "valid LUKS device (no luksFormat of it earlier in the plan).");
        PlanResult plain = Plan.parse(LVM + "cryptsetup open --type plain --key-size 512 --cipher aes-xts-plain64 "
                + "--key-file /tmp/k /dev/vgc/lv cplain\n", "x.sh").applyTo(host());
        // the key file is never read: the table holds the key as dmsetup table prints it without --showkeys, as
        // zeros (512 bits = 128 hex digits); plain mode maps from sector 0 with 512-byte sectors
        assertThat(plain.layout().dmsetupTable().lines().findFirst().orElseThrow())
                .isEqualTo("cplain: 0 524288 crypt aes-xts-plain64 " + "0".repeat(128) + " 0 253:0 0");
        assertThatThrownBy(() -> Plan.parse("cryptsetup luksFormat --sector-size 1000 /dev/sda\n", "x.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessage("x.sh:1:1: cryptsetup --sector-size 1000: Unsupported encryption sector size.");
    }
}
