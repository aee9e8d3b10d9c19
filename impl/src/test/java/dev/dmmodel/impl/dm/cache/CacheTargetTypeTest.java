package dev.dmmodel.impl.dm.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.dmmodel.dm.CacheTarget;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.impl.dm.table.DmTableException;
import dev.dmmodel.impl.dm.table.DmTableParser;
import dev.dmmodel.impl.dm.table.DmTables;
import dev.dmmodel.layout.LayoutException;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** parse_cache_args / cache_create's argument rules, and dmsetup table text → CacheTarget → text (cache_status). */
class CacheTargetTypeTest {

    static CacheTarget cache(String args) {
        DmTables t = DmTableParser.parse("c: 0 524288 cache " + args + "\n", "t.txt");
        DmTarget target = t.devices().get(0).table().targets().get(0);
        assertThat(target).isInstanceOf(CacheTarget.class);
        return (CacheTarget) target;
    }

    private static String error(String args) {
        return catchThrowableOfType(() -> DmTableParser.parse("c: 0 524288 cache " + args + "\n", "t.txt"),
                DmTableException.class).getMessage();
    }

    @Test
    void theRecordedTable() {
        // cache-wt-w1M-at0: vgk-origin: 0 524288 cache 253:2 253:1 253:3 128 2 metadata2 writethrough smq 0
        CacheTarget c = cache("253:2 253:1 253:3 128 2 metadata2 writethrough smq 0");
        assertThat(c.metadataDevice()).isEqualTo("253:2");
        assertThat(c.cacheDevice()).isEqualTo("253:1");
        assertThat(c.originDevice()).isEqualTo("253:3");
        assertThat(c.blockSectors()).isEqualTo(128);
        assertThat(c.ioMode()).isEqualTo(CacheTarget.IoMode.WRITETHROUGH);
        assertThat(c.metadata2()).isTrue();
        assertThat(c.discardPassdown()).isTrue();
        assertThat(c.policy()).isEqualTo("smq");
        assertThat(c.policyArgs()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "253:2 253:1 253:3 128 2 metadata2 writethrough smq 0",
        // cache_status prints the arguments as given: order and case kept
        "253:2 253:1 253:3 128 3 no_discard_passdown WriteBack metadata2 mq 4 migration_threshold 4096 "
                + "random_threshold 4",
        "8:1 8:2 8:3 2097152 0 cleaner 0",
        "8:1 8:2 8:3 192 1 passthrough default 2 migration_threshold 1",
    })
    void tableTextRoundTrips(String args) {
        assertThat(cache(args).arguments(Function.identity())).isEqualTo(args);
    }

    @Test
    void writebackIsTheDefaultMode() {
        // init_features: CM_IO_WRITEBACK unless a mode is named
        assertThat(cache("8:1 8:2 8:3 128 0 smq 0").ioMode()).isEqualTo(CacheTarget.IoMode.WRITEBACK);
        assertThat(cache("8:1 8:2 8:3 128 1 no_discard_passdown smq 0").discardPassdown()).isFalse();
    }

    @Test
    void constructorErrorsNameTheKernelsText() {
        assertThat(error("8:1 8:2 8:3 128 0")).contains("Insufficient args");
        assertThat(error("8:1 8:2 8:3 100 0 smq 0")).contains("parse_block_size: Invalid data block size");
        assertThat(error("8:1 8:2 8:3 32 0 smq 0")).contains("Invalid data block size");
        assertThat(error("8:1 8:2 8:3 4194304 0 smq 0")).contains("Invalid data block size");
        assertThat(error("8:1 8:2 8:3 128 4 metadata2 writethrough no_discard_passdown writeback smq 0"))
                .contains("Invalid number of cache feature arguments");
        assertThat(error("8:1 8:2 8:3 128 1 fast smq 0")).contains("Unrecognised cache feature requested");
        assertThat(error("8:1 8:2 8:3 128 2 writeback writethrough smq 0"))
                .contains("Duplicate cache io_mode features requested");
        assertThat(error("8:1 8:2 8:3 128 0 smq 3 a b")).contains("Invalid number of policy arguments");
        assertThat(error("8:1 8:2 8:3 128 0 lru 0")).contains("Error creating cache's policy");
        assertThat(error("8:1 8:2 8:3 128 0 smq 1 migration_threshold"))
                .contains("Error setting cache policy's config values");
        assertThat(error("8:1 8:2 8:3 128 0 smq 2 random_threshold 4"))
                .contains("Error setting cache policy's config values");
        assertThat(error("8:1 8:2 8:3 128 0 smq 2 migration_threshold lots"))
                .contains("Error setting cache policy's config values");
    }

    @Test
    void theRecordRefusesWhatTheKernelRefuses() {
        assertThatThrownBy(() -> new CacheTarget(dev.dmmodel.units.Sectors.ZERO, dev.dmmodel.units.Sectors.of(8),
                "a", "b", "c", 96, List.of(), "smq", List.of())).hasMessageContaining("Invalid data block size");
        assertThatThrownBy(() -> new CacheTarget(dev.dmmodel.units.Sectors.ZERO, dev.dmmodel.units.Sectors.of(8),
                "a", "b", "c", 128, List.of("passthrough", "writeback"), "smq", List.of()))
                .hasMessageContaining("Duplicate cache io_mode features requested");
    }

    @Test
    void sizeChecksNameTheKernelsText() {
        // parse_origin_dev: a cached LV longer than its origin; parse_block_size: a block larger than the cache
        assertThatThrownBy(() -> dev.dmmodel.layout.Layout.of(dev.dmmodel.io.DmTables.addTo(CacheStacks.disks(), """
                m: 0 16384 linear /dev/nvme0n1 18432
                d: 0 64 linear /dev/nvme0n1 34816
                o: 0 524288 linear /dev/vda 2048
                c: 0 524288 cache /dev/mapper/m /dev/mapper/d /dev/mapper/o 128 0 smq 0
                """, "t.txt"))).isInstanceOf(LayoutException.class)
                .hasMessageContaining("Data block size is larger than the cache device");
        assertThatThrownBy(() -> dev.dmmodel.layout.Layout.of(dev.dmmodel.io.DmTables.addTo(CacheStacks.disks(), """
                m: 0 16384 linear /dev/nvme0n1 18432
                d: 0 131072 linear /dev/nvme0n1 34816
                o: 0 262144 linear /dev/vda 2048
                c: 0 524288 cache /dev/mapper/m /dev/mapper/d /dev/mapper/o 128 0 smq 0
                """, "t.txt"))).isInstanceOf(LayoutException.class)
                .hasMessageContaining("Device size larger than cached device");
    }
}
