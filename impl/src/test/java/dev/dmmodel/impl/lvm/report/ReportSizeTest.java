package dev.dmmodel.impl.lvm.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.impl.lvm.report.ReportSize.Context;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReportSizeTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "2048S|ANY|2048",
        "0S|ANY|0",
        "'0 '|ANY|0",
        "1048576B|ANY|2048",           // 1 MiB = 2048 sectors
        "4.00m|POWER_OF_TWO|8192",     // 4 MiB
        "64.00k|POWER_OF_TWO|128",
        "1.00g|POWER_OF_TWO|2097152",
        "64.00k|CHUNK|128",            // the smallest thin-pool chunk
        "1.00m|CHUNK|2048",            // [1.995..1.005) MiB holds 2048 only among multiples of 128
        "4.19M|POWER_OF_TWO|8192",     // 4 MiB = 4.194304 MB, printed rounded with --units M
    })
    void exactValues(String text, Context context, long sectors) throws ReportSize.BadSize {
        assertThat(ReportSize.sectors(text, context)).isEqualTo(Optional.of(sectors));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "4.00m|ANY|is rounded to two decimals",
        "<10.00g|ANY|is rounded to two decimals",
        "<4.00m|POWER_OF_TWO|is rounded to two decimals",  // rounded up: below 8192, and no power of two there
        "1.00g|CHUNK|is rounded to two decimals",          // many multiples of 128 within 1.00g +- 0.005g
        "1000B|ANY|expected a whole number of 512-byte sectors, found 1000 bytes",
        "2048|ANY|without a unit (--nosuffix)",
        "2048X|ANY|expected a size such as",
        "99999999999999999999S|ANY|expected a whole number before 'S'",
        "9223372036854775807B|ANY|expected a whole number of 512-byte sectors",
        "9999999999999999999S|ANY|exceeds 9223372036854775807 sectors",
        "-1S|ANY|expected a whole number before 'S'",
        "9999999999.00e|POWER_OF_TWO|exceeds",
    })
    void refusedValues(String text, Context context, String message) {
        assertThatThrownBy(() -> ReportSize.sectors(text, context)).isInstanceOf(ReportSize.BadSize.class)
                .hasMessageContaining(message);
    }

    @ParameterizedTest
    @CsvSource({"''"})
    void emptyIsUndefined(String text) throws ReportSize.BadSize {
        assertThat(ReportSize.sectors(text, Context.ANY)).isEmpty();
    }
}
