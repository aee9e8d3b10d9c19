package dev.dmmodel.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KernelProfileTest {

    @Test
    void releasesAtAPresetsVersionGiveThePresetItself() {
        assertThat(KernelProfile.forRelease("6.1.0-57-amd64")).isSameAs(KernelProfile.LINUX_6_1);
        assertThat(KernelProfile.forRelease("6.12.117+deb12-amd64")).isSameAs(KernelProfile.LINUX_6_12);
        assertThat(KernelProfile.forRelease("7.2.13+deb14-amd64")).isSameAs(KernelProfile.LINUX_7_2);
        assertThat(KernelProfile.forRelease("5.10.0-32-amd64")).isSameAs(KernelProfile.LINUX_5_10);
        assertThat(KernelProfile.forRelease("3.10.0-1160.el7.x86_64")).isSameAs(KernelProfile.LINUX_3_10);
        assertThat(KernelProfile.forRelease("2.6.32-220.el6.x86_64")).isSameAs(KernelProfile.LINUX_2_6_32);
        assertThat(KernelProfile.forRelease("2.6.0-mm2")).isSameAs(KernelProfile.LINUX_2_6_0);
    }

    @Test
    void otherReleasesAreComposedAndNamedByTheirVersion() {
        // 6.6 lies between the presets 6.1 and 6.12: its own profile, no longer 6.1's
        KernelProfile p = KernelProfile.forRelease("6.6.30");
        assertThat(p.name()).isEqualTo("linux-6.6");
        assertThat(p.major()).isEqualTo(6);
        assertThat(p.minor()).isEqualTo(6);
        assertThat(KernelProfile.presets()).doesNotContain(p);
        // the 2.6 series counts its third number
        assertThat(KernelProfile.forRelease("2.6.18-419.el5").name()).isEqualTo("linux-2.6.18");
        // 7.0 is 6.12's rules plus 6.17's 4 MiB cap (and so not 6.12's profile, as it was)
        assertThat(KernelProfile.forRelease("7.0").name()).isEqualTo("linux-7.0");
        assertThat(KernelProfile.forRelease("7.0").maxSectorsCap()).isEqualTo(8192);
    }

    @Test
    void forReleaseRejectsTextThatIsNotARelease() {
        assertThatThrownBy(() -> KernelProfile.forRelease("debian"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("kernel release 'debian' does not start with a version such as 6.1.0 (as uname -r"
                        + " prints it)");
        assertThatThrownBy(() -> KernelProfile.forRelease(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void namedAcceptsTheCommandLineNames() {
        assertThat(KernelProfile.named("6.1")).isSameAs(KernelProfile.LINUX_6_1);
        assertThat(KernelProfile.named("linux-2.6.32")).isSameAs(KernelProfile.LINUX_2_6_32);
        assertThat(KernelProfile.named("7.2")).isSameAs(KernelProfile.LINUX_7_2);
        assertThatThrownBy(() -> KernelProfile.named("5.4"))
                .hasMessage("unknown kernel profile '5.4' (known: 7.2, 6.12, 6.1, 5.10, 3.10, 2.6.32, 2.6.0)");
        assertThat(KernelProfile.named("5.10")).isSameAs(KernelProfile.LINUX_5_10);
        assertThat(KernelProfile.defaultProfile()).isSameAs(KernelProfile.LINUX_6_12);
    }

    @Test
    void ofTakesAPresetNameOrAnyRelease() {
        assertThat(KernelProfile.of("6.12")).isSameAs(KernelProfile.LINUX_6_12);
        assertThat(KernelProfile.of(" linux-6.1 ")).isSameAs(KernelProfile.LINUX_6_1);
        assertThat(KernelProfile.of("2.6.0")).isSameAs(KernelProfile.LINUX_2_6_0);
        assertThat(KernelProfile.of("6.8").name()).isEqualTo("linux-6.8");
        assertThat(KernelProfile.of("linux-7.5").name()).isEqualTo("linux-7.5");
        assertThat(KernelProfile.of("4.18.0-553.el8_10.x86_64").name()).isEqualTo("linux-4.18");
        assertThat(KernelProfile.of("5.10.0-32-amd64")).isSameAs(KernelProfile.LINUX_5_10);
        assertThatThrownBy(() -> KernelProfile.of("sid"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown kernel 'sid': neither a profile (7.2, 6.12, 6.1, 5.10, 3.10, 2.6.32, 2.6.0) nor"
                        + " a release such as 6.1.0-57-amd64 (as uname -r prints it)");
        assertThatThrownBy(() -> KernelProfile.of(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void theDescriptionSaysWhatAProfileIsAndTakesNoPartInEquality() {
        assertThat(KernelProfile.LINUX_6_1.description()).isEqualTo("Linux 6.1 as recorded on Debian 12's 6.1.192");
        KernelProfile ubuntu = KernelProfile.forRelease("6.8.0-31-generic");
        KernelProfile upstream = KernelProfile.forRelease("6.8.12");
        assertThat(ubuntu.description()).isEqualTo("Linux 6.8 (uname -r 6.8.0-31-generic; Ubuntu, whose leading"
                + " version is the upstream base): upstream 6.8's rules, each as of its latest change at or before 6.8");
        assertThat(upstream.description()).isEqualTo("Linux 6.8 (uname -r 6.8.12): upstream 6.8's rules, each as of"
                + " its latest change at or before 6.8");
        assertThat(ubuntu).isEqualTo(upstream).hasSameHashCodeAs(upstream);
        assertThat(ubuntu.toString()).isEqualTo("linux-6.8");
        assertThatThrownBy(() -> KernelProfile.LINUX_6_12.toBuilder().description(" "))
                .hasMessage("a kernel profile's description must not be blank");
        assertThatThrownBy(() -> KernelProfile.LINUX_6_12.toBuilder().description(null))
                .isInstanceOf(NullPointerException.class);
        assertThat(KernelProfile.builder("mine", 6, 12).build().description())
                .isEqualTo("a custom profile starting from linux-6.12's rules");
        assertThat(KernelProfile.LINUX_6_12.toBuilder().name("v").build().description())
                .isEqualTo(KernelProfile.LINUX_6_12.description());
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
        assertThat(KernelProfile.LINUX_7_2.readAheadFromMaxSectorsWhenRotational()).isTrue();
        assertThat(KernelProfile.LINUX_6_12.readAheadFromMaxSectorsWhenRotational()).isFalse();
        // kernel-traces-7.2 README: buffered reads of the LV "produce few large readahead bios" (64 ... 16384
        // sectors; 6.1: 260 of up to 256 sectors): large folios ramped with the windows
        assertThat(KernelProfile.LINUX_7_2.readAheadFolios()).isEqualTo(KernelProfile.ReadAheadFolios.ALIGNED_ORDER_RAMP);
        assertThat(KernelProfile.LINUX_6_12.readAheadFolios()).isEqualTo(KernelProfile.ReadAheadFolios.SINGLE_PAGES);
        assertThat(KernelProfile.LINUX_6_1.readAheadFolios()).isEqualTo(KernelProfile.ReadAheadFolios.SINGLE_PAGES);
        // kernel-traces-7.2 README: "the request is inserted (block_rq_insert) at 128 sectors and the other seven
        // pieces are backmerged into it afterwards (6.1: merged first, inserted at 1024)" — no plug, the scheduler
        assertThat(KernelProfile.LINUX_7_2.unpluggedRequestsWaitInScheduler()).isTrue();
        assertThat(KernelProfile.LINUX_7_2.plugsDirectWrites()).isFalse();
        assertThat(KernelProfile.LINUX_6_12.unpluggedRequestsWaitInScheduler()).isFalse();
        assertThat(KernelProfile.LINUX_6_1.unpluggedRequestsWaitInScheduler()).isFalse();
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
