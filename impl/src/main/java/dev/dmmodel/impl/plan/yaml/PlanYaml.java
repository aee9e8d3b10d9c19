package dev.dmmodel.impl.plan.yaml;

import dev.dmmodel.plan.PlanException;
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
 * Reads a YAML plan into {@link YamlNode}s with SnakeYAML's safe composer: no anchors, aliases, explicit tags
 * ({@code !vault} included) or second documents, a nesting and a size limit, duplicate keys refused. Every
 * problem is a {@link PlanException} at the place SnakeYAML marks.
 */
public final class PlanYaml {

    /** The largest plan read (4 MiB). */
    static final int MAX_CHARS = 4 * 1024 * 1024;
    /** The deepest nesting read. */
    static final int MAX_DEPTH = 32;

    private PlanYaml() {
    }

    /**
     * The document's root, or null for an empty document.
     *
     * @throws PlanException naming the line and column of what does not parse
     */
    public static YamlNode parse(String text, String source) {
        if (text.length() > MAX_CHARS) {
            throw new PlanException(source, 1, 1, "a plan of " + text.length() + " characters: expected at most "
                    + MAX_CHARS);
        }
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(1);
        options.setAllowRecursiveKeys(false);
        options.setAllowDuplicateKeys(false);
        options.setNestingDepthLimit(MAX_DEPTH);
        options.setCodePointLimit(MAX_CHARS);
        options.setMergeOnCompose(false);
        options.setTagInspector(tag -> false);
        try {
            Parser parser = new CheckingParser(new ParserImpl(new StreamReader(new StringReader(text)), options),
                    source);
            Composer composer = new Composer(parser, new NullOnlyResolver(), options);
            Node root = composer.getSingleNode();
            return root == null ? null : node(root, source);
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String problem = e.getProblem() != null ? e.getProblem() : e.getContext();
            throw at(source, m, "YAML that does not parse (" + oneLine(problem) + "): expected YAML syntax");
        } catch (YAMLException e) {
            throw new PlanException(source, 1, 1, "YAML that does not parse (" + oneLine(e.getMessage())
                    + "): expected YAML syntax");
        }
    }

    private static YamlNode node(Node n, String source) {
        Mark m = n.getStartMark();
        int line = m == null ? 1 : m.getLine() + 1;
        int column = m == null ? 1 : m.getColumn() + 1;
        if (n instanceof ScalarNode s) {
            boolean plain = s.isPlain();
            boolean isNull = Tag.NULL.equals(s.getTag()) && plain;
            return new YamlNode.Scalar(line, column, isNull ? null : s.getValue(), plain
                    && s.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN);
        }
        if (n instanceof MappingNode map) {
            List<YamlNode.Entry> entries = new ArrayList<>();
            for (NodeTuple t : map.getValue()) {
                YamlNode key = node(t.getKeyNode(), source);
                if (!(key instanceof YamlNode.Scalar k)) {
                    throw new PlanException(source, key.line(), key.column(), "a key that is " + key.describe()
                            + ": expected a plain key");
                }
                entries.add(new YamlNode.Entry(k, node(t.getValueNode(), source)));
            }
            return new YamlNode.Mapping(line, column, entries);
        }
        List<YamlNode> items = new ArrayList<>();
        for (Node item : ((SequenceNode) n).getValue()) {
            items.add(node(item, source));
        }
        return new YamlNode.Sequence(line, column, items);
    }

    /** Resolves only YAML's null; booleans and numbers are read from their text by the readers. */
    private static final class NullOnlyResolver extends Resolver {
        @Override
        protected void addImplicitResolvers() {
            addImplicitResolver(Tag.NULL, EMPTY, null);
            addImplicitResolver(Tag.NULL, NULL, "~nN\0");
        }
    }

    /** Refuses, event by event, what a plan has no use for: anchors, aliases, tags, more documents. */
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
                throw at(source, e.getStartMark(), "a second YAML document: expected one document per plan");
            }
            return e;
        }

        private Event check(Event e) {
            if (e instanceof AliasEvent a) {
                throw at(source, e.getStartMark(), "an alias *" + a.getAnchor()
                        + ": expected no anchors or aliases (write each value out)");
            }
            if (e instanceof NodeEvent n && n.getAnchor() != null) {
                throw at(source, e.getStartMark(), "an anchor &" + n.getAnchor()
                        + ": expected no anchors or aliases (write each value out)");
            }
            String tag = e instanceof ScalarEvent s ? s.getTag()
                    : e instanceof CollectionStartEvent c ? c.getTag() : null;
            if (tag != null && !tag.equals("!")) {
                throw at(source, e.getStartMark(), "an explicit tag " + tag
                        + ": expected plain values (a dry run cannot decrypt or evaluate tagged values)");
            }
            return e;
        }
    }

    private static PlanException at(String source, Mark m, String problem) {
        int line = m == null ? 1 : m.getLine() + 1;
        int column = m == null ? 1 : m.getColumn() + 1;
        return new PlanException(source, line, column, problem);
    }

    private static String oneLine(String s) {
        if (s == null) {
            return "no detail";
        }
        String t = s.strip().replaceAll("\\s+", " ");
        return t.length() > 200 ? t.substring(0, 200) + "..." : t;
    }
}
