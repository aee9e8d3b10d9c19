package dev.dmmodel.impl.format.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.fuzz.FuzzTally;
import dev.dmmodel.impl.fuzz.TextMutator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Mutated snapshots: every input either reads to a {@link Snapshot} or fails with a {@link SnapshotException}
 * (never a NullPointerException, NumberFormatException, ArithmeticException, IndexOutOfBoundsException,
 * NoSuchElementException...). The fixtures are held in memory and read through
 * {@link Snapshot#read(Path, Snapshot.FileAccess)}, the reader of {@link Snapshot#read(Path)} with its file
 * operations answered from the map, so that 100,000 inputs take seconds. Inputs, with a fixed seed: every
 * file of the small fixture truncated at every position, then random edits of one to three files (whole
 * values replaced with huge, negative and malformed numbers and device numbers, truncations, character and
 * token edits, removed, duplicated and swapped lines), removed files and directories, files turned into
 * directories, devices copied under other names, bytes that are not UTF-8, and combinations. One snapshot
 * in four that reads is also built into a layout with its findings, as {@code dmmodel check} does: that
 * either works or throws {@link dev.dmmodel.layout.LayoutException}.
 */
class SnapshotFuzzTest {

    private static final long SEED = 0x5a_4e_50_53_48_4fL;
    private static final int RANDOM_INPUTS = 100_000;
    private static final List<String> FIXTURES = List.of("minimal", "thin-lvm-zy-direct1M", "crypt-plain-showkeys");
    private static final Pattern TOKEN = Pattern.compile("[^\\s:{}\\[\\]=,\"]+");
    private static final String CHARS = ":{}[]=,\"'\\#\n\t -+.0123456789abcxyz_\0\u00e9";
    private static final List<String> VALUES = List.of("", "\n", " ", "99999999999999999999", "9223372036854775807",
            "-9223372036854775808", "9223372036854775", "4611686018427387904", "-1", "-2", "0", "1", "2", "x",
            "8:0", "8:1", "253:0", "253:1", "253:2", "0:0", "4294967296:0", "1:99999999999", "a:b", ":", "8:", ":0",
            "-1:-1", "8:0:0", "1.5", "0x10", "010", "+5", "1e3", "\u0000", "\u00e9", "two words", "multi\nline", "top",
            "vg0-lv", "linear", "striped", "thin-pool", "thin", "zero", "error", "raid1", "2147483648", "4096", "512",
            "511", "131072", "[mq-deadline] none");
    /**
     * Edits inside one file, in 24ths: a character deleted, duplicated or replaced (2 each), a token deleted or
     * repeated (3 each) or replaced by one of {@link #VALUES} (6), a line removed, duplicated or swapped (2 each).
     */
    private static final TextMutator MUTATOR = TextMutator.of(TOKEN, CHARS, VALUES)
            .withWeights(2, 2, 0, 2, 3, 3, 6, 2, 2, 2);
    /** Marks a file whose bytes are not UTF-8. */
    private static final String NOT_UTF8 = "\uFFFF not UTF-8";

    /**
     * A snapshot as files in memory: relative path to text, and the directories. {@link #view} answers
     * {@link Snapshot#read(Path, Snapshot.FileAccess)} for the tree under a path that exists nowhere on disk.
     */
    private static final class Tree {
        final Path root;
        final Map<String, String> files;
        final Set<String> dirs;

        Tree(Path root, Map<String, String> files, Set<String> dirs) {
            this.root = root;
            this.files = files;
            this.dirs = dirs;
        }

        static Tree load(Path root, Path from) throws IOException {
            Map<String, String> files = new TreeMap<>();
            Set<String> dirs = new TreeSet<>();
            try (Stream<Path> s = Files.walk(from)) {
                for (Path f : s.sorted().toList()) {
                    String rel = from.relativize(f).toString().replace('\\', '/');
                    if (Files.isDirectory(f)) {
                        if (!rel.isEmpty()) {
                            dirs.add(rel);
                        }
                    } else {
                        files.put(rel, Files.readString(f, StandardCharsets.UTF_8));
                    }
                }
            }
            return new Tree(root, files, dirs);
        }

        Tree copy() {
            return new Tree(root, new TreeMap<>(files), new TreeSet<>(dirs));
        }

        String current(String rel) {
            return files.getOrDefault(rel, "");
        }

        /** Writes a file, creating its directories; a directory in its place goes. */
        void write(String rel, String text) {
            if (dirs.contains(rel)) {
                delete(rel);
            }
            for (int slash = rel.indexOf('/'); slash > 0; slash = rel.indexOf('/', slash + 1)) {
                String parent = rel.substring(0, slash);
                files.remove(parent);
                dirs.add(parent);
            }
            files.put(rel, text);
        }

        void delete(String rel) {
            files.keySet().removeIf(f -> f.equals(rel) || f.startsWith(rel + "/"));
            dirs.removeIf(d -> d.equals(rel) || d.startsWith(rel + "/"));
        }

        void mkdir(String rel) {
            write(rel + "/x", "");
            files.remove(rel + "/x");
        }

        /** The path below the root ({@code Path.toString} is cached; relativize is not). */
        private String rel(Path p) {
            String full = p.toString();
            String top = root.toString();
            String r = full.length() <= top.length() ? "" : full.substring(top.length() + 1);
            return java.io.File.separatorChar == '/' ? r : r.replace(java.io.File.separatorChar, '/');
        }

        Snapshot.FileAccess view() {
            return new Snapshot.FileAccess() {
                @Override
                public boolean exists(Path p) {
                    String r = rel(p);
                    return r.isEmpty() || files.containsKey(r) || dirs.contains(r);
                }

                @Override
                public boolean isDirectory(Path p) {
                    String r = rel(p);
                    return r.isEmpty() || dirs.contains(r);
                }

                @Override
                public boolean isRegularFile(Path p) {
                    return files.containsKey(rel(p));
                }

                @Override
                public String readString(Path p) throws IOException {
                    String text = files.get(rel(p));
                    if (text == null) {
                        throw new java.nio.file.NoSuchFileException(p.toString());
                    }
                    if (text.equals(NOT_UTF8)) {
                        throw new java.nio.charset.MalformedInputException(1);
                    }
                    return text;
                }

                /** Directory (relative path) to the names in it, built at the first listing. */
                private Map<String, Set<String>> children;

                @Override
                public List<Path> list(Path d) throws IOException {
                    if (!isDirectory(d)) {
                        throw new java.nio.file.NotDirectoryException(d.toString());
                    }
                    if (children == null) {
                        children = new java.util.HashMap<>();
                        for (String f : files.keySet()) {
                            index(f);
                        }
                        for (String f : dirs) {
                            index(f);
                        }
                    }
                    List<Path> out = new ArrayList<>();
                    for (String n : children.getOrDefault(rel(d), Set.of())) {
                        out.add(d.resolve(n));
                    }
                    return out;
                }

                private void index(String path) {
                    int slash = path.lastIndexOf('/');
                    children.computeIfAbsent(slash < 0 ? "" : path.substring(0, slash), k -> new TreeSet<>())
                            .add(path.substring(slash + 1));
                }
            };
        }
    }

    private static final java.util.concurrent.atomic.AtomicInteger BUILDS = new java.util.concurrent.atomic.AtomicInteger();
    private static final java.util.concurrent.atomic.AtomicInteger BUILT = new java.util.concurrent.atomic.AtomicInteger();
    private static final java.util.concurrent.atomic.AtomicInteger REFUSED = new java.util.concurrent.atomic.AtomicInteger();

    @Test
    void everyMutationReadsOrThrowsSnapshotException() throws IOException {
        Random random = new Random(SEED);
        List<Tree> trees = new ArrayList<>();
        for (String name : FIXTURES) {
            Path fixture = SnapshotTest.fixture(name);
            // a path nothing is at on disk: only the in-memory tree answers
            trees.add(Tree.load(fixture.resolveSibling(name + "-in-memory-fuzz"), fixture));
        }
        for (Tree t : trees) {
            assertThat(Files.exists(t.root)).isFalse();
            FuzzTally fixtureItself = new FuzzTally();
            run(t, fixtureItself, "the fixture");
            assertThat(fixtureItself.parsed()).as("the fixture itself reads").isEqualTo(1);
        }
        FuzzTally tally = new FuzzTally();
        // every file truncated at every position (the small fixture; the other has the same kinds of file)
        Tree first = trees.get(0);
        for (Map.Entry<String, String> e : first.files.entrySet()) {
            for (int cut = 0; cut < e.getValue().length(); cut++) {
                Tree t = first.copy();
                t.write(e.getKey(), e.getValue().substring(0, cut));
                run(t, tally, e.getKey() + " cut at " + cut);
            }
        }
        for (int i = 0; i < RANDOM_INPUTS; i++) {
            // the small fixture nine times in ten: it reads fastest
            Tree t = trees.get(random.nextInt(10) == 0 ? 1 : 0).copy();
            List<String> what = new ArrayList<>();
            int edits = 1 + (random.nextInt(4) == 0 ? random.nextInt(3) : 0);
            for (int e = 0; e < edits; e++) {
                what.add(mutate(t, random));
            }
            run(t, tally, String.join("; ", what));
        }
        System.out.println("SnapshotFuzzTest: " + tally + "; built " + BUILT.get() + ", refused " + REFUSED.get());
        assertThat(tally.problems()).as("inputs that failed otherwise than with SnapshotException").isEmpty();
        assertThat(tally.total()).isGreaterThanOrEqualTo(100_000);
        assertThat(tally.parsed() + tally.rejected()).isEqualTo(tally.total());
        // both outcomes occur: edits of files the reader does not check (status, uuid, scheduler) still read
        assertThat(tally.parsed()).isGreaterThan(1_000);
        assertThat(tally.rejected()).isGreaterThan(30_000);
        // a quarter of the snapshots that read were built: most build, some the model refuses
        assertThat(BUILT.get()).isGreaterThan(500);
        assertThat(REFUSED.get()).isGreaterThan(10);
    }

    /** Reads a tree; {@code what} (the edits made) stands for the input in a problem. */
    private static void run(Tree tree, FuzzTally tally, String what) {
        Path root = tree.root;
        tally.run(what, () -> {
            Snapshot s = Snapshot.read(root, tree.view());
            assertThat(s.devices()).isNotNull();
            // one read snapshot in four is built as the CLI builds it: the model refuses with LayoutException only
            if (BUILDS.incrementAndGet() % 4 == 0) {
                try {
                    dev.dmmodel.layout.Layout.of(s.toLayoutSpec()).findings();
                    BUILT.incrementAndGet();
                } catch (dev.dmmodel.layout.LayoutException e) {
                    REFUSED.incrementAndGet();
                } catch (Throwable t) { // nothing else may escape the build either
                    tally.problem("building " + what, t);
                }
            }
            return FuzzTally.PARSED;
        }, SnapshotException.class, e -> e.getMessage() != null && e.getMessage().contains(root.toString()));
    }

    private static String mutate(Tree t, Random r) {
        List<String> names = new ArrayList<>(t.files.keySet());
        String file = r.nextInt(4) == 0 || names.isEmpty() ? "dmsetup-table.txt" : names.get(r.nextInt(names.size()));
        String text = t.current(file);
        switch (r.nextInt(12)) {
            case 0:
            case 1: { // the whole value
                String v = VALUES.get(r.nextInt(VALUES.size()));
                t.write(file, v);
                return file + " = " + v;
            }
            case 2: { // truncated
                int cut = text.isEmpty() ? 0 : r.nextInt(text.length());
                t.write(file, text.substring(0, cut));
                return file + " cut at " + cut;
            }
            case 3:
            case 4:
            case 5:
            case 6: { // characters, tokens (replaced by VALUES) and lines edited
                t.write(file, MUTATOR.mutate(text, r, 1));
                return file + " edited";
            }
            case 7: { // a file removed
                t.delete(file);
                return "rm " + file;
            }
            case 8: { // a directory removed
                List<String> dirs = new ArrayList<>(t.dirs);
                if (dirs.isEmpty()) {
                    t.delete(file);
                    return "rm " + file;
                }
                String d = dirs.get(r.nextInt(dirs.size()));
                t.delete(d);
                return "rm -r " + d;
            }
            case 9: { // a file turned into a directory
                t.mkdir(file);
                return "mkdir " + file;
            }
            case 10: { // a device copied under another name (same dev, same dm name...)
                List<String> devices = t.dirs.stream().filter(d -> d.matches("block/[^/]+")).toList();
                if (devices.isEmpty()) {
                    return "no device to copy";
                }
                String d = devices.get(r.nextInt(devices.size()));
                String to = r.nextBoolean() ? "block/dm-" + r.nextInt(20) : "block/sd" + (char) ('a' + r.nextInt(4));
                for (Map.Entry<String, String> e : new TreeMap<>(t.files).entrySet()) {
                    if (e.getKey().startsWith(d + "/")) {
                        t.write(to + e.getKey().substring(d.length()), e.getValue());
                    }
                }
                return "cp -r " + d + " " + to;
            }
            default: { // bytes that are not UTF-8
                t.write(file, NOT_UTF8);
                return file + " not UTF-8";
            }
        }
    }
}
