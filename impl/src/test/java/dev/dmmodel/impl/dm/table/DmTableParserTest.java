package dev.dmmodel.impl.dm.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.dmmodel.device.DevNumber;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.ErrorTarget;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.dm.ThinPoolFeature;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.dm.ZeroTarget;
import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DmTableParserTest {

    private static DmTableException error(String text) {
        return catchThrowableOfType(() -> DmTableParser.parse(text, "t.txt"), DmTableException.class);
    }

    private static DmTableException deviceError(String text) {
        return catchThrowableOfType(() -> DmTableParser.parseDevice("dev", text, "t.txt"), DmTableException.class);
    }

    // ------------------------------------------------------------------ what parses

    @Test
    void recordedThinLvmTablesInCreationOrder() {
        // snapshot/dmsetup-table.txt of thin-lvm-zy-direct1M; numbers from its block/dm-N/{dev,dm/name}
        String text = """
                vgt-pool: 0 524288 linear 253:2 0
                vgt-pool-tpool: 0 524288 thin-pool 253:0 253:1 2048 0 0\s
                vgt-pool_tdata: 0 524288 linear 8:0 10240
                vgt-pool_tmeta: 0 8192 linear 8:0 534528
                vgt-thin: 0 131072 thin 253:2 1
                """;
        Map<String, DevNumber> numbers = Map.of("sda", new DevNumber(8, 0), "vgt-pool_tmeta", new DevNumber(253, 0),
                "vgt-pool_tdata", new DevNumber(253, 1), "vgt-pool-tpool", new DevNumber(253, 2),
                "vgt-pool", new DevNumber(253, 3), "vgt-thin", new DevNumber(253, 4));
        DmTables t = DmTableParser.parse(text, "t.txt", numbers);
        // tdata and tmeta first (line 3 before line 4), then the pool, then the two users of the pool by line
        assertThat(t.devices()).extracting(DmTables.Device::name).containsExactly("vgt-pool_tdata",
                "vgt-pool_tmeta", "vgt-pool-tpool", "vgt-pool", "vgt-thin");
        assertThat(t.device("vgt-pool-tpool").orElseThrow().table().targets()).containsExactly(new ThinPoolTarget(
                Sectors.ZERO, Sectors.of(524288), "vgt-pool_tmeta", "vgt-pool_tdata", 2048, 0, Set.of()));
        assertThat(t.device("vgt-thin").orElseThrow().dependencies()).containsExactly("vgt-pool-tpool");
        assertThat(t.device("vgt-pool_tmeta").orElseThrow().table().targets()).containsExactly(
                new LinearTarget(Sectors.ZERO, Sectors.of(8192), "sda", Sectors.of(534528)));
        assertThat(t.device("vgt-pool_tmeta").orElseThrow().line()).isEqualTo(4);
    }

    @Test
    void withoutNumbersReferencesStayAsWritten() {
        DmTables t = DmTableParser.parse("a: 0 8 linear 08:016 0\nb: 0 8 linear 253:0 0\n", "t.txt");
        assertThat(t.device("a").orElseThrow().references()).containsExactly("8:16");
        assertThat(t.device("b").orElseThrow().references()).containsExactly("253:0");
        assertThat(t.device("b").orElseThrow().dependencies()).isEmpty();
    }

    @Test
    void noDevicesFoundAndNothingAreNoDevice() {
        assertThat(DmTableParser.parse("No devices found\n", "t.txt").isEmpty()).isTrue();
        assertThat(DmTableParser.parse("", "t.txt").isEmpty()).isTrue();
        assertThat(DmTableFormatter.tables(DmTableParser.parse("", "t.txt"), Map.of())).isEqualTo("No devices found\n");
    }

    @Test
    void handWrittenTableWithPathsNamesAndComments() {
        String text = """
                # dmsetup create vg-top
                0 2048 linear /dev/sdb 2048

                2048 1024 linear /dev/mapper/vg-a 0
                3072 4096 striped 2 128 /dev/sdb 8192 8:32 0
                7168 8 zero
                7176 8 error
                """;
        DmTables t = DmTableParser.parseDevice("vg-top", text, "top.table");
        DmTable table = t.device("vg-top").orElseThrow().table();
        assertThat(table.targets()).containsExactly(
                new LinearTarget(Sectors.ZERO, Sectors.of(2048), "/dev/sdb", Sectors.of(2048)),
                new LinearTarget(Sectors.of(2048), Sectors.of(1024), "/dev/mapper/vg-a", Sectors.ZERO),
                new StripedTarget(Sectors.of(3072), Sectors.of(4096), 128, List.of(
                        new StripedTarget.Stripe("/dev/sdb", Sectors.of(8192)),
                        new StripedTarget.Stripe("8:32", Sectors.ZERO))),
                new ZeroTarget(Sectors.of(7168), Sectors.of(8)),
                new ErrorTarget(Sectors.of(7176), Sectors.of(8)));
        // with numbers for sdb and the text's dm devices, /dev/NAME and /dev/mapper/NAME become names
        DmTables named = DmTableParser.parse("vg-a: 0 1024 linear /dev/sdb 0\nvg-top: 0 1024 linear /dev/mapper/vg-a 0\n",
                "t.txt", Map.of("sdb", new DevNumber(8, 16)));
        assertThat(named.device("vg-a").orElseThrow().references()).containsExactly("sdb");
        assertThat(named.device("vg-top").orElseThrow().dependencies()).containsExactly("vg-a");
    }

    @Test
    void aDeviceUsedByNameComesAfterIt() {
        // "a-thin" sorts first but uses "z-pool"
        DmTables t = DmTableParser.parse("a-thin: 0 8 thin /dev/mapper/z-pool 1\n"
                + "z-pool: 0 1024 thin-pool 8:0 8:16 128 0\n", "t.txt");
        assertThat(t.devices()).extracting(DmTables.Device::name).containsExactly("z-pool", "a-thin");
    }

    @Test
    void thinPoolFeatures() {
        // parse_pool_features: strcasecmp, duplicates allowed, at most 4 words; words past them are ignored
        DmTables t = DmTableParser.parse("p: 0 1024 thin-pool 8:0 8:16 256 10 4 NO_DISCARD_PASSDOWN "
                + "skip_block_zeroing read_only skip_block_zeroing extra words\n", "t.txt");
        ThinPoolTarget pool = (ThinPoolTarget) t.device("p").orElseThrow().table().targets().get(0);
        assertThat(pool.features()).containsExactlyInAnyOrder(ThinPoolFeature.NO_DISCARD_PASSDOWN,
                ThinPoolFeature.SKIP_BLOCK_ZEROING, ThinPoolFeature.READ_ONLY);
        assertThat(pool.blockSectors()).isEqualTo(256);
        assertThat(pool.lowWaterMark()).isEqualTo(10);
        // emit_flags: the count, then skip_block_zeroing, ignore_discard, no_discard_passdown, read_only,
        // error_if_no_space, each followed by a blank
        assertThat(DmTableFormatter.tables(t, Map.of()))
                .isEqualTo("p: 0 1024 thin-pool 8:0 8:16 256 10 3 skip_block_zeroing no_discard_passdown read_only \n");
        // four arguments: no feature count at all (pool_ctr: argc >= 4)
        DmTables bare = DmTableParser.parse("p: 0 1024 thin-pool 8:0 8:16 128 0\n", "t.txt");
        assertThat(DmTableFormatter.tables(bare, Map.of())).isEqualTo("p: 0 1024 thin-pool 8:0 8:16 128 0 0 \n");
    }

    @Test
    void thinWithExternalOriginZeroAndErrorAsTheKernelPrintsThem() {
        DmTables t = DmTableParser.parse("e: 0 8 error\nt: 0 2048 thin 253:0 16777215 8:1\nz: 0 8 zero\n",
                "t.txt");
        assertThat(t.device("t").orElseThrow().table().targets()).containsExactly(
                new ThinTarget(Sectors.ZERO, Sectors.of(2048), "253:0", 16777215, Optional.of("8:1")));
        // dmsetup prints "%llu %llu %s %s": a blank after the type even without parameters
        assertThat(DmTableFormatter.tables(t, Map.of()))
                .isEqualTo("e: 0 8 error \nt: 0 2048 thin 253:0 16777215 8:1\nz: 0 8 zero \n");
    }

    @Test
    void errorTargetArgumentsAreIgnoredAsIoErrCtrDoes() {
        DmTables t = DmTableParser.parse("e: 0 8 error 8:0 0\n", "t.txt");
        assertThat(t.device("e").orElseThrow().table().targets()).containsExactly(new ErrorTarget(Sectors.ZERO,
                Sectors.of(8)));
    }

    // ------------------------------------------------------------------ what the kernel refuses

    // ------------------------------------------------------------------ targets the model does not implement

    /** A key as {@code dmsetup table --showkeys} prints it: 64 hex digits, planted to be looked for. */
    private static final String KEY = "5ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7";

    @Test
    void anUnknownTargetTypeIsKeptAsAnOpaqueTargetWithItsDevices() {
        // dm-delay's arguments: device offset delay; the device is 8:1, written as the kernel prints it, and stays
        // major:minor here (no device numbers given)
        DmTables t = DmTableParser.parse("a: 0 8 zero\nslow: 0 2048 delay 8:1 4096 100\n", "t.txt");
        DmTarget target = t.device("slow").orElseThrow().table().targets().get(0);
        assertThat(target).isInstanceOf(dev.dmmodel.dm.OpaqueTarget.class);
        dev.dmmodel.dm.OpaqueTarget o = (dev.dmmodel.dm.OpaqueTarget) target;
        assertThat(o.type()).isEqualTo("delay");
        assertThat(o.devices()).containsExactly("8:1");
        assertThat(o.deviceArgs()).containsExactly(0);
        assertThat(o.args()).containsExactly("8:1", "4096", "100");
        assertThat(o.limits()).isEmpty();
    }

    @Test
    void aCryptLineIsACryptTargetWithoutItsKey() {
        // crypt_ctr's arguments: cipher key iv_offset device offset [#opt opts]
        DmTables t = DmTableParser.parse("a: 0 8 zero\nsecret: 0 2048 crypt aes-xts-plain64 " + KEY
                + " 0 8:1 4096 1 allow_discards\n", "t.txt");
        dev.dmmodel.dm.CryptTarget c = (dev.dmmodel.dm.CryptTarget) t.device("secret").orElseThrow().table()
                .targets().get(0);
        assertThat(c.devices()).containsExactly("8:1");
        // the key is zeros of its length, as dmsetup table prints it without --showkeys
        assertThat(c.arguments(java.util.function.Function.identity())).isEqualTo("aes-xts-plain64 "
                + "0".repeat(64) + " 0 8:1 4096 1 allow_discards");
        assertThat(c.toString()).doesNotContain(KEY);
    }

    @Test
    void aKeyNeverReachesAMessageEvenOfAMalformedLine() {
        // a line without "name: " is refused with the line quoted, and the key in it is zeros already
        DmTableException e = error("secret 0 2048 crypt aes-xts-plain64 " + KEY + " 0 8:1 0\n");
        assertThat(e.getMessage()).doesNotContain(KEY).doesNotContain("5ec7e7").contains("crypt aes-xts-plain64 000000");
        // a crypt line with a bad length
        DmTableException len = error("secret: 0 0 crypt aes-xts-plain64 " + KEY + " 0 8:1 0\n");
        assertThat(len.getMessage()).doesNotContain(KEY);
        // found by DmTableFuzzTest: a line whose "crypt" word is gone, and one whose key ran into the cipher
        DmTableException noType = error("secret: 0 0 2048 aes-xts-plain64 " + KEY + " 0 8:1 0\n");
        assertThat(noType.getMessage()).doesNotContain("5ec7e7").contains("aes-xts-plain64 " + "0".repeat(64));
        DmTableException fused = error("secret: 0 2048 crypt aes-xts-plain64" + KEY + " 0 8:1 0\n");
        assertThat(fused.getMessage()).doesNotContain("5ec7e7");
    }

    @Test
    void aKeyringReferenceIsNoSecretAndIsKept() {
        DmTables t = DmTableParser.parse("cluks: 0 491520 crypt aes-xts-plain64 "
                + ":64:logon:cryptsetup:8ead3586-6e7a-483c-90fe-647eb0c20efa-d0 0 8:1 32768 1 sector_size:4096\n",
                "t.txt");
        dev.dmmodel.dm.CryptTarget c = (dev.dmmodel.dm.CryptTarget) t.device("cluks").orElseThrow().table()
                .targets().get(0);
        assertThat(c.key()).isEqualTo(":64:logon:cryptsetup:8ead3586-6e7a-483c-90fe-647eb0c20efa-d0");
    }

    @Test
    void integrityKeysAreZerosToo() {
        DmTables t = DmTableParser.parse("i: 0 8 integrity 8:1 0 32 J 1 journal_crypt:ctr(aes):" + KEY + "\n",
                "t.txt");
        dev.dmmodel.dm.OpaqueTarget o = (dev.dmmodel.dm.OpaqueTarget) t.device("i").orElseThrow().table()
                .targets().get(0);
        assertThat(o.args()).last().isEqualTo("journal_crypt:ctr(aes):" + "0".repeat(64));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // linear_ctr
        "a: 0 8 linear 8:0|1:8|found 1 argument(s) in 'a: 0 8 linear 8:0'; expected 'linear <device> <offset>'",
        "a: 0 8 linear 8:0 0 1|1:8|found 3 argument(s) in 'a: 0 8 linear 8:0 0 1'; expected 'linear <device> <offset>'",
        "a: 0 8 linear 8:0 -1|1:19|found '-1' in 'a: 0 8 linear 8:0 -1'; expected the offset in sectors, a non-negative decimal number",
        "a: 0 8 linear 8: 0|1:15|found device '8:' in 'a: 0 8 linear 8: 0'; expected a device as major:minor",
        "a: 0 8 linear 4096:0 0|1:15|found device '4096:0' in 'a: 0 8 linear 4096:0 0'; expected a device as major:minor, major at most 4095 and minor at most 1048575 (MKDEV)",
        "a: 0 8 linear 8:0 9223372036854775800|1:19|found '9223372036854775800' in 'a: 0 8 linear 8:0 9223372036854775800'; expected an offset that, with the length of 8 sectors, ends at most at sector 9223372036854775807 (the model's range)",
        // stripe_ctr, in its order
        "a: 0 256 striped 0 128|1:18|found '0' in 'a: 0 256 striped 0 128'; expected the number of stripes, from 1 to 4294967295 (stripe_ctr: Invalid stripe count)",
        "a: 0 256 striped 2 0 8:0 0 8:16 0|1:20|found '0' in 'a: 0 256 striped 2 0 8:0 0 8:16 0'; expected the chunk size in sectors, from 1 to 4294967295 (stripe_ctr: Invalid chunk_size)",
        "a: 0 251 striped 2 128 8:0 0 8:16 0|1:10|found a striped target that is not valid (striped target: length (251 sectors) is not divisible by the number of stripes (2)) in 'a: 0 251 striped 2 128 8:0 0 8:16 0'; expected a target the kernel accepts",
        "a: 0 384 striped 2 128 8:0 0 8:16 0|1:10|found a striped target that is not valid (striped target: stripe width (192 sectors) is not divisible by the chunk size (128 sectors)) in 'a: 0 384 striped 2 128 8:0 0 8:16 0'; expected a target the kernel accepts",
        "a: 0 512 striped 2 128 8:0 0|1:10|found 4 argument(s) in 'a: 0 512 striped 2 128 8:0 0'; expected 'striped <#stripes> <chunk sectors> (<device> <offset>)...'",
        "a: 0 16 striped 2 4 8:0 0 8:16 0|1:19|found chunk size 4 sectors in 'a: 0 16 striped 2 4 8:0 0 8:16 0'; expected a chunk size of at least 8 sectors: stripe_ctr takes any from 1, but the model's striped target needs a whole page",
        // pool_ctr and parse_pool_features
        "p: 0 1024 thin-pool 8:0 8:16 128|1:11|found 3 argument(s) in 'p: 0 1024 thin-pool 8:0 8:16 128'; expected 'thin-pool <metadata device> <data device> <block sectors> <low water mark> [<#features> <feature>...]'",
        "p: 0 1024 thin-pool 8:0 8:0 128 0|1:25|found the same device '8:0' for metadata and data in 'p: 0 1024 thin-pool 8:0 8:0 128 0'; expected two different devices (pool_ctr: Error setting metadata or data device)",
        "p: 0 1024 thin-pool 8:0 8:16 128 0 5 a b c d e|1:36|found '5' in 'p: 0 1024 thin-pool 8:0 8:16 128 0 5 a b c d e'; expected the number of feature words, 0 to 4 (parse_pool_features: Invalid number of pool feature arguments)",
        "p: 0 1024 thin-pool 8:0 8:16 128 0 2 read_only|1:11|found 6 argument(s) in 'p: 0 1024 thin-pool 8:0 8:16 128 0 2 read_only'; expected 'thin-pool <metadata device> <data device> <block sectors> <low water mark> [<#features> <feature>...]'",
        "p: 0 1024 thin-pool 8:0 8:16 128 0 1 zero|1:38|found thin-pool feature 'zero' in 'p: 0 1024 thin-pool 8:0 8:16 128 0 1 zero'; expected one of skip_block_zeroing, ignore_discard, no_discard_passdown, read_only, error_if_no_space",
        "p: 0 1024 thin-pool 8:0 8:16 64 0|1:30|found '64' in 'p: 0 1024 thin-pool 8:0 8:16 64 0'; expected the block size in sectors, a multiple of 128 from 128 to 2097152 (pool_ctr: Invalid block size)",
        "p: 0 1024 thin-pool 8:0 8:16 192 0|1:30|found '192' in 'p: 0 1024 thin-pool 8:0 8:16 192 0'; expected the block size in sectors, a multiple of 128 from 128 to 2097152 (pool_ctr: Invalid block size)",
        "p: 0 1024 thin-pool 8:0 8:16 2097280 0|1:30|found '2097280' in 'p: 0 1024 thin-pool 8:0 8:16 2097280 0'; expected the block size in sectors, a multiple of 128 from 128 to 2097152 (pool_ctr: Invalid block size)",
        // thin_ctr
        "t: 0 8 thin 253:0|1:8|found 1 argument(s) in 't: 0 8 thin 253:0'; expected 'thin <pool device> <device id> [<external origin device>]'",
        "t: 0 8 thin 253:0 16777216|1:19|found '16777216' in 't: 0 8 thin 253:0 16777216'; expected the thin device id, from 0 to 16777215 (thin_ctr: Invalid device id)",
        "t: 0 8 thin 253:0 1 253:0|1:21|found the pool '253:0' as external origin in 't: 0 8 thin 253:0 1 253:0'; expected an origin other than the pool (thin_ctr: Error setting origin device)",
        // zero_ctr
        "z: 0 8 zero 1|1:8|found 1 argument(s) in 'z: 0 8 zero 1'; expected 'zero (no arguments)'",
        // the line
        "a 0 8 zero|1:1|found 'a 0 8 zero'; expected '<dm name>: <start> <length> <target> <args...>'",
        "a: 0 8|1:1|found 'a: 0 8'; expected '<dm name>: <start> <length> <target> <args...>'",
        "a:|1:1|found device 'a' without a table; expected a device with a live table, '<dm name>: <start> <length> <target> <args...>'",
        "a: +0 8 zero|1:4|found '+0' in 'a: +0 8 zero'; expected the target's start sector, a non-negative decimal number",
        "a: 0 0 zero|1:6|found length 0 in 'a: 0 0 zero'; expected a target of at least one sector (the kernel refuses a zero-length target)",
        "a: 0 99999999999999999999 zero|1:6|found '99999999999999999999' in 'a: 0 99999999999999999999 zero'; expected the target's length in sectors, a non-negative decimal number of at most 9223372036854775807 (the model's range)",
        "a: 9223372036854775807 1 zero|1:24|found a target ending beyond sector 9223372036854775807 in 'a: 9223372036854775807 1 zero'; expected a start and length whose sum is at most 9223372036854775807 (the model's sector range)",
        "vg/lv: 0 8 zero|1:1|found dm name 'vg/lv' with a '/' in 'vg/lv: 0 8 zero'; expected a device-mapper name: 1 to 127 characters, no '/', no blank",
        "a: 0 8 linear a\\ b 0|1:15|found 'a\\' in 'a: 0 8 linear a\\ b 0'; expected arguments without backslash escapes (dm_split_args unescapes them; the model's targets take none)",
    })
    void kernelRulesAsMessages(String text, String where, String message) {
        DmTableException e = error(text.replace("\\\\", "\\"));
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).isEqualTo("t.txt:" + where + ": " + message.replace("\\\\", "\\"));
    }

    @Test
    void dmTableAddTargetRules() {
        // adjoin(): the first target at 0, each where the one before ends
        assertThat(error("a: 8 8 zero\n")).hasMessage("t.txt:1: found a table for a that is not valid (dm table: "
                + "Gap in table: target zero starts at sector 8, expected 0); expected the lines of one device back to "
                + "back from sector 0");
        assertThat(error("a: 0 8 zero\na: 4 8 zero\n")).hasMessageContaining("target zero starts at sector 4, "
                + "expected 8");
        // DM_TARGET_SINGLETON
        assertThat(error("p: 0 1024 thin-pool 8:0 8:16 128 0\np: 1024 8 zero\n")).hasMessage("t.txt:1:11: found a "
                + "thin-pool target beside 1 other target(s) in the table of p in 'p: 0 1024 thin-pool 8:0 8:16 128 0'; "
                + "expected a thin-pool target alone in its table (dm_table_add_target: singleton target type must "
                + "appear alone in table)");
        // a table file without targets (populate_table: "no targets specified")
        assertThat(deviceError("# nothing\n")).hasMessage("t.txt: found no target line for 'dev'; expected at least "
                + "one line '<start> <length> <target> <args...>'");
        // a name line in a file of one device
        assertThat(deviceError("dev: 0 8 zero")).hasMessage("t.txt:1:1: found 'dev:' in 'dev: 0 8 zero'; expected "
                + "the target's start sector, a non-negative decimal number");
    }

    @Test
    void devicesBetweenTables() {
        // thin_ctr: the pool of the text must be a thin-pool
        assertThat(error("l: 0 1024 linear 8:0 0\nt: 0 8 thin /dev/mapper/l 1\n")).hasMessage("t.txt:2:13: found "
                + "pool device 'l', whose table is linear, in 't: 0 8 thin /dev/mapper/l 1'; expected a thin-pool device "
                + "(thin_ctr: Couldn't find pool object)");
        // a device created from itself, two devices created from each other
        assertThat(error("a: 0 8 linear /dev/mapper/b 0\nb: 0 8 linear /dev/mapper/a 0\nc: 0 8 zero\n"))
                .hasMessage("t.txt:1: found dm devices that use each other in a cycle: a, b; expected tables in which "
                        + "every dm device uses only devices that can be created before it");
        assertThat(error("a: 0 8 linear /dev/mapper/a 0\n")).hasMessageContaining("in a cycle: a;");
    }
}
