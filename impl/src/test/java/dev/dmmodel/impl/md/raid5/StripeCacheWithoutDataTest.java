package dev.dmmodel.impl.md.raid5;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The engine's stripe cache keeps no contents: the same I/O as with the data model, and no reads of contents. */
class StripeCacheWithoutDataTest {

    @Test
    void theIoIsTheSameWithoutTheDataModel() {
        for (long seed = 1; seed <= 50; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            int level = 5 + r.nextInt(2);
            Raid5Geometry g = new Raid5Geometry(level, r.nextInt(4), level == 6 ? 4 + r.nextInt(3) : 3 + r.nextInt(3),
                    8L << r.nextInt(5));
            long component = 64 * g.chunkSectors();
            StripeCache with = new StripeCache(g, 17 + r.nextInt(40), component, true);
            StripeCache without = new StripeCache(g, with.stripeCacheSize(), component, false);
            long array = g.arraySectors(component);
            for (int step = 0; step < 30; step++) {
                long len = 1 + r.nextLong(Math.min(array, 4 * g.stripeDataSectors()));
                long at = r.nextLong(array - len + 1);
                with.addWrite(at, len);
                without.addWrite(at, len);
                if (r.nextInt(3) == 0) {
                    assertThat(without.handle()).as("seed %d step %d", seed, step).isEqualTo(with.handle());
                }
            }
            assertThat(without.handle()).as("seed %d", seed).isEqualTo(with.handle());
            assertThat(without.stats()).isEqualTo(with.stats());
        }
        StripeCache none = new StripeCache(new Raid5Geometry(5, 2, 3, 128), 256, 1024, false);
        assertThatThrownBy(() -> none.readArray(0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("keeps no member contents");
    }
}
