package dev.dmmodel.impl.dm.writecache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.WritecacheTarget;
import dev.dmmodel.impl.dm.table.DmTableException;
import dev.dmmodel.impl.dm.table.DmTableParser;
import dev.dmmodel.impl.dm.table.DmTables;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** writecache_ctr's argument rules, and dmsetup table text → WritecacheTarget → text (writecache_status). */
class WritecacheTargetTypeTest {

    /** Targets from table lines. */
    static final class Fixture {
        WritecacheTarget target(String options) {
            return wc("w: 0 524288 writecache s 253:2 253:1 4096 " + options);
        }
    }

    static WritecacheTarget wc(String line) {
        DmTables t = DmTableParser.parse(line + "\n", "t.txt");
        DmTarget target = t.devices().get(0).table().targets().get(0);
        assertThat(target).isInstanceOf(WritecacheTarget.class);
        return (WritecacheTarget) target;
    }

    private static String error(String args) {
        return catchThrowableOfType(() -> DmTableParser.parse("w: 0 524288 writecache " + args + "\n", "t.txt"),
                DmTableException.class).getMessage();
    }

    @Test
    void theRecordedTable() {
        // writecache-w1M-at0: vgk-origin2: 0 524288 writecache s 253:2 253:1 4096 0 (origin first, then the cache)
        WritecacheTarget w = new Fixture().target("0");
        assertThat(w.pmem()).isFalse();
        assertThat(w.originDevice()).isEqualTo("253:2");
        assertThat(w.cacheDevice()).isEqualTo("253:1");
        assertThat(w.blockSize()).isEqualTo(4096);
        assertThat(w.options()).isEqualTo(WritecacheTarget.Options.NONE);
        assertThat(w.arguments(Function.identity())).isEqualTo("s 253:2 253:1 4096 0");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // as given | as writecache_status prints it: start_sector, watermarks, writeback_jobs, autocommit_blocks,
        // autocommit_time, max_age, cleaner, metadata_only, pause_writeback
        "4 low_watermark 40 high_watermark 60|4 high_watermark 60 low_watermark 40",
        "5 cleaner autocommit_time 500 max_age 9000|5 autocommit_time 500 max_age 9000 cleaner",
        "7 pause_writeback 2000 metadata_only writeback_jobs 64 start_sector 8|7 start_sector 8 writeback_jobs 64 "
                + "metadata_only pause_writeback 2000",
        "2 AUTOCOMMIT_BLOCKS 128|2 autocommit_blocks 128",
    })
    void optionalArgumentsComeOutInWritecacheStatusOrder(String given, String printed) {
        assertThat(new Fixture().target(given).arguments(Function.identity())).isEqualTo("s 253:2 253:1 4096 " + printed);
    }

    @Test
    void constructorErrorsNameTheKernelsText() {
        assertThat(error("x 253:2 253:1 4096 0")).contains("writecache_ctr: Bad arguments");
        assertThat(error("s 253:2 253:1 4096")).contains("writecache_ctr: Bad arguments");
        assertThat(error("s 253:2 253:1 3000 0")).contains("writecache_ctr: Invalid block size");
        assertThat(error("s 253:2 253:1 8192 0")).contains("writecache_ctr: Invalid block size");
        assertThat(error("s 253:2 253:1 4096 20")).contains("writecache_ctr: Invalid number of feature args");
        assertThat(error("s 253:2 253:1 4096 1 bogus")).contains("writecache_ctr: Invalid optional argument");
        assertThat(error("s 253:2 253:1 4096 1 high_watermark")).contains("writecache_ctr: Invalid optional argument");
        assertThat(error("s 253:2 253:1 4096 2 high_watermark 101")).contains("writecache_ctr: Invalid optional "
                + "argument");
        assertThat(error("s 253:2 253:1 4096 2 autocommit_time 3600001")).contains("Invalid optional argument");
        assertThat(error("s 253:2 253:1 4096 1 fua")).contains("fua and nofua only in pmem mode");
        assertThat(error("s 253:2 253:1 4096 4 high_watermark 40 low_watermark 45"))
                .contains("High watermark must be greater than or equal to low watermark");
        assertThat(error("p 253:2 253:1 4096 0")).contains("Unable to map persistent memory for cache");
    }
}
