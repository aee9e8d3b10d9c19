package dev.dmmodel.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KernelProfileTest {

    @Test
    void releasesMapToTheClosestPresetNotNewerThanThem() {
        assertThat(KernelProfile.forRelease("6.1.0-57-amd64")).isSameAs(KernelProfile.LINUX_6_1);
        assertThat(KernelProfile.forRelease("6.12.117+deb12-amd64")).isSameAs(KernelProfile.LINUX_6_12);
        assertThat(KernelProfile.forRelease("6.6.30")).isSameAs(KernelProfile.LINUX_6_1);
        assertThat(KernelProfile.forRelease("3.10.0-1160.el7.x86_64")).isSameAs(KernelProfile.LINUX_3_10);
        assertThat(KernelProfile.forRelease("2.6.32-220.el6.x86_64")).isSameAs(KernelProfile.LINUX_2_6_32);
        assertThat(KernelProfile.forRelease("2.6.0-mm2")).isSameAs(KernelProfile.LINUX_2_6_0);
        assertThat(KernelProfile.forRelease("2.4.20")).isSameAs(KernelProfile.LINUX_2_6_0);
        assertThat(KernelProfile.forRelease("7.0")).isSameAs(KernelProfile.LINUX_6_12);
        assertThatThrownBy(() -> KernelProfile.forRelease("debian"))
                .hasMessage("kernel release 'debian' does not start with a version such as 6.1.0");
    }

    @Test
    void namedAcceptsTheCommandLineNames() {
        assertThat(KernelProfile.named("6.1")).isSameAs(KernelProfile.LINUX_6_1);
        assertThat(KernelProfile.named("linux-2.6.32")).isSameAs(KernelProfile.LINUX_2_6_32);
        assertThatThrownBy(() -> KernelProfile.named("5.4"))
                .hasMessage("unknown kernel profile '5.4' (known: 7.2, 6.12, 6.1, 5.10, 3.10, 2.6.32, 2.6.0)");
        assertThat(KernelProfile.named("7.2")).isSameAs(KernelProfile.LINUX_7_2);
        assertThat(KernelProfile.named("5.10")).isSameAs(KernelProfile.LINUX_5_10);
        assertThat(KernelProfile.defaultProfile()).isSameAs(KernelProfile.LINUX_6_12);
    }

    @Test
    void presetsDifferInTheRulesTheRecordingsShowed() {
        assertThat(KernelProfile.LINUX_6_12.validateLimitsOnCommit()).isTrue();
        assertThat(KernelProfile.LINUX_6_1.validateLimitsOnCommit()).isFalse();
        assertThat(KernelProfile.LINUX_6_1.sdMaxSectorsFromOptimalTransfer()).isTrue();
        assertThat(KernelProfile.LINUX_6_12.sdMaxSectorsFromOptimalTransfer()).isFalse();
        assertThat(KernelProfile.LINUX_6_12.stripedSetsChunkSectors()).isTrue();
        assertThat(KernelProfile.LINUX_3_10.maxSectorsCap()).isEqualTo(1024);
        assertThat(KernelProfile.LINUX_2_6_0.maxSectorsCap()).isEqualTo(255);
        // kernel-traces-5.10 and -7.2 READMEs: an empty flush through dm-linear gets the target's offset on 6.1,
        // stays at sector 0 on 6.12
        assertThat(KernelProfile.LINUX_6_1.linearRemapsEmptyFlushes()).isTrue();
        assertThat(KernelProfile.LINUX_6_12.linearRemapsEmptyFlushes()).isFalse();
        assertThat(KernelProfile.LINUX_6_1.toBuilder().linearRemapsEmptyFlushes(false).build())
                .isNotEqualTo(KernelProfile.LINUX_6_1);
        // kernel-traces-5.10 README: deferred thin bios reach the pool "without the block_bio_remap from the thin
        // device that 6.1 traces"; O_DIRECT reads "are traced as R (6.1: RS)"
        assertThat(KernelProfile.LINUX_5_10.tracesDeferredRemaps()).isFalse();
        assertThat(KernelProfile.LINUX_6_1.tracesDeferredRemaps()).isTrue();
        assertThat(KernelProfile.LINUX_5_10.directReadsSync()).isFalse();
        assertThat(KernelProfile.LINUX_6_1.directReadsSync()).isTrue();
        // kernel-traces-7.2 README: "disks whose max_hw_sectors_kb allows it have max_sectors_kb 4096"; dm-striped
        // over two AHCI disks reports discard_max_bytes 4294836224, "twice the disks' 2147450880" (in whole stripes)
        assertThat(KernelProfile.LINUX_7_2.maxSectorsCap()).isEqualTo(8192);
        assertThat(KernelProfile.LINUX_6_12.maxSectorsCap()).isEqualTo(2560);
        assertThat(KernelProfile.LINUX_7_2.stripedDiscardSpansStripes()).isTrue();
        assertThat(KernelProfile.LINUX_6_12.stripedDiscardSpansStripes()).isFalse();
        assertThat(KernelProfile.LINUX_7_2.readAheadFromBottomWithoutIoOpt()).isTrue();
        assertThat(KernelProfile.LINUX_6_12.readAheadFromBottomWithoutIoOpt()).isFalse();
    }

    @Test
    void toBuilderDerivesAVariantAndLeavesThePresetAlone() {
        KernelProfile custom = KernelProfile.LINUX_6_12.toBuilder().name("linux-6.12-cap4m").maxSectorsCap(8192)
                .build();
        assertThat(custom.maxSectorsCap()).isEqualTo(8192);
        assertThat(custom.validateLimitsOnCommit()).isTrue();
        assertThat(KernelProfile.LINUX_6_12.maxSectorsCap()).isEqualTo(2560);
        assertThat(custom).isNotEqualTo(KernelProfile.LINUX_6_12);
        assertThatThrownBy(() -> KernelProfile.LINUX_6_12.toBuilder().maxSectorsCap(4))
                .hasMessage("maxSectorsCap (4) must be at least one page (8 sectors)");
    }
}
