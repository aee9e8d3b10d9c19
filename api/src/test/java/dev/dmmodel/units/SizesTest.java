package dev.dmmodel.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SizesTest {

    @ParameterizedTest(name = "{0} = {1} bytes")
    @CsvSource({
        "512, 512",
        "2048s, 1048576",
        "4KiB, 4096",
        "1MiB, 1048576",
        "100G, 107374182400",
        "100g, 107374182400",
        "1GB, 1000000000",
        "1kB, 1000",
        "1.5g, 1610612736",
        "64k, 65536",
        "7e, 8070450532247928832",
        "' 8 KiB ', 8192"
    })
    void parsesTheFormsUsersWrite(String text, long bytes) {
        assertThat(Bytes.parse(text).count()).isEqualTo(bytes);
    }

    @Test
    void bareNumbersTakeTheCallersUnit() {
        // lvcreate -L 100 means 100 MiB; --dataalignment 64 means 64 KiB
        assertThat(Bytes.parse("100", SizeUnit.MIB)).isEqualTo(Bytes.mib(100));
        assertThat(Bytes.parse("64", SizeUnit.KIB)).isEqualTo(Bytes.kib(64));
        assertThat(Sectors.parse("2048")).isEqualTo(Sectors.of(2048));
        assertThat(Sectors.parse("1MiB")).isEqualTo(Sectors.of(2048));
    }

    @Test
    void badSizesNameTheValue() {
        assertThatThrownBy(() -> Bytes.parse("-1G")).isInstanceOf(SizeException.class)
                .hasMessage("size '-1G' must not be negative");
        assertThatThrownBy(() -> Bytes.parse("1.0000001k")).isInstanceOf(SizeException.class)
                .hasMessage("size '1.0000001k' is not a whole number of bytes");
        assertThatThrownBy(() -> Bytes.parse("8e")).isInstanceOf(SizeException.class)
                .hasMessage("size '8e' is too large (more than 9223372036854775807 bytes)");
        assertThatThrownBy(() -> Bytes.parse("12q")).isInstanceOf(SizeException.class)
                .hasMessage("size '12q' has an unknown unit 'q' (expected s, b, k/m/g/t/p/e, KiB..EiB or kB..EB)");
        assertThatThrownBy(() -> Bytes.parse("")).isInstanceOf(SizeException.class)
                .hasMessage("'' is not a size: expected a number with an optional unit");
        assertThatThrownBy(() -> Bytes.parse("1.2.3k")).isInstanceOf(SizeException.class)
                .hasMessage("'1.2.3k' is not a size: bad number '1.2.3'");
        assertThatThrownBy(() -> Sectors.parse("1000b")).isInstanceOf(SizeException.class)
                .hasMessage("1000 bytes is not a whole number of 512-byte sectors");
        assertThatThrownBy(() -> Bytes.parse(null)).isInstanceOf(SizeException.class);
    }

    @Test
    void arithmeticIsExact() {
        assertThat(Sectors.of(2048).toBytes()).isEqualTo(Bytes.mib(1));
        assertThat(Sectors.of(10).minus(Sectors.of(4))).isEqualTo(Sectors.of(6));
        assertThatThrownBy(() -> Sectors.of(4).minus(Sectors.of(10))).isInstanceOf(SizeException.class)
                .hasMessage("4 - 10 sectors would be negative");
        assertThatThrownBy(() -> Sectors.of(Long.MAX_VALUE / 256).toBytes()).isInstanceOf(SizeException.class)
                .hasMessageStartingWith("sectors to bytes overflows: ");
        assertThatThrownBy(() -> Sectors.of(Long.MAX_VALUE).plus(1)).isInstanceOf(SizeException.class)
                .hasMessage("sector sum overflows: 9223372036854775807 + 1");
        assertThatThrownBy(() -> Sectors.of(-1)).isInstanceOf(SizeException.class)
                .hasMessage("sector count (-1) must not be negative");
    }

    @Test
    void formatsWithTheLargestExactUnit() {
        assertThat(Sizes.format(1048576)).isEqualTo("1MiB");
        assertThat(Sizes.format(458752)).isEqualTo("448KiB");
        assertThat(Sizes.format(33280)).isEqualTo("32.5KiB");
        assertThat(Sizes.format(1000)).isEqualTo("1000B");
        assertThat(Sizes.format(0)).isEqualTo("0B");
    }
}
