package dev.dmmodel.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JsonWriterTest {

    @Test
    void plainTextIsOnlyQuoted() {
        assertThat(JsonWriter.string("")).isEqualTo("\"\"");
        assertThat(JsonWriter.string("dm-0 vg/lv é 😀")).isEqualTo("\"dm-0 vg/lv é 😀\"");
    }

    @Test
    void rfc8259sEscapesInTheirShortForms() {
        // " \ and the five control characters with a short form; '/' needs none
        assertThat(JsonWriter.string("q\" b\\ /\b\f\n\r\t"))
                .isEqualTo("\"q\\\" b\\\\ /\\b\\f\\n\\r\\t\"");
    }

    @Test
    void otherControlsAndWhatYamlAndJavaScriptCannotHoldAsUnicodeEscapes() {
        // U+0000 and U+001F; DEL U+007F, NEL U+0085 and U+009F; U+2028, U+2029; BOM U+FEFF; U+FFFE, U+FFFF
        assertThat(JsonWriter.string("\u0000\u001f\u007f\u0085\u009f\u00a0\u2028\u2029\uFEFF\uFFFE\uFFFF"))
                .isEqualTo("\"\\u0000\\u001f\\u007f\\u0085\\u009f\u00a0\\u2028\\u2029\\ufeff\\ufffe\\uffff\"");
    }

    @Test
    void unpairedSurrogatesAreEscapedAndPairsKept() {
        // U+1F600 is the pair D83D DE00; alone, or in the wrong order, each half is escaped
        assertThat(JsonWriter.string("\uD83D\uDE00")).isEqualTo("\"\uD83D\uDE00\"");
        assertThat(JsonWriter.string("a\uD83D")).isEqualTo("\"a\\ud83d\"");
        assertThat(JsonWriter.string("\uDE00b")).isEqualTo("\"\\ude00b\"");
        assertThat(JsonWriter.string("\uDE00\uD83D")).isEqualTo("\"\\ude00\\ud83d\"");
    }

    @Test
    void appendsToWhatIsThere() {
        StringBuilder sb = new StringBuilder("{\"k\":");
        assertThat(JsonWriter.appendString(sb, "a\nb")).isSameAs(sb);
        assertThat(sb).hasToString("{\"k\":\"a\\nb\"");
    }

    @Test
    void nullIsRefused() {
        assertThatThrownBy(() -> JsonWriter.string(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> JsonWriter.appendString(null, "")).isInstanceOf(NullPointerException.class);
    }
}
