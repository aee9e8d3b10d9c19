package dev.dmmodel.dm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TargetSecretsTest {

    private static final String KEY = "5ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7";

    @Test
    void aCryptKeyBecomesZerosOfItsLength() {
        // crypt_ctr: <cipher> <key> <iv_offset> <device> <offset>; 64 hex digits = a 256-bit key
        assertThat(TargetSecrets.redact("crypt", List.of("aes-xts-plain64", KEY, "0", "254:0", "0")))
                .containsExactly("aes-xts-plain64", "0".repeat(64), "0", "254:0", "0");
        assertThat(TargetSecrets.holdsSecret("crypt", List.of("aes-xts-plain64", KEY, "0", "254:0", "0"))).isTrue();
    }

    @Test
    void aKeyringReferenceAndNoKeyAreKept() {
        List<String> keyring = List.of("aes-xts-plain64", ":64:logon:cryptsetup:8ead3586-d0", "0", "253:0", "32768");
        assertThat(TargetSecrets.redact("crypt", keyring)).isEqualTo(keyring);
        assertThat(TargetSecrets.redact("crypt", List.of("cipher_null", "-", "0", "8:1", "0")))
                .containsExactly("cipher_null", "-", "0", "8:1", "0");
        assertThat(TargetSecrets.holdsSecret("crypt", keyring)).isFalse();
    }

    @Test
    void keyMaterialOutOfPlaceIsZerosToo() {
        // a key repeated where iv_offset belongs: 64 hex digits are no crypt argument but a key
        assertThat(TargetSecrets.redact("crypt", List.of("aes-xts-plain64", KEY, KEY, "254:0", "0")))
                .containsExactly("aes-xts-plain64", "0".repeat(64), "0".repeat(64), "254:0", "0");
    }

    @Test
    void integrityKeysAreZeros() {
        assertThat(TargetSecrets.redact("integrity", List.of("8:1", "0", "32", "J", "2", "journal_crypt:ctr(aes):"
                + KEY, "internal_hash:hmac(sha256):abcd"))).containsExactly("8:1", "0", "32", "J", "2",
                "journal_crypt:ctr(aes):" + "0".repeat(64), "internal_hash:hmac(sha256):0000");
    }

    @Test
    void otherTargetsAreAsGiven() {
        List<String> verity = List.of("1", "8:1", "8:2", "4096", "4096", "262144", "1", "sha256", KEY, KEY);
        // dm-verity's root digest and salt are public
        assertThat(TargetSecrets.redact("verity", verity)).isEqualTo(verity);
    }
}
