package dev.dmmodel.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.limits.KernelProfile.AlignmentMath;
import dev.dmmodel.limits.KernelProfile.BioShaping;
import dev.dmmodel.limits.KernelProfile.ChunkSectorsStacking;
import dev.dmmodel.limits.KernelProfile.ReadAheadFolios;
import dev.dmmodel.limits.KernelProfile.ThinDiscardLimit;
import dev.dmmodel.limits.KernelProfile.ThinPoolIoHints;
import org.junit.jupiter.api.Test;

/**
 * {@link KernelProfile#forRelease(String)} on the {@code uname -r} texts of the distributions users run. Each
 * expected value is derived in a comment from the history (docs/kernel-releases.md, {@code RuleHistory}); every
 * rule is compared, not just equality.
 */
class ForReleaseTest {

    private static void assertRules(KernelProfile actual, KernelProfile expected) {
        assertThat(RuleHistoryTest.differingRules(actual, expected)).as("rules of %s", actual).isEmpty();
    }

    /** Upstream 4.18, every rule spelled out: RHEL 8's base. */
    private static KernelProfile upstream418() {
        return KernelProfile.builder("expected", 4, 18)
                .maxSectorsCap(2560)                                        // 2560 from 4.3, 8192 only from 6.17
                .sdMaxSectorsFromOptimalTransfer(true)                      // sd lowers max_sectors from 4.4 to 6.10
                .validateLimitsOnCommit(false)                              // dm through blk_validate_limits from 6.10
                .ioOptRaisesMaxSectors(false)                               // 6.11
                .alignmentMath(AlignmentMath.MODULO)                        // 3.19
                .chunkSectorsStacking(ChunkSectorsStacking.GCD)             // min_not_zero (= gcd) from 4.10
                .stripedSetsChunkSectors(false)                             // 6.12 (stable backport of 6.17)
                .thinPoolIoHints(ThinPoolIoHints.BLOCK_SIZE_HINTS)          // 3.19
                .thinDiscardLimit(ThinDiscardLimit.FIXED_16_GIB)            // 16 GiB until 6.4
                .stacksDmaAlignment(false)                                  // 6.1
                .readAheadFromIoOpt(false)                                  // 5.10
                .writeZeroesSupported(true)                                 // 4.10
                .plugsDirectWrites(true)                                    // unplugged only from 6.5
                .bioShaping(BioShaping.ON_ENTRY)                            // blk_queue_split, 4.3
                .readaheadPerBuffer(false)                                  // mpage read-ahead from 3.18
                .plugMaxRequests(16)                                        // 16 from 2.6.39, 32 placed at 5.10
                .plugFlushBytes(128 * 1024)                                 // BLK_PLUG_FLUSH_SIZE from 4.10
                .linearRemapsEmptyFlushes(false)                            // 5.19 – 6.10 only
                .tracesDeferredRemaps(false)                                // 5.18
                .directReadsSync(false)                                     // placed at 6.1
                .readAheadFromMaxSectorsWhenRotational(false)                     // 7.2
                .stripedDiscardSpansStripes(false)                          // 7.2
                .readAheadFolios(ReadAheadFolios.SINGLE_PAGES)              // large bdev folios from 6.15
                .unpluggedRequestsWaitInScheduler(false)                    // 7.2
                .build();
    }

    @Test
    void rhel8GetsUpstream418sRulesAndSaysRhelBackports() {
        KernelProfile p = KernelProfile.forRelease("4.18.0-553.el8_10.x86_64");
        assertThat(p.name()).isEqualTo("linux-4.18");
        assertThat(p.major()).isEqualTo(4);
        assertThat(p.minor()).isEqualTo(18);
        assertRules(p, upstream418());
        assertThat(p.description()).isEqualTo("Linux 4.18 (uname -r 4.18.0-553.el8_10.x86_64; RHEL 8: upstream"
                + " 4.18's rules, but RHEL backports block-layer changes (RHEL 8 runs blk-mq only, as upstream does"
                + " from 5.0, and takes later block and device-mapper changes), so a RHEL 8 host can behave like a"
                + " newer kernel in places): upstream 4.18's rules, each as of its latest change at or before 4.18");
    }

    @Test
    void rhel9GetsUpstream514sRules() {
        KernelProfile p = KernelProfile.forRelease("5.14.0-427.13.1.el9_4.x86_64");
        assertThat(p.name()).isEqualTo("linux-5.14");
        // between 4.18 and 5.14: 32 plugged requests (placed at 5.10) and read-ahead from io_opt (5.10); the
        // next changes are 5.18 (traced deferred remaps) and 5.19 (dm-linear remaps empty flushes)
        assertRules(p, upstream418().toBuilder().plugMaxRequests(32).readAheadFromIoOpt(true).build());
        // so 5.14 has the rules recorded on 5.10, under its own name
        assertRules(p, KernelProfile.LINUX_5_10);
        assertThat(p).isNotEqualTo(KernelProfile.LINUX_5_10);
        assertThat(p.description()).contains("RHEL 9: upstream 5.14's rules, but RHEL backports block-layer changes");
    }

    @Test
    void rhel7IsThe310Preset() {
        // 3.10 is a preset's version: the preset itself (its description names RHEL 7's base)
        KernelProfile p = KernelProfile.forRelease("3.10.0-1160.el7.x86_64");
        assertThat(p).isSameAs(KernelProfile.LINUX_3_10);
        assertThat(p.description()).contains("RHEL 7's base");
    }

    @Test
    void ubuntu2004Gets54sRules() {
        KernelProfile p = KernelProfile.forRelease("5.4.0-42-generic");
        assertThat(p.name()).isEqualTo("linux-5.4");
        // no change between 4.18 and 5.4 (the next is 5.10's)
        assertRules(p, upstream418());
        assertThat(p.description()).startsWith("Linux 5.4 (uname -r 5.4.0-42-generic; Ubuntu, whose leading version"
                + " is the upstream base): upstream 5.4's rules");
    }

    @Test
    void ubuntu2204Gets515sRules() {
        KernelProfile p = KernelProfile.forRelease("5.15.0-91-generic");
        assertThat(p.name()).isEqualTo("linux-5.15");
        // 5.10's changes (gcd chunk_sectors since 4.10, 32 requests, read-ahead from io_opt), none of 5.18's
        assertRules(p, KernelProfile.LINUX_5_10);
        assertThat(p.chunkSectorsStacking()).isEqualTo(ChunkSectorsStacking.GCD);
        assertThat(p.tracesDeferredRemaps()).isFalse();
        assertThat(p.description()).contains("Ubuntu");
    }

    @Test
    void ubuntu2404Gets68sRules() {
        KernelProfile p = KernelProfile.forRelease("6.8.0-31-generic");
        assertThat(p.name()).isEqualTo("linux-6.8");
        // 6.1's rules, then 6.4: thin discards of BIO_PRISON_MAX_RANGE blocks, 6.5: O_DIRECT writes unplugged;
        // nothing of 6.10 (blk_validate_limits for dm) or 6.11 (sd, io_opt, flush_bypasses_map) yet
        assertRules(p, KernelProfile.LINUX_6_1.toBuilder()
                .thinDiscardLimit(ThinDiscardLimit.BIO_PRISON_RANGE)
                .plugsDirectWrites(false)
                .build());
        assertThat(p.validateLimitsOnCommit()).isFalse();
        assertThat(p.sdMaxSectorsFromOptimalTransfer()).isTrue();
        assertThat(p.linearRemapsEmptyFlushes()).isTrue();
    }

    @Test
    void debian11_12_13AreTheRecordedPresets() {
        assertThat(KernelProfile.forRelease("5.10.0-32-amd64")).isSameAs(KernelProfile.LINUX_5_10);
        assertThat(KernelProfile.forRelease("6.1.0-32-amd64")).isSameAs(KernelProfile.LINUX_6_1);
        assertThat(KernelProfile.forRelease("6.12.48+deb13-amd64")).isSameAs(KernelProfile.LINUX_6_12);
    }

    @Test
    void a7xAfterTheNewestRecordedGets72sRulesAndSaysSo() {
        KernelProfile p = KernelProfile.forRelease("7.5.0");
        assertThat(p.name()).isEqualTo("linux-7.5");
        // the history has no change after 7.2
        assertRules(p, KernelProfile.LINUX_7_2);
        assertThat(p.description()).isEqualTo("Linux 7.5 (uname -r 7.5.0): newer than the newest recorded kernel,"
                + " 7.2: its rules");
    }

    @Test
    void aReleaseOlderThan260Gets260sRulesAndSaysSo() {
        KernelProfile p = KernelProfile.forRelease("2.4.20");
        assertThat(p.name()).isEqualTo("linux-2.4.20");
        // every change in the history is at 2.6.16 or later
        assertRules(p, KernelProfile.LINUX_2_6_0);
        assertThat(p.description()).isEqualTo("Linux 2.4.20 (uname -r 2.4.20): older than the oldest kernel the"
                + " model knows, 2.6.0: its rules");
    }

    @Test
    void between612And72TheCapRisesAt617() {
        // 6.17: BLK_DEF_MAX_SECTORS_CAP 4 MiB, and Ryan Roberts' read-ahead series (the folio order kept in
        // file_ra_state, asynchronous windows cut to a folio boundary); dm-striped's chunk_sectors was already placed
        // at 6.12, block devices' large folios came with 6.15
        assertRules(KernelProfile.forRelease("6.17.7-200.fc42.x86_64"), KernelProfile.LINUX_6_12.toBuilder()
                .maxSectorsCap(8192).readAheadFolios(ReadAheadFolios.ALIGNED_ORDER_RAMP).build());
        assertThat(KernelProfile.forRelease("6.17.7-200.fc42.x86_64").description()).contains("Fedora 42");
        // 6.15 and 6.16: the rules of 6.12 with large block-device folios read two orders above the marked folio
        KernelProfile largeFolios = KernelProfile.LINUX_6_12.toBuilder()
                .readAheadFolios(ReadAheadFolios.MARKER_ORDER_PLUS_TWO).build();
        assertRules(KernelProfile.forRelease("6.16.1"), largeFolios);
        assertRules(KernelProfile.forRelease("6.15.0"), largeFolios);
        // 6.14: the rules of 6.12
        assertRules(KernelProfile.forRelease("6.14.11"), KernelProfile.LINUX_6_12);
    }

    @Test
    void unpluggedRequestsWaitInTheSchedulerFrom72() {
        // 9cbbac29d752 "block: Remove redundant plug in __submit_bio()" is in 7.2: 7.1 still runs the queue from the
        // flush of __submit_bio's plug (6.12's rules with 6.17's cap and read-ahead), 7.2 leaves the request to
        // kblockd
        KernelProfile v71 = KernelProfile.forRelease("7.1.3");
        assertThat(v71.unpluggedRequestsWaitInScheduler()).isFalse();
        assertRules(v71, KernelProfile.LINUX_6_12.toBuilder().maxSectorsCap(8192)
                .readAheadFolios(ReadAheadFolios.ALIGNED_ORDER_RAMP).build());
        assertThat(KernelProfile.forRelease("7.2.13+deb14-amd64").unpluggedRequestsWaitInScheduler()).isTrue();
        // O_DIRECT writes stay unplugged from 6.5 on: 7.2 merges their pieces in the scheduler, not in a plug
        assertThat(KernelProfile.forRelease("7.2.13+deb14-amd64").plugsDirectWrites()).isFalse();
    }

    @Test
    void otherDistributionsAreNamed() {
        assertThat(KernelProfile.forRelease("5.14.21-150500.55.19-default").description()).contains("SUSE");
        assertThat(KernelProfile.forRelease("5.15.0-200.131.27.el8uek.x86_64").description())
                .contains("Oracle's Unbreakable Enterprise Kernel for EL 8");
        // ELRepo's mainline kernel for EL 8 is not on RHEL 8's base: no RHEL caveat, upstream 6.5's rules
        KernelProfile elrepo = KernelProfile.forRelease("6.5.1-1.el8.elrepo.x86_64");
        assertThat(elrepo.name()).isEqualTo("linux-6.5");
        assertThat(elrepo.description()).contains("built for EL 8 but not on RHEL's base").doesNotContain("backports");
        assertThat(KernelProfile.forRelease("6.1.0-13-cloud-amd64")).isSameAs(KernelProfile.LINUX_6_1);
        assertThat(KernelProfile.forRelease("6.9.12+deb13-arm64").description()).contains("Debian 13");
    }
}
