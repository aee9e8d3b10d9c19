package dev.dmmodel.impl.dm.cache;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** smq's promotion rule (dm-cache-policy-smq.c), step by step on the recorded geometry. */
class SmqPolicyTest {
    /** 1024 cache blocks of 128 sectors over a 524288-sector origin, as cache-wt. */
    private final SmqPolicy p = new SmqPolicy(1024, 524288, 128, true);

    @Test
    void hotspotBlocksAreHalvedUntilTheyCoverTheOrigin() {
        // calc_hotspot_params: 16 * 128 = 2048 sectors; nr_hotspot_blocks = max(1024 / 4, 1024) = 1024;
        // 2048 * 1024 > 524288, 1024 * 1024 > 524288, 512 * 1024 = 524288 is not: 512 sectors = 4 cache blocks
        assertThat(p.hotspotBlockSectors()).isEqualTo(512);
        assertThat(p.blocksPerHotspotBlock()).isEqualTo(4);
    }

    @Test
    void nothingIsPromotedBeforeTheFirstTick() {
        // __smq_create: read and write promote levels NR_HOTSPOT_LEVELS (64), which no level reaches
        assertThat(p.readPromoteLevel()).isEqualTo(64);
        for (int i = 0; i < 3; i++) {
            assertThat(p.lookup(0, false).promote()).isFalse();
        }
    }

    @Test
    void aTickWithPoorHotspotHitsSetsLevel48AndLiftsFewEntriesToTheTop() {
        // 4 lookups in one hotspot block: a miss (new entry at level 0), then a hit that requeues it by the level
        // jump (1 before any tick), then two more in the same period (no jump): level 1, all "misses" of the
        // hotspot statistics (below 48) -> Q_POOR: threshold max(32, 64) / 4 = 16, promote level 64 - 16 = 48;
        // q_redistribute: 1 entry, the top 8 levels hold nr_in_top_levels = min(1024 / 64, 1024 / 4) = 16, levels
        // 0..55 none, so the entry is pushed up to level 56
        for (long b = 0; b < 4; b++) {
            p.lookup(b, true);
        }
        assertThat(p.hotspotLevel(0)).isEqualTo(1);
        p.tick();
        assertThat(p.readPromoteLevel()).isEqualTo(48);
        assertThat(p.writePromoteLevel()).isEqualTo(48);
        assertThat(p.hotspotLevel(0)).isEqualTo(56);
        SmqPolicy.Lookup l = p.lookup(1, false);
        assertThat(l.promote()).isTrue();
        assertThat(l.cblock()).isZero();
        // the promoted block is not mapped until the copy is done; then it is a hit
        assertThat(p.mapping(1)).isEmpty();
        p.promoted(1);
        assertThat(p.lookup(1, false).hit()).isTrue();
        assertThat(p.residency()).isEqualTo(1);
    }

    @Test
    void hitsOfTheHotspotQueueLowerThePromoteLevelForOneTick() {
        // after the tick the entry is at 56 (>= 48, a hotspot hit): 4 hits of 4 lookups -> Q_WELL: threshold 64,
        // promote level 0; the next tick without lookups: 0 / 0 -> Q_POOR again, 48
        for (long b = 0; b < 4; b++) {
            p.lookup(b, false);
        }
        p.tick();
        for (long b = 4; b < 8; b++) {
            p.lookup(b, false);
        }
        p.tick();
        // blocks 4..7 are a second hotspot block: 1 miss + 3 level-1 lookups; block 0's entry untouched -> POOR
        assertThat(p.readPromoteLevel()).isEqualTo(48);
        for (long b = 0; b < 4; b++) {
            p.lookup(b, false);
        }
        p.tick();
        assertThat(p.readPromoteLevel()).isZero();
        p.tick();
        assertThat(p.readPromoteLevel()).isEqualTo(48);
    }

    @Test
    void assessmentThresholdsAreASixteenthAndAnEighth() {
        // stats_assess: confidence = hits * 256 / (hits + misses); < 16 poor, < 32 fair, else well
        assertThat(SmqPolicy.assess(0, 0)).isZero();
        assertThat(SmqPolicy.assess(1, 16)).isZero();
        assertThat(SmqPolicy.assess(1, 15)).isEqualTo(1);
        assertThat(SmqPolicy.assess(1, 7)).isEqualTo(2);
    }

    @Test
    void theCleanerNeverPromotes() {
        SmqPolicy cleaner = new SmqPolicy(1024, 524288, 128, false);
        cleaner.lookup(0, false);
        cleaner.tick();
        assertThat(cleaner.lookup(1, false).promote()).isFalse();
    }
}
