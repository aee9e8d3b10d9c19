package dev.dmmodel.impl.format.layoutfile;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.DocumentStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * A YAML layout file through SnakeYAML's node API, into {@link DocNode}s. Hardened: no anchors, aliases, explicit
 * tags or second documents (so "billion laughs" cannot expand), a nesting limit, a size limit.
 */
final class YamlSyntax {

    private YamlSyntax() {
    }

    /** The document's root, or null for an empty document. */
    static DocNode parse(String text, String source) {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(1);
        options.setAllowRecursiveKeys(false);
        options.setAllowDuplicateKeys(false);
        options.setNestingDepthLimit(LayoutDoc.MAX_DEPTH);
        options.setCodePointLimit(LayoutDoc.MAX_CHARS);
        options.setMergeOnCompose(false);
        options.setTagInspector(tag -> false);
        try {
            // one pass: the composer pulls events through a parser that refuses, as each event comes, what the
            // format has no use for (anchors, aliases, tags, more documents), before anything is composed from it
            Parser parser = new CheckingParser(new ParserImpl(new StreamReader(new StringReader(text)), options),
                    source);
            Composer composer = new Composer(parser, new NullOnlyResolver(), options);
            Node root = composer.getSingleNode();
            return root == null ? null : node(root);
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String problem = e.getProblem() != null ? e.getProblem() : e.getContext();
            throw error(source, m, "YAML that does not parse (" + oneLine(problem) + ")", "YAML or JSON syntax", e);
        } catch (YAMLException e) {
            throw new LayoutFileException(source, 1, 1, "YAML that does not parse (" + oneLine(e.getMessage()) + ")",
                    "YAML or JSON syntax", e);
        }
    }

    /** SnakeYAML's node as a {@link DocNode}; the composer nests no deeper than the nesting limit. */
    private static DocNode node(Node n) {
        Mark m = n.getStartMark();
        int line = m == null ? 1 : m.getLine() + 1;
        int column = m == null ? 1 : m.getColumn() + 1;
        if (n instanceof ScalarNode s) {
            boolean isNull = Tag.NULL.equals(s.getTag()) && s.isPlain();
            boolean block = s.getScalarStyle() == DumperOptions.ScalarStyle.LITERAL
                    || s.getScalarStyle() == DumperOptions.ScalarStyle.FOLDED;
            return new DocNode.Scalar(line, column, isNull ? null : s.getValue(), block);
        }
        if (n instanceof MappingNode map) {
            List<DocNode.Entry> entries = new ArrayList<>();
            for (NodeTuple t : map.getValue()) {
                entries.add(new DocNode.Entry(node(t.getKeyNode()), node(t.getValueNode())));
            }
            return new DocNode.Mapping(line, column, entries);
        }
        List<DocNode> items = new ArrayList<>();
        for (Node item : ((SequenceNode) n).getValue()) {
            items.add(node(item));
        }
        return new DocNode.Sequence(line, column, items);
    }

    /**
     * Resolves only YAML's null ({@code ~}, {@code null}, nothing): every other value is read from its text by the
     * typed getters, so the regular expressions for booleans, numbers and timestamps need not run.
     */
    private static final class NullOnlyResolver extends Resolver {
        @Override
        protected void addImplicitResolvers() {
            addImplicitResolver(Tag.NULL, EMPTY, null);
            addImplicitResolver(Tag.NULL, NULL, "~nN\0");
        }
    }

    /** A parser that checks each event before the composer sees it. */
    private static final class CheckingParser implements Parser {
        private final Parser parser;
        private final String source;
        private int documents;

        CheckingParser(Parser parser, String source) {
            this.parser = parser;
            this.source = source;
        }

        @Override
        public boolean checkEvent(Event.ID choice) {
            check(parser.peekEvent());
            return parser.checkEvent(choice);
        }

        @Override
        public Event peekEvent() {
            return check(parser.peekEvent());
        }

        @Override
        public Event getEvent() {
            Event e = check(parser.getEvent());
            if (e instanceof DocumentStartEvent && ++documents > 1) {
                throw error(source, e.getStartMark(), "a second YAML document", "one document per layout file", null);
            }
            return e;
        }

        private Event check(Event e) {
            if (e instanceof AliasEvent a) {
                throw error(source, e.getStartMark(), "an alias *" + a.getAnchor(),
                        "no anchors or aliases (write each value out)", null);
            }
            if (e instanceof NodeEvent n && n.getAnchor() != null) {
                throw error(source, e.getStartMark(), "an anchor &" + n.getAnchor(),
                        "no anchors or aliases (write each value out)", null);
            }
            String tag = e instanceof ScalarEvent s ? s.getTag()
                    : e instanceof CollectionStartEvent c ? c.getTag() : null;
            if (tag != null && !tag.equals("!")) {
                throw error(source, e.getStartMark(), "an explicit tag " + tag, "plain values without tags", null);
            }
            return e;
        }
    }

    private static LayoutFileException error(String source, Mark m, String found, String expected, Throwable cause) {
        int line = m == null ? 1 : m.getLine() + 1;
        int column = m == null ? 1 : m.getColumn() + 1;
        return new LayoutFileException(source, line, column, found, expected, cause);
    }

    private static String oneLine(String s) {
        if (s == null) {
            return "no detail";
        }
        String t = s.strip().replaceAll("\\s+", " ");
        return t.length() > 200 ? t.substring(0, 200) + "..." : t;
    }
}
