package dev.dmmodel.impl.md.raid5;

import static dev.dmmodel.impl.md.raid5.Raid5Geometry.ALGORITHM_LEFT_ASYMMETRIC;
import static dev.dmmodel.impl.md.raid5.Raid5Geometry.ALGORITHM_LEFT_ASYMMETRIC_6;
import static dev.dmmodel.impl.md.raid5.Raid5Geometry.ALGORITHM_LEFT_SYMMETRIC;
import static dev.dmmodel.impl.md.raid5.Raid5Geometry.ALGORITHM_LEFT_SYMMETRIC_6;
import static dev.dmmodel.impl.md.raid5.Raid5Geometry.ALGORITHM_PARITY_0;
import static dev.dmmodel.impl.md.raid5.Raid5Geometry.ALGORITHM_PARITY_0_6;
import static dev.dmmodel.impl.md.raid5.Raid5Geometry.ALGORITHM_PARITY_N;
import static dev.dmmodel.impl.md.raid5.Raid5Geometry.ALGORITHM_RIGHT_ASYMMETRIC;
import static dev.dmmodel.impl.md.raid5.Raid5Geometry.ALGORITHM_RIGHT_ASYMMETRIC_6;
import static dev.dmmodel.impl.md.raid5.Raid5Geometry.ALGORITHM_RIGHT_SYMMETRIC;
import static dev.dmmodel.impl.md.raid5.Raid5Geometry.ALGORITHM_RIGHT_SYMMETRIC_6;
import static dev.dmmodel.impl.md.raid5.Raid5Geometry.ALGORITHM_ROTATING_N_CONTINUE;
import static dev.dmmodel.impl.md.raid5.Raid5Geometry.ALGORITHM_ROTATING_N_RESTART;
import static dev.dmmodel.impl.md.raid5.Raid5Geometry.ALGORITHM_ROTATING_ZERO_RESTART;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.impl.md.raid5.Raid5Geometry.Location;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * raid5_compute_sector / raid5_compute_blocknr for every level and algorithm, worked by hand from the kernel's
 * formulas (the per-row tables below: what each disk holds, D&lt;data index&gt;, P or Q), and the sectors of the
 * recorded raid5-4x64k / raid5-3x64k arrays (left-symmetric, 64 KiB = 128-sector chunks).
 */
class Raid5GeometryTest {

    /** What each disk holds in stripe row {@code stripe}, from computeSector of each data index's first sector. */
    private static String row(Raid5Geometry g, long stripe) {
        String[] cell = new String[g.raidDisks()];
        for (int dd = 0; dd < g.dataDisks(); dd++) {
            long arraySector = (stripe * g.dataDisks() + dd) * g.chunkSectors();
            Location loc = g.computeSector(arraySector);
            assertThat(loc.memberSector()).as("row %d data %d", stripe, dd).isEqualTo(stripe * g.chunkSectors());
            cell[loc.dataDisk()] = "D" + dd;
            cell[loc.pDisk()] = "P";
            if (loc.qDisk() >= 0) {
                cell[loc.qDisk()] = "Q";
            }
        }
        return String.join(" ", cell);
    }

    private static List<String> rows(Raid5Geometry g, int count) {
        List<String> out = new ArrayList<>();
        for (int s = 0; s < count; s++) {
            out.add(row(g, s));
        }
        return out;
    }

    @Test
    void raid5LayoutsOnFourDisks() {
        // data_disks = 3, raid_disks = 4, row s:
        // LEFT_ASYMMETRIC  pd = 3 - s%4, dd >= pd -> dd+1
        // RIGHT_ASYMMETRIC pd = s%4,     dd >= pd -> dd+1
        // LEFT_SYMMETRIC   pd = 3 - s%4, disk = (pd + 1 + dd) % 4
        // RIGHT_SYMMETRIC  pd = s%4,     disk = (pd + 1 + dd) % 4
        // PARITY_0 pd = 0, dd+1; PARITY_N pd = 3
        assertThat(rows(new Raid5Geometry(5, ALGORITHM_LEFT_ASYMMETRIC, 4, 16), 4))
                .containsExactly("D0 D1 D2 P", "D0 D1 P D2", "D0 P D1 D2", "P D0 D1 D2");
        assertThat(rows(new Raid5Geometry(5, ALGORITHM_RIGHT_ASYMMETRIC, 4, 16), 4))
                .containsExactly("P D0 D1 D2", "D0 P D1 D2", "D0 D1 P D2", "D0 D1 D2 P");
        assertThat(rows(new Raid5Geometry(5, ALGORITHM_LEFT_SYMMETRIC, 4, 16), 4))
                .containsExactly("D0 D1 D2 P", "D1 D2 P D0", "D2 P D0 D1", "P D0 D1 D2");
        assertThat(rows(new Raid5Geometry(5, ALGORITHM_RIGHT_SYMMETRIC, 4, 16), 4))
                .containsExactly("P D0 D1 D2", "D2 P D0 D1", "D1 D2 P D0", "D0 D1 D2 P");
        assertThat(rows(new Raid5Geometry(5, ALGORITHM_PARITY_0, 4, 16), 4))
                .containsOnly("P D0 D1 D2");
        assertThat(rows(new Raid5Geometry(5, ALGORITHM_PARITY_N, 4, 16), 4))
                .containsOnly("D0 D1 D2 P");
    }

    @Test
    void raid4KeepsParityOnTheLastDiskWhateverTheLayout() {
        // raid5_compute_sector case 4: pd_idx = data_disks, dd_idx unchanged
        assertThat(rows(new Raid5Geometry(4, ALGORITHM_LEFT_SYMMETRIC, 4, 8), 5)).containsOnly("D0 D1 D2 P");
        assertThat(rows(new Raid5Geometry(4, ALGORITHM_PARITY_N, 3, 8), 3)).containsOnly("D0 D1 P");
        // array sector 8*7 + 3 = 59 on 4 disks, chunk 8: chunk 7 = row 2, data index 1 -> disk 1, member 2*8 + 3
        assertThat(new Raid5Geometry(4, ALGORITHM_PARITY_N, 4, 8).computeSector(59))
                .isEqualTo(new Location(1, 3, -1, 19));
    }

    @Test
    void raid6MdLayoutsOnFiveDisks() {
        // raid_disks = 5, data_disks = 3, row s:
        // LEFT_ASYMMETRIC  pd = 4 - s%5, qd = pd+1; pd == 4: Q D D D P (qd = 0, dd+1); else dd >= pd -> dd+2
        // RIGHT_ASYMMETRIC pd = s%5, the same placement rules
        // LEFT_SYMMETRIC   pd = 4 - s%5, qd = (pd+1)%5, disk = (pd + 2 + dd) % 5
        // RIGHT_SYMMETRIC  pd = s%5, same
        // PARITY_0 P Q first; PARITY_N P Q last
        assertThat(rows(new Raid5Geometry(6, ALGORITHM_LEFT_ASYMMETRIC, 5, 8), 5)).containsExactly(
                "Q D0 D1 D2 P", "D0 D1 D2 P Q", "D0 D1 P Q D2", "D0 P Q D1 D2", "P Q D0 D1 D2");
        assertThat(rows(new Raid5Geometry(6, ALGORITHM_RIGHT_ASYMMETRIC, 5, 8), 5)).containsExactly(
                "P Q D0 D1 D2", "D0 P Q D1 D2", "D0 D1 P Q D2", "D0 D1 D2 P Q", "Q D0 D1 D2 P");
        assertThat(rows(new Raid5Geometry(6, ALGORITHM_LEFT_SYMMETRIC, 5, 8), 5)).containsExactly(
                "Q D0 D1 D2 P", "D0 D1 D2 P Q", "D1 D2 P Q D0", "D2 P Q D0 D1", "P Q D0 D1 D2");
        assertThat(rows(new Raid5Geometry(6, ALGORITHM_RIGHT_SYMMETRIC, 5, 8), 5)).containsExactly(
                "P Q D0 D1 D2", "D2 P Q D0 D1", "D1 D2 P Q D0", "D0 D1 D2 P Q", "Q D0 D1 D2 P");
        assertThat(rows(new Raid5Geometry(6, ALGORITHM_PARITY_0, 5, 8), 3)).containsOnly("P Q D0 D1 D2");
        assertThat(rows(new Raid5Geometry(6, ALGORITHM_PARITY_N, 5, 8), 3)).containsOnly("D0 D1 D2 P Q");
    }

    @Test
    void raid6DdfLayoutsOnFiveDisks() {
        // ROTATING_ZERO_RESTART: placed as RIGHT_ASYMMETRIC
        // ROTATING_N_RESTART: LEFT_ASYMMETRIC of row s+1: pd = 4 - (s+1)%5
        // ROTATING_N_CONTINUE: pd = 4 - s%5, qd = (pd + 4) % 5, disk = (pd + 1 + dd) % 5
        assertThat(rows(new Raid5Geometry(6, ALGORITHM_ROTATING_ZERO_RESTART, 5, 8), 5)).containsExactly(
                "P Q D0 D1 D2", "D0 P Q D1 D2", "D0 D1 P Q D2", "D0 D1 D2 P Q", "Q D0 D1 D2 P");
        assertThat(rows(new Raid5Geometry(6, ALGORITHM_ROTATING_N_RESTART, 5, 8), 5)).containsExactly(
                "D0 D1 D2 P Q", "D0 D1 P Q D2", "D0 P Q D1 D2", "P Q D0 D1 D2", "Q D0 D1 D2 P");
        assertThat(rows(new Raid5Geometry(6, ALGORITHM_ROTATING_N_CONTINUE, 5, 8), 5)).containsExactly(
                "D0 D1 D2 Q P", "D1 D2 Q P D0", "D2 Q P D0 D1", "Q P D0 D1 D2", "P D0 D1 D2 Q");
    }

    @Test
    void raid6WithRaid5LayoutAndQOnTheLastDisk() {
        // the *_6 layouts: raid5's placement on disks 0..3 (modulus raid_disks - 1 = 4), Q on disk 4
        // LEFT_ASYMMETRIC_6 pd = 3 - s%4, dd >= pd -> dd+1; RIGHT_ASYMMETRIC_6 pd = s%4
        // LEFT_SYMMETRIC_6 pd = 3 - s%4, disk = (pd + 1 + dd) % 4; RIGHT_SYMMETRIC_6 pd = s%4
        assertThat(rows(new Raid5Geometry(6, ALGORITHM_LEFT_ASYMMETRIC_6, 5, 8), 5)).containsExactly(
                "D0 D1 D2 P Q", "D0 D1 P D2 Q", "D0 P D1 D2 Q", "P D0 D1 D2 Q", "D0 D1 D2 P Q");
        assertThat(rows(new Raid5Geometry(6, ALGORITHM_RIGHT_ASYMMETRIC_6, 5, 8), 5)).containsExactly(
                "P D0 D1 D2 Q", "D0 P D1 D2 Q", "D0 D1 P D2 Q", "D0 D1 D2 P Q", "P D0 D1 D2 Q");
        assertThat(rows(new Raid5Geometry(6, ALGORITHM_LEFT_SYMMETRIC_6, 5, 8), 5)).containsExactly(
                "D0 D1 D2 P Q", "D1 D2 P D0 Q", "D2 P D0 D1 Q", "P D0 D1 D2 Q", "D0 D1 D2 P Q");
        assertThat(rows(new Raid5Geometry(6, ALGORITHM_RIGHT_SYMMETRIC_6, 5, 8), 5)).containsExactly(
                "P D0 D1 D2 Q", "D2 P D0 D1 Q", "D1 D2 P D0 Q", "D0 D1 D2 P Q", "P D0 D1 D2 Q");
        assertThat(rows(new Raid5Geometry(6, ALGORITHM_PARITY_0_6, 5, 8), 3)).containsOnly("P D0 D1 D2 Q");
    }

    @Test
    void recordedRaid5FourDisksSectors() {
        // raid5-4x64k, left-symmetric, chunk 128: stripe row 0 = D0 D1 D2 P
        Raid5Geometry g = new Raid5Geometry(5, ALGORITHM_LEFT_SYMMETRIC, 4, 128);
        // md-raid5-4x64k-w4k-at0: md0 0 -> vda 4096 (written), P on vdd; the rcw reads vdb from=md0:128, vdc
        // from=md0:256 at member 0
        assertThat(g.computeSector(0)).isEqualTo(new Location(0, 3, -1, 0));
        assertThat(g.computeSector(128)).isEqualTo(new Location(1, 3, -1, 0));
        assertThat(g.computeSector(256)).isEqualTo(new Location(2, 3, -1, 0));
        // md-raid5-4x64k-w8k-at444k: md0 888 = chunk 6 (row 2, data 0) + 120; row 2: pd = 3 - 2 = 1,
        // data 0 -> disk (1+1+0)%4 = 2: vdc 4096 + 2*128 + 120 = 4472; md0 896 = chunk 7 offset 0 -> vdd 4352
        assertThat(g.computeSector(888)).isEqualTo(new Location(2, 1, -1, 376));
        assertThat(g.computeSector(896)).isEqualTo(new Location(3, 1, -1, 256));
        // md-raid5-4x64k-lvm-lv-w4k-at0: md0 2304 = chunk 18 = row 6, data 0; pd = 3 - 6%4 = 1, disk 2:
        // vdc 4096 + 768 = 4864, P on vdb
        assertThat(g.computeSector(2304)).isEqualTo(new Location(2, 1, -1, 768));
        assertThat(g.dataDisks()).isEqualTo(3);
        assertThat(g.stripeDataSectors()).isEqualTo(384);
        // snapshot block/md0/size 6279168 = md/component_size 1046528 KiB (2093056 sectors) x 3
        assertThat(g.arraySectors(2093056)).isEqualTo(6279168);
        // a member size not a multiple of the chunk loses its tail: (2093056 + 100) -> 2093056
        assertThat(g.arraySectors(2093156)).isEqualTo(6279168);
    }

    @Test
    void recordedRaid5ThreeDisksSectors() {
        // raid5-3x64k: row 0 = D0 D1 P; md-raid5-3x64k-w4k-at0 reads vdb from=md0:128, writes vda and vdc (P)
        Raid5Geometry g = new Raid5Geometry(5, ALGORITHM_LEFT_SYMMETRIC, 3, 128);
        assertThat(g.computeSector(128)).isEqualTo(new Location(1, 2, -1, 0));
        assertThat(g.stripeDataSectors()).isEqualTo(256);
        // md0 256 (w128k-at128k) = chunk 2 = row 1, data 0: pd = 2 - 1 = 1, disk (1+1)%3 = 2, member 128
        assertThat(g.computeSector(256)).isEqualTo(new Location(2, 1, -1, 128));
        assertThat(g.arraySectors(2093056)).isEqualTo(4186112);
    }

    @Test
    void computeBlockNrGivesTheRecordedFromSectors() {
        // md-raid5-4x64k-w8k-at444k, stripe head at member 376 (vd* 4472): the rcw reads show vdd from=md0:1016,
        // vda from=md0:1144, the data write vdc from=md0:888 and the P write vdb from=md0:0
        Raid5Geometry g = new Raid5Geometry(5, ALGORITHM_LEFT_SYMMETRIC, 4, 128);
        assertThat(g.computeBlockNr(376, 3)).isEqualTo(1016);
        assertThat(g.computeBlockNr(376, 0)).isEqualTo(1144);
        assertThat(g.computeBlockNr(376, 2)).isEqualTo(888);
        assertThat(g.remapFromSector(376, 2)).isEqualTo(888);
        assertThat(g.remapFromSector(376, 1)).isZero();
        assertThatThrownBy(() -> g.computeBlockNr(376, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("disk (1) holds P");
        // raid6: Q's page too shows from=md0:0 (raid5_compute_blocknr returns 0 for qd_idx)
        Raid5Geometry r6 = new Raid5Geometry(6, ALGORITHM_LEFT_SYMMETRIC, 5, 8);
        assertThat(r6.qDisk(0)).isZero();
        assertThat(r6.remapFromSector(0, 0)).isZero();
        // row 0 "Q D0 D1 D2 P": disk 3 holds D2 = chunk 2 = array 16..23
        assertThat(r6.computeBlockNr(5, 3)).isEqualTo(21);
    }

    @Test
    void computeBlockNrInvertsComputeSectorForEveryLayout() {
        // every data page of the first 2 x raid_disks rows maps back to itself, and the rows' data pages cover
        // the array sectors 0 .. rows x stripeDataSectors exactly once
        int[][] cases = {{4, 0, 3}, {4, 5, 5}, {5, 0, 2}, {5, 1, 3}, {5, 2, 4}, {5, 3, 5}, {5, 4, 4}, {5, 5, 6},
            {6, 0, 4}, {6, 1, 5}, {6, 2, 6}, {6, 3, 4}, {6, 4, 5}, {6, 5, 6}, {6, 8, 4}, {6, 9, 5}, {6, 10, 6},
            {6, 16, 5}, {6, 17, 6}, {6, 18, 4}, {6, 19, 5}, {6, 20, 6}};
        for (int[] c : cases) {
            Raid5Geometry g = new Raid5Geometry(c[0], c[1], c[2], 16);
            long rowsCount = 2L * g.raidDisks();
            Set<Long> seen = new HashSet<>();
            for (long m = 0; m < rowsCount * 16; m += 8) {
                for (int d = 0; d < g.raidDisks(); d++) {
                    if (!g.isDataDisk(m, d)) {
                        continue;
                    }
                    long a = g.computeBlockNr(m, d);
                    assertThat(g.computeSector(a)).as("%s disk %d member %d", g, d, m)
                            .extracting(Location::dataDisk, Location::memberSector).containsExactly(d, m);
                    seen.add(a);
                }
            }
            assertThat(seen).as("%s", g).hasSize((int) (rowsCount * g.stripeDataSectors() / 8));
            assertThat(seen.stream().mapToLong(Long::longValue).max().orElseThrow())
                    .isEqualTo(rowsCount * g.stripeDataSectors() - 8);
        }
    }

    @Test
    void syndromeSlotsFollowSetSyndromeSources() {
        // md layouts: slots count data disks from raid6_d0 = the disk after Q (0 when Q is the last disk)
        Raid5Geometry la = new Raid5Geometry(6, ALGORITHM_LEFT_ASYMMETRIC, 5, 8);
        // row 0 "Q D0 D1 D2 P": Q = disk 0, d0 = 1 -> disks 1, 2, 3 are slots 0, 1, 2
        assertThat(List.of(la.syndromeSlot(0, 1), la.syndromeSlot(0, 2), la.syndromeSlot(0, 3)))
                .containsExactly(0, 1, 2);
        // row 1 "D0 D1 D2 P Q": Q = disk 4 (the last), d0 = 0 -> disks 0, 1, 2 are slots 0, 1, 2
        assertThat(List.of(la.syndromeSlot(8, 0), la.syndromeSlot(8, 1), la.syndromeSlot(8, 2)))
                .containsExactly(0, 1, 2);
        // row 2 "D0 D1 P Q D2": Q = disk 3, d0 = 4 -> disk 4 (D2) slot 0, disk 0 (D0) slot 1, disk 1 (D1) slot 2
        assertThat(List.of(la.syndromeSlot(16, 4), la.syndromeSlot(16, 0), la.syndromeSlot(16, 1)))
                .containsExactly(0, 1, 2);
        // DDF: every device counted from disk 0, the slot is the disk index: ROTATING_ZERO_RESTART row 2
        // "D0 D1 P Q D2" -> slots 0, 1, 4
        Raid5Geometry ddf = new Raid5Geometry(6, ALGORITHM_ROTATING_ZERO_RESTART, 5, 8);
        assertThat(ddf.ddfLayout()).isTrue();
        assertThat(List.of(ddf.syndromeSlot(16, 0), ddf.syndromeSlot(16, 1), ddf.syndromeSlot(16, 4)))
                .containsExactly(0, 1, 4);
        assertThatThrownBy(() -> la.syndromeSlot(16, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("disk (2) holds P");
        assertThatThrownBy(() -> new Raid5Geometry(5, 2, 4, 8).syndromeSlot(0, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("raid6 only");
    }

    @Test
    void rejectsWhatSetupConfRejects() {
        assertThatThrownBy(() -> new Raid5Geometry(3, 0, 4, 128)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("level (3)");
        assertThatThrownBy(() -> new Raid5Geometry(5, 8, 4, 128)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("algorithm (8)").hasMessageContaining("algorithm_valid_raid5");
        for (int bad : new int[] {-1, 6, 7, 11, 15, 21}) {
            assertThatThrownBy(() -> new Raid5Geometry(6, bad, 5, 128)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("algorithm (" + bad + ")").hasMessageContaining("algorithm_valid_raid6");
        }
        assertThatThrownBy(() -> new Raid5Geometry(6, 2, 3, 128)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("raidDisks (3)").hasMessageContaining("at least 4");
        assertThatThrownBy(() -> new Raid5Geometry(5, 2, 1, 128)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("raidDisks (1)");
        assertThatThrownBy(() -> new Raid5Geometry(5, 2, 257, 128)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("raidDisks (257)");
        for (long bad : new long[] {0, 4, 12, 24, 1L << 31}) {
            assertThatThrownBy(() -> new Raid5Geometry(5, 2, 4, bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("chunkSectors (" + bad + ")");
        }
        // the edges that are allowed: a 2-disk raid5 (one data disk, P a copy), 8-sector chunks, 4-disk raid6
        assertThat(new Raid5Geometry(5, 2, 2, 8).dataDisks()).isEqualTo(1);
        assertThat(new Raid5Geometry(6, 18, 4, 1L << 30).dataDisks()).isEqualTo(2);
        Raid5Geometry g = new Raid5Geometry(5, 2, 4, 128);
        assertThatThrownBy(() -> g.computeSector(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("arraySector (-1)");
        assertThatThrownBy(() -> g.computeBlockNr(0, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("disk (4)");
        assertThatThrownBy(() -> g.computeBlockNr(Long.MAX_VALUE / 2, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("overflow");
        assertThatThrownBy(() -> g.arraySectors(100)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("componentSectors (100)");
        assertThat(g).isEqualTo(new Raid5Geometry(5, 2, 4, 128)).isNotEqualTo(new Raid5Geometry(5, 3, 4, 128));
    }
}
