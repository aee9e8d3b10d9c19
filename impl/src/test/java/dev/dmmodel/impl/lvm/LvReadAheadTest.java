package dev.dmmodel.impl.lvm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.units.Bytes;
import org.junit.jupiter.api.Test;

/**
 * LVM's {@code read_ahead auto} ({@code dev_manager.c: _add_new_lv_to_dtree}, {@code lv_calculate_readahead}) on
 * top of the kernel's read-ahead, which libdm only raises ({@code DM_READ_AHEAD_MINIMUM_FLAG}).
 */
class LvReadAheadTest {

    /**
     * Under 7.2 a qemu AHCI disk (rotational, no io_opt, max_sectors_kb 4096) reads ahead 2 x 4096 = 8192 KiB
     * (16384 sectors). A thin pool of 1 MiB chunks has io_opt 1 MiB, so the kernel gives the pool and the thin LV
     * 2 x 1 MiB = 2048 KiB; LVM's auto read-ahead for an LV without stripes is the PV read-ahead under the first
     * segment of the LV or an LV it depends on (thin -> pool -> pool_tdata on sda): 16384 sectors, 8192 KiB,
     * larger, so it is set (kernel-traces-7.2 thin-lvm-zy-*: vgt-pool-tpool, vgt-pool, vgt-thin read_ahead_kb 8192).
     */
    @Test
    void thinLvsOnA72AhciPvReadAheadAsTheirPv() {
        Layout l = Layout.builder(KernelProfile.LINUX_7_2)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(4)))
                .pvcreate("sda").vgcreate("vg", "sda")
                .lvcreateThinPool("vg", ThinPoolRequest.builder("pool").size("1G").chunkSize("1m").build())
                .lvcreateThin("vg", new ThinLvRequest("thin", Bytes.gib(2), "pool"))
                .build();
        assertThat(l.limits("sda").readAheadKb()).isEqualTo(8192);
        assertThat(l.limits("vg-pool-tpool").ioOpt()).isEqualTo(1 << 20);
        assertThat(l.limits("vg-pool-tpool").readAheadKb()).isEqualTo(8192);
        assertThat(l.limits("vg/thin").readAheadKb()).isEqualTo(8192);
    }

    /**
     * Under 6.12 the same disk reads ahead the default 128 KiB (256 sectors): LVM asks for 256 sectors, the kernel's
     * 2 x io_opt = 2048 KiB is larger and stays (kernel-traces-6.12 thin-lvm-zy-*: 2048 on the pool and thin LVs).
     */
    @Test
    void aKernelReadAheadLargerThanLvmsStays() {
        Layout l = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(4)))
                .pvcreate("sda").vgcreate("vg", "sda")
                .lvcreateThinPool("vg", ThinPoolRequest.builder("pool").size("1G").chunkSize("1m").build())
                .lvcreateThin("vg", new ThinLvRequest("thin", Bytes.gib(2), "pool"))
                .build();
        assertThat(l.limits("sda").readAheadKb()).isEqualTo(128);
        assertThat(l.limits("vg-pool-tpool").readAheadKb()).isEqualTo(2048);
        assertThat(l.limits("vg/thin").readAheadKb()).isEqualTo(2048);
    }

    /**
     * A striped LV asks for twice its widest stripe, not its PVs' read-ahead: 3 stripes of 64 KiB (128 sectors) =
     * 384 sectors, x 2 = 768 sectors = 384 KiB. Under 7.2 the AHCI PVs read ahead 8192 KiB, which LVM does not
     * look at here; the kernel gives dm-striped 2 x io_opt = 2 x 192 KiB = 384 KiB too, so 384 stays
     * (kernel-traces s3-*: striped LVs keep 2 x their full stripe under PVs that read ahead more).
     */
    @Test
    void aStripedLvAsksForTwiceItsStripeNotItsPvs() {
        Layout l = Layout.builder(KernelProfile.LINUX_7_2)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .disk("sdc", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .pvcreate("sda").pvcreate("sdb").pvcreate("sdc").vgcreate("vg", "sda", "sdb", "sdc")
                .lvcreate("vg", LvCreateRequest.builder("str").size("300M").stripes(3).stripeSize(Bytes.kib(64))
                        .build())
                .build();
        assertThat(l.limits("vg/str").ioOpt()).isEqualTo(3 * 65536);
        assertThat(l.limits("vg/str").readAheadKb()).isEqualTo(384);
    }
}
