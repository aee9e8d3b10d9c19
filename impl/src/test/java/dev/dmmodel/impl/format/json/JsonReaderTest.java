package dev.dmmodel.impl.format.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.impl.format.json.JsonValue.JsonArray;
import dev.dmmodel.impl.format.json.JsonValue.JsonBoolean;
import dev.dmmodel.impl.format.json.JsonValue.JsonNull;
import dev.dmmodel.impl.format.json.JsonValue.JsonNumber;
import dev.dmmodel.impl.format.json.JsonValue.JsonObject;
import dev.dmmodel.impl.format.json.JsonValue.JsonString;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class JsonReaderTest {

    @Test
    void valuesKnowTheirLineAndColumn() {
        String text = "{\n  \"a\": [1, \"x\"],\n  \"b\":\ttrue, \"c\": null\n}";
        JsonObject o = (JsonObject) JsonReader.parse(text, "t.json");
        assertThat(o.line()).isEqualTo(1);
        assertThat(o.column()).isEqualTo(1);
        assertThat(o.members()).extracting(JsonValue.Member::key).containsExactly("a", "b", "c");
        assertThat(o.members().get(0).line()).isEqualTo(2);
        assertThat(o.members().get(0).column()).isEqualTo(3);
        JsonArray a = (JsonArray) o.get("a").orElseThrow();
        assertThat(a.line()).isEqualTo(2);
        assertThat(a.column()).isEqualTo(8);
        JsonString x = (JsonString) a.items().get(1);
        assertThat(x.value()).isEqualTo("x");
        assertThat(x.column()).isEqualTo(12);
        JsonBoolean b = (JsonBoolean) o.get("b").orElseThrow();
        assertThat(b.value()).isTrue();
        assertThat(b.line()).isEqualTo(3);
        assertThat(b.column()).isEqualTo(8); // after the tab: "  \"b\":\t" is 7 characters
        assertThat(o.get("c").orElseThrow()).isInstanceOf(JsonNull.class);
        assertThat(o.get("missing")).isEmpty();
    }

    @Test
    void duplicateKeysAreKeptInOrder() {
        JsonObject o = (JsonObject) JsonReader.parse("{\"vg\":[1],\"pv\":[],\"vg\":[2]}", "t");
        assertThat(o.getAll("vg")).hasSize(2);
        assertThat(((JsonNumber) ((JsonArray) o.getAll("vg").get(1)).items().get(0)).longValueExact()).isEqualTo(2);
        assertThat(((JsonNumber) ((JsonArray) o.get("vg").orElseThrow()).items().get(0)).longValueExact()).isEqualTo(1);
    }

    @Test
    void stringEscapesAreDecoded() {
        JsonString s = (JsonString) JsonReader.parse("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\u2028\"", "t");
        assertThat(s.value()).isEqualTo("a\"b\\c/d\b\f\n\r\t\u00e9\u2028");
    }

    /** What the project's one JSON writer writes, this reader reads back: 20,000 strings of awkward characters. */
    @Test
    void readsBackWhatTheJsonWriterWrites() {
        String alphabet = "a\"\\/\b\f\n\r\t\u0000\u001f\u007f\u0085\u2028\u2029\uFEFF\uFFFE\uFFFF\uD83D\uDE00é ";
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String written = dev.dmmodel.internal.json.JsonWriter.string(sb.toString());
            assertThat(((JsonString) JsonReader.parse(written, "t")).value()).as(written).isEqualTo(sb.toString());
        }
    }

    @Test
    void numbersStayTextUntilAsked() {
        JsonNumber n = (JsonNumber) JsonReader.parse("99999999999999999999", "t");
        assertThat(n.text()).isEqualTo("99999999999999999999");
        assertThat(n.bigIntegerValue()).isEqualTo(new BigInteger("99999999999999999999"));
        assertThatThrownBy(n::longValueExact).isInstanceOf(JsonException.class)
                .hasMessage("t:1:1: the number 99999999999999999999 is outside -9223372036854775808..9223372036854775807");
        assertThat(((JsonNumber) JsonReader.parse("9223372036854775807", "t")).longValueExact()).isEqualTo(Long.MAX_VALUE);
        assertThat(((JsonNumber) JsonReader.parse("-9223372036854775808", "t")).longValueExact())
                .isEqualTo(Long.MIN_VALUE);
        assertThatThrownBy(((JsonNumber) JsonReader.parse("9223372036854775808", "t"))::longValueExact)
                .isInstanceOf(JsonException.class);
        JsonNumber f = (JsonNumber) JsonReader.parse(" 1.5e3 ", "t");
        assertThat(f.isInteger()).isFalse();
        assertThatThrownBy(f::longValueExact).isInstanceOf(JsonException.class)
                .hasMessage("t:1:2: expected an integer, found the number 1.5e3");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''|t:1:1: found an empty text; expected a JSON value",
        "'{\"a\":1,}'|t:1:8: found '}'; expected a member name in double quotes",
        "'[1,]'|t:1:4: found ']'; expected a JSON value (object, array, string, number, true, false or null)",
        "'[01]'|t:1:3: found a leading zero in a number; expected no leading zeros",
        "'{\"a\" 1}'|t:1:6: found '1' after the member name \"a\"; expected ':'",
        "'[1 2]'|t:1:4: found '2' in the array that starts at 1:1; expected ',' or ']'",
        "'\"abc'|t:1:1: found a string without its closing double quote; expected '\"' before the end of the text",
        "'\"a\\x\"'|t:1:3: found the escape '\\x'; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX",
        "'\"\\u12g4\"'|t:1:2: found a bad \\u escape; expected four hexadecimal digits after \\u",
        "'tru'|t:1:1: found 't'; expected true",
        "'1 2'|t:1:3: found '2' after the JSON value; expected the end of the text",
        "'-'|t:1:2: found the end of the text in a number; expected a digit",
        "'1.'|t:1:3: found the end of the text after a decimal point; expected a digit",
        "'1e+'|t:1:4: found the end of the text in an exponent; expected a digit",
        "'/* c */ 1'|t:1:1: found '/'; expected a JSON value (object, array, string, number, true, false or null)",
        "'''a'''|t:1:1: found '''; expected a JSON value (object, array, string, number, true, false or null)",
    })
    void syntaxErrorsNameLineAndColumn(String text, String message) {
        assertThatThrownBy(() -> JsonReader.parse(text, "t")).isInstanceOf(JsonException.class).hasMessage(message);
    }

    @Test
    void controlCharactersInStringsAreRefusedWhereTheyAre() {
        assertThatThrownBy(() -> JsonReader.parse("[\n \"a\tb\"]", "f.json"))
                .isInstanceOf(JsonException.class)
                .hasMessage("f.json:2:4: found the control character U+0009 inside a string; expected it escaped "
                        + "(\\n, \\t, \\u00XX)")
                .satisfies(e -> {
                    JsonException j = (JsonException) e;
                    assertThat(j.source()).isEqualTo("f.json");
                    assertThat(j.line()).isEqualTo(2);
                    assertThat(j.column()).isEqualTo(4);
                });
    }

    @Test
    void nestingIsLimited() {
        String ok = "[".repeat(JsonReader.MAX_DEPTH) + "]".repeat(JsonReader.MAX_DEPTH);
        assertThat(JsonReader.parse(ok, "t")).isInstanceOf(JsonArray.class);
        String deep = "[".repeat(JsonReader.MAX_DEPTH + 1) + "]".repeat(JsonReader.MAX_DEPTH + 1);
        assertThatThrownBy(() -> JsonReader.parse(deep, "t")).isInstanceOf(JsonException.class)
                .hasMessage("t:1:513: arrays and objects nest deeper than 512 levels");
        String hostile = "{\"a\":".repeat(100_000);
        assertThatThrownBy(() -> JsonReader.parse(hostile, "t")).isInstanceOf(JsonException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\uFEFF{}", " \r\n\t{} \r\n", "[]", "{}", "\"\"", "0", "-0", "-1.25E-3", "false"})
    void acceptedTexts(String text) {
        assertThat(JsonReader.parse(text, "t")).isNotNull();
    }
}
