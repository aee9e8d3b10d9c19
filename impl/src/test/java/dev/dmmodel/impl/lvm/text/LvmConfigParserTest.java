package dev.dmmodel.impl.lvm.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.impl.lvm.text.LvmConfigParser.ArrayValue;
import dev.dmmodel.impl.lvm.text.LvmConfigParser.FloatValue;
import dev.dmmodel.impl.lvm.text.LvmConfigParser.IntValue;
import dev.dmmodel.impl.lvm.text.LvmConfigParser.Section;
import dev.dmmodel.impl.lvm.text.LvmConfigParser.Setting;
import dev.dmmodel.impl.lvm.text.LvmConfigParser.StringValue;
import dev.dmmodel.impl.lvm.text.LvmConfigParser.Value;
import dev.dmmodel.lvm.LvmMetadataException;
import org.junit.jupiter.api.Test;

class LvmConfigParserTest {

    private static Value value(Section s, String key) {
        return ((Setting) s.child(key).orElseThrow()).value();
    }

    private static LvmMetadataException failure(String text) {
        try {
            LvmConfigParser.parse(text, "t.vg");
        } catch (LvmMetadataException e) {
            return e;
        }
        throw new AssertionError("no error for: " + text);
    }

    @Test
    void integersIncludingNegativeAndExtremes() {
        Section s = LvmConfigParser.parse("a = 1\nb = -7\nc = +3\nd = 9223372036854775807\ne = -9223372036854775808\n"
                + "f = 0");
        assertThat(((IntValue) value(s, "a")).value()).isEqualTo(1);
        assertThat(((IntValue) value(s, "b")).value()).isEqualTo(-7);
        assertThat(((IntValue) value(s, "c")).value()).isEqualTo(3);
        assertThat(((IntValue) value(s, "d")).value()).isEqualTo(Long.MAX_VALUE);
        assertThat(((IntValue) value(s, "e")).value()).isEqualTo(Long.MIN_VALUE);
        assertThat(((IntValue) value(s, "f")).value()).isZero();
        assertThat(value(s, "b").line()).isEqualTo(2);
        assertThat(value(s, "b").column()).isEqualTo(5);
    }

    @Test
    void floatsStringsAndBareWords() {
        Section s = LvmConfigParser.parse("f = 2.5\ng = .5\nq = \"a \\\"b\\\" c\\\\d\"\nr = 'x\\y'\nw = lvm2\n"
                + "\"quoted key\" = 1");
        assertThat(((FloatValue) value(s, "f")).text()).isEqualTo("2.5");
        assertThat(((FloatValue) value(s, "g")).text()).isEqualTo(".5");
        assertThat(((StringValue) value(s, "q")).value()).isEqualTo("a \"b\" c\\d");
        assertThat(((StringValue) value(s, "r")).value()).isEqualTo("x\\y");
        assertThat(((StringValue) value(s, "w")).value()).isEqualTo("lvm2");
        assertThat(s.child("quoted key")).isPresent();
    }

    @Test
    void commentsAreSkippedButNotInsideStrings() {
        Section s = LvmConfigParser.parse("# header\na = 1 # one\nb = \"x # not a comment\"\t# c\n#end");
        assertThat(s.children()).hasSize(2);
        assertThat(((StringValue) value(s, "b")).value()).isEqualTo("x # not a comment");
    }

    @Test
    void multiLineArraysWithMixedTypesAndOptionalCommas() {
        Section s = LvmConfigParser.parse("stripes = [\n\t\"pv0\", 0,\n\t\"pv1\" 128\n]\nempty = []");
        ArrayValue a = (ArrayValue) value(s, "stripes");
        assertThat(a.items()).hasSize(4);
        assertThat(((StringValue) a.items().get(2)).value()).isEqualTo("pv1");
        assertThat(((IntValue) a.items().get(3)).value()).isEqualTo(128);
        assertThat(a.items().get(2).line()).isEqualTo(3);
        assertThat(a.items().get(2).column()).isEqualTo(2);
        assertThat(((ArrayValue) value(s, "empty")).items()).isEmpty();
    }

    @Test
    void nestedSectionsKeepOrderAndPositions() {
        Section s = LvmConfigParser.parse("vg {\n  pvs {\n    pv0 { pe_count = 3 }\n  }\n  x = 1\n}\ncontents = \"c\"");
        Section vg = s.sections().get(0);
        assertThat(vg.key()).isEqualTo("vg");
        assertThat(vg.children()).extracting(n -> n.key()).containsExactly("pvs", "x");
        Section pv0 = ((Section) vg.child("pvs").orElseThrow()).sections().get(0);
        assertThat(pv0.line()).isEqualTo(3);
        assertThat(pv0.column()).isEqualTo(5);
        assertThat(((IntValue) value(pv0, "pe_count")).value()).isEqualTo(3);
    }

    @Test
    void emptyInputIsAnEmptyFile() {
        assertThat(LvmConfigParser.parse("").children()).isEmpty();
        assertThat(LvmConfigParser.parse("  # only a comment\n").children()).isEmpty();
    }

    @Test
    void errorMessagesNameFileLineColumnFoundAndExpected() {
        assertThat(failure("vgt {\n\textent_size 8192\n}").getMessage())
                .isEqualTo("t.vg:2:14: expected '=' or '{' after \"extent_size\", found \"8192\"");
        assertThat(failure("a = ").getMessage()).isEqualTo("t.vg:1:5: expected a value, found end of input");
        assertThat(failure("a = }").getMessage()).isEqualTo("t.vg:1:5: expected a value, found \"}\"");
        assertThat(failure("= 1").getMessage()).isEqualTo("t.vg:1:1: expected a key, found \"=\"");
        assertThat(failure("12 = 1").getMessage()).isEqualTo("t.vg:1:1: expected a key, found \"12\"");
        assertThat(failure("}").getMessage())
                .isEqualTo("t.vg:1:1: expected a key, found \"}\" with no open section");
        assertThat(failure("vg {\n a = 1\n").getMessage()).isEqualTo("t.vg:3:1: expected '}', found end of input");
        assertThat(failure("a = [1,\n {]").getMessage())
                .isEqualTo("t.vg:2:2: expected a value or ']' in the array opened at line 1, column 5, found \"{\"");
        assertThat(failure("a = [1, [2]]").getMessage())
                .isEqualTo("t.vg:1:9: expected a value or ']' in the array opened at line 1, column 5, found \"[\"");
        assertThat(failure("a = [1").getMessage()).isEqualTo(
                "t.vg:1:7: expected a value or ']' in the array opened at line 1, column 5, found end of input");
        assertThat(failure("a = \"abc").getMessage())
                .isEqualTo("t.vg:1:5: unterminated string: expected '\"', found end of input");
        assertThat(failure("a = 'abc").getMessage())
                .isEqualTo("t.vg:1:5: unterminated string: expected \"'\", found end of input");
        assertThat(failure("a = \"x\\n\"").getMessage())
                .isEqualTo("t.vg:1:7: expected '\\\"' or '\\\\' in a string, found \"\\n\"");
        assertThat(failure("a = 99999999999999999999").getMessage())
                .isEqualTo("t.vg:1:5: integer \"99999999999999999999\" is out of range (-2^63 to 2^63-1)");
        assertThat(failure("a = 9223372036854775808").getMessage())
                .isEqualTo("t.vg:1:5: integer \"9223372036854775808\" is out of range (-2^63 to 2^63-1)");
        assertThat(failure("a = 010").getMessage())
                .isEqualTo("t.vg:1:5: integer \"010\" has a leading zero (LVM would read it as octal)");
        assertThat(failure("a = 1\nb = 2\na = 3").getMessage())
                .isEqualTo("t.vg:3:1: duplicate key \"a\" (first at line 1, column 1)");
        assertThat(failure("a = \"x\" \"y\"").getMessage())
                .isEqualTo("t.vg:1:12: expected '=' or '{' after \"y\", found end of input");
    }

    @Test
    void nestingIsLimited() {
        String ok = "a {".repeat(LvmConfigParser.MAX_DEPTH) + "}".repeat(LvmConfigParser.MAX_DEPTH);
        assertThat(LvmConfigParser.parse(ok).children()).hasSize(1);
        String deep = "a {".repeat(100_000);
        LvmMetadataException e = failure(deep);
        assertThat(e.getMessage()).isEqualTo("t.vg:1:" + (3 * LvmConfigParser.MAX_DEPTH + 3)
                + ": sections nested deeper than 64 levels");
        assertThat(e.line()).isEqualTo(1);
        assertThat(e.source()).isEqualTo("t.vg");
    }

    @Test
    void defaultSourceIsInputAndNullsAreRejected() {
        assertThatThrownBy(() -> LvmConfigParser.parse("x")).isInstanceOf(LvmMetadataException.class)
                .hasMessage("<input>:1:2: expected '=' or '{' after \"x\", found end of input");
        assertThatThrownBy(() -> LvmConfigParser.parse(null, "x")).isInstanceOf(NullPointerException.class);
    }
}
