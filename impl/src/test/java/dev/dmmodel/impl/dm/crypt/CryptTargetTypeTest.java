package dev.dmmodel.impl.dm.crypt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.dmmodel.dm.CryptTarget;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.impl.dm.table.DmTableException;
import dev.dmmodel.impl.dm.table.DmTableParser;
import dev.dmmodel.impl.dm.table.DmTables;
import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** crypt_ctr and crypt_ctr_optional's argument rules, and dmsetup table text → CryptTarget → text. */
class CryptTargetTypeTest {

    /** A key as {@code dmsetup table --showkeys} prints it: 64 hex digits, planted to be looked for. */
    private static final String KEY = "5ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7";

    private static CryptTarget crypt(String line) {
        DmTables t = DmTableParser.parse(line + "\n", "t.txt");
        DmTarget target = t.devices().get(0).table().targets().get(0);
        assertThat(target).isInstanceOf(CryptTarget.class);
        return (CryptTarget) target;
    }

    private static DmTableException error(String line) {
        return catchThrowableOfType(() -> DmTableParser.parse(line + "\n", "t.txt"), DmTableException.class);
    }

    @Test
    void aPlainTableAsRecorded() {
        // crypt-plain512-w1M-at0: cplain: 0 2097152 crypt aes-xts-plain64 <64 zeros> 0 254:0 0
        CryptTarget c = crypt("cplain: 0 2097152 crypt aes-xts-plain64 " + "0".repeat(64) + " 0 254:0 0");
        assertThat(c).isEqualTo(new CryptTarget(Sectors.ZERO, Sectors.of(2097152), "aes-xts-plain64",
                "0".repeat(64), Sectors.ZERO, "254:0", Sectors.ZERO, 512, false, false, List.of()));
        assertThat(c.optionalArguments()).isEmpty();
    }

    @Test
    void aLuks2TableWithAKeyringKeyAndOptions() {
        // crypt-luks4k-lv-w1M-at0: the LUKS2 data offset 32768 is the offset argument; sector_size:4096
        CryptTarget c = crypt("cluks: 0 491520 crypt aes-xts-plain64 "
                + ":64:logon:cryptsetup:8ead3586-6e7a-483c-90fe-647eb0c20efa-d0 0 253:0 32768 1 sector_size:4096");
        assertThat(c.key()).isEqualTo(":64:logon:cryptsetup:8ead3586-6e7a-483c-90fe-647eb0c20efa-d0");
        assertThat(c.offset()).isEqualTo(Sectors.of(32768));
        assertThat(c.sectorSize()).isEqualTo(4096);
        assertThat(c.allowDiscards()).isFalse();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // as recorded (crypt_status prints the options in its own order)
        "aes-xts-plain64 " + "0000000000000000000000000000000000000000000000000000000000000000"
                + " 0 254:0 0 2 allow_discards sector_size:4096",
        "aes-xts-plain64 :64:logon:cryptsetup:aa0f0004-3d9a-4c9b-8841-c57cb413a3c1-d0 0 253:0 32768 1 allow_discards",
        "aes-cbc-essiv:sha256 - 8 8:1 2048 4 same_cpu_crypt no_read_workqueue sector_size:4096 iv_large_sectors",
        "capi:xts(aes)-plain64 0000000000000000000000000000000000000000000000000000000000000000 0 8:1 0",
    })
    void tableTextRoundTrips(String args) {
        CryptTarget c = crypt("c: 0 2048 crypt " + args);
        assertThat(c.arguments(Function.identity())).isEqualTo(args);
    }

    @Test
    void optionsComeOutInCryptStatusOrderAndSectorSize512IsTheDefault() {
        // crypt_status: allow_discards, the flags, sector_size (only if not 512), iv_large_sectors; flags are
        // compared with strcasecmp, so ALLOW_DISCARDS is allow_discards
        CryptTarget c = crypt("c: 0 2048 crypt aes-xts-plain64 - 0 8:1 0 4 iv_large_sectors sector_size:512"
                + " no_write_workqueue ALLOW_DISCARDS");
        assertThat(c.arguments(Function.identity()))
                .isEqualTo("aes-xts-plain64 - 0 8:1 0 3 allow_discards no_write_workqueue iv_large_sectors");
    }

    @Test
    void aHexKeyIsNeverKept() {
        CryptTarget c = crypt("secret: 0 2048 crypt aes-xts-plain64 " + KEY + " 0 8:1 0");
        assertThat(c.key()).isEqualTo("0".repeat(64));
        assertThat(c.toString()).doesNotContain(KEY).doesNotContain("5ec7e7");
        assertThat(c.arguments(Function.identity())).doesNotContain("5ec7e7");
        // made directly, too
        CryptTarget direct = new CryptTarget(Sectors.ZERO, Sectors.of(8), "aes-xts-plain64", KEY, Sectors.ZERO,
                "sda", Sectors.ZERO, 512, false, false, List.of());
        assertThat(direct.key()).isEqualTo("0".repeat(64));
        assertThat(direct.toString()).doesNotContain("5ec7e7");
    }

    @Test
    void errorsNeverShowTheKey() {
        DmTableException e = error("secret: 0 2048 crypt aes-xts-plain64 " + KEY + " 0 8:1 0 1 bogus");
        assertThat(e.getMessage()).doesNotContain("5ec7e7").contains("Invalid feature arguments");
        DmTableException few = error("secret: 0 2048 crypt aes-xts-plain64 " + KEY + " 0 8:1");
        assertThat(few.getMessage()).doesNotContain("5ec7e7").contains("Not enough arguments");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // crypt_ctr: argc < 5
        "c: 0 2048 crypt aes-xts-plain64 - 0 8:1|Not enough arguments",
        // get_key_size: ':' then %u then ':'
        "c: 0 2048 crypt aes-xts-plain64 :x:logon:k 0 8:1 0|Cannot parse key size",
        // crypt_set_keyring_key: the type must be logon, user, encrypted or trusted
        "c: 0 2048 crypt aes-xts-plain64 :64:bogus:k 0 8:1 0|Error decoding and setting key",
        // crypt_decode_key: hex digits, two per byte
        "c: 0 2048 crypt aes-xts-plain64 000 0 8:1 0|Error decoding and setting key",
        // dm_read_arg_group: {0, 9}
        "c: 0 2048 crypt aes-xts-plain64 - 0 8:1 0 10 a b c d e f g h i j|Invalid number of feature args",
        // more counted than given
        "c: 0 2048 crypt aes-xts-plain64 - 0 8:1 0 2 allow_discards|Invalid number of feature args",
        "c: 0 2048 crypt aes-xts-plain64 - 0 8:1 0 1 discards|Invalid feature arguments",
        // 1000 is not a power of two; 8192 is above 4096; 256 below 512
        "c: 0 2048 crypt aes-xts-plain64 - 0 8:1 0 1 sector_size:1000|Invalid feature value for sector_size",
        "c: 0 2048 crypt aes-xts-plain64 - 0 8:1 0 1 sector_size:8192|Invalid feature value for sector_size",
        "c: 0 2048 crypt aes-xts-plain64 - 0 8:1 0 1 sector_size:256|Invalid feature value for sector_size",
        // 2049 sectors is not a whole number of 8-sector (4096-byte) crypt sectors
        "c: 0 2049 crypt aes-xts-plain64 - 0 8:1 0 1 sector_size:4096|Device size is not multiple of sector_size feature",
        // MAX_TAG_SIZE is 480
        "c: 0 2048 crypt aes-xts-plain64 - 0 8:1 0 1 integrity:481:aead|Invalid integrity arguments",
        "c: 0 2048 crypt aes-xts-plain64 - x 8:1 0|Invalid iv_offset sector",
        // with 4096-byte sectors the iv_offset must be a multiple of 8 sectors: 4 is not
        "c: 0 2048 crypt aes-xts-plain64 - 4 8:1 0 1 sector_size:4096|Invalid iv_offset sector",
        "c: 0 2048 crypt aes-xts-plain64 - 0 8:1 -1|Invalid device sector",
        "c: 0 2048 crypt -xts-plain64 - 0 8:1 0|Bad cipher specification",
    })
    void whatCryptCtrRefuses(String line, String kernelError) {
        DmTableException e = error(line);
        assertThat(e).as(line).isNotNull();
        assertThat(e.getMessage()).contains(kernelError).contains("t.txt:1:");
    }

    @Test
    void theErrorNamesTheColumnOfTheArgument() {
        // "c: 0 2048 crypt aes-xts-plain64 - 0 8:1 0 1 sector_size:1000": sector_size:1000 starts at column 45
        DmTableException e = error("c: 0 2048 crypt aes-xts-plain64 - 0 8:1 0 1 sector_size:1000");
        assertThat(e.getMessage()).startsWith("t.txt:1:45:").contains("'sector_size:1000'");
    }
}
