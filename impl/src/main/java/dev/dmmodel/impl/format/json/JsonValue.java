package dev.dmmodel.impl.format.json;

import dev.dmmodel.internal.json.JsonWriter;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An immutable JSON value that knows where it starts in its text (1-based line and column) and the text's
 * source name, so that a reader can report a wrong value as {@code source:line:column: ...}.
 */
public sealed interface JsonValue permits JsonValue.JsonObject, JsonValue.JsonArray, JsonValue.JsonString,
        JsonValue.JsonNumber, JsonValue.JsonBoolean, JsonValue.JsonNull {

    /** The file name or {@code <input>} of the text. */
    String source();

    /** The 1-based line where the value starts. */
    int line();

    /** The 1-based column where the value starts. */
    int column();

    /** A short description for messages: the kind and, for scalars, the value ({@code the string "4.00m"}). */
    String describe();

    /** A {@link JsonException} located at this value. */
    default JsonException error(String problem) {
        return new JsonException(source(), line(), column(), problem);
    }

    /** One {@code "key": value} member of an object, with the key's position. */
    record Member(String key, int line, int column, JsonValue value) {
        /** Checks the parts. */
        public Member {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }
    }

    /** An object: members in text order, duplicate keys kept (RFC 8259 leaves their meaning open). */
    record JsonObject(String source, int line, int column, List<Member> members) implements JsonValue {
        /** Copies the members. */
        public JsonObject {
            Objects.requireNonNull(source, "source");
            members = List.copyOf(members);
        }

        /** The value of the first member with this key. */
        public Optional<JsonValue> get(String key) {
            for (Member m : members) {
                if (m.key().equals(key)) {
                    return Optional.of(m.value());
                }
            }
            return Optional.empty();
        }

        /** The values of every member with this key, in text order. */
        public List<JsonValue> getAll(String key) {
            List<JsonValue> out = new ArrayList<>();
            for (Member m : members) {
                if (m.key().equals(key)) {
                    out.add(m.value());
                }
            }
            return List.copyOf(out);
        }

        @Override
        public String describe() {
            return "an object";
        }
    }

    /** An array. */
    record JsonArray(String source, int line, int column, List<JsonValue> items) implements JsonValue {
        /** Copies the items. */
        public JsonArray {
            Objects.requireNonNull(source, "source");
            items = List.copyOf(items);
        }

        @Override
        public String describe() {
            return "an array";
        }
    }

    /** A string, unescaped. */
    record JsonString(String source, int line, int column, String value) implements JsonValue {
        /** Checks the parts. */
        public JsonString {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String describe() {
            return "the string " + quote(value);
        }
    }

    /** A number, kept as its text until a caller asks for an exact integer. */
    record JsonNumber(String source, int line, int column, String text) implements JsonValue {
        /** Checks the parts. */
        public JsonNumber {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(text, "text");
        }

        /** Whether the number has no fraction and no exponent. */
        public boolean isInteger() {
            return text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0;
        }

        /**
         * The exact integer.
         *
         * @throws JsonException if the number has a fraction or an exponent
         */
        public BigInteger bigIntegerValue() {
            if (!isInteger()) {
                throw error("expected an integer, found the number " + text);
            }
            return new BigInteger(text);
        }

        /**
         * The exact integer as a long.
         *
         * @throws JsonException if the number is not an integer or lies outside the range of a long
         */
        public long longValueExact() {
            BigInteger b = bigIntegerValue();
            if (b.bitLength() > 63) {
                throw error("the number " + text + " is outside " + Long.MIN_VALUE + ".." + Long.MAX_VALUE);
            }
            return b.longValue();
        }

        @Override
        public String describe() {
            return "the number " + text;
        }
    }

    /** {@code true} or {@code false}. */
    record JsonBoolean(String source, int line, int column, boolean value) implements JsonValue {
        /** Checks the parts. */
        public JsonBoolean {
            Objects.requireNonNull(source, "source");
        }

        @Override
        public String describe() {
            return String.valueOf(value);
        }
    }

    /** {@code null}. */
    record JsonNull(String source, int line, int column) implements JsonValue {
        /** Checks the parts. */
        public JsonNull {
            Objects.requireNonNull(source, "source");
        }

        @Override
        public String describe() {
            return "null";
        }
    }

    /** A string in double quotes for messages, escaped as JSON, cut at 60 characters ({@code "abc..."}). */
    static String quote(String s) {
        return JsonWriter.string(s.length() > 60 ? s.substring(0, 60) + "..." : s);
    }
}
