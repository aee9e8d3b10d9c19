package dev.dmmodel.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.lvm.LvmMetadataException;
import org.junit.jupiter.api.Test;

class FormatExceptionTest {

    @Test
    void theMessageLeavesOutWhatIsUnknown() {
        assertThat(new FormatException("t.json", 3, 7, "expected ',' or '}', found 'x'"))
                .hasMessage("t.json:3:7: expected ',' or '}', found 'x'")
                .satisfies(e -> {
                    assertThat(e.source()).isEqualTo("t.json");
                    assertThat(e.line()).isEqualTo(3);
                    assertThat(e.column()).isEqualTo(7);
                    assertThat(e.problem()).isEqualTo("expected ',' or '}', found 'x'");
                    assertThat(e.getCause()).isNull();
                });
        assertThat(new FormatException("t.json", 3, 0, "p")).hasMessage("t.json:3: p");
        assertThat(new FormatException("t.json", 0, 0, "p")).hasMessage("t.json: p");
    }

    @Test
    void negativePlacesAndNullsAreRefused() {
        assertThatThrownBy(() -> new FormatException("s", -1, 0, "p")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1:0");
        assertThatThrownBy(() -> new FormatException(null, 1, 1, "p")).isInstanceOf(NullPointerException.class)
                .hasMessage("source");
        assertThatThrownBy(() -> new FormatException("s", 1, 1, null)).isInstanceOf(NullPointerException.class)
                .hasMessage("problem");
    }

    @Test
    void lvmMetadataExceptionIsAFormatExceptionWithItsOwnMessage() {
        LvmMetadataException e = new LvmMetadataException("vg0.vg", 12, 9, "expected '='");
        assertThat(e).isInstanceOf(FormatException.class).hasMessage("vg0.vg:12:9: expected '='");
        assertThat(e.line()).isEqualTo(12);
        assertThat(e.column()).isEqualTo(9);
        assertThat(e.problem()).isEqualTo("expected '='");
    }
}
