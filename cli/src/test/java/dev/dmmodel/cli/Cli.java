package dev.dmmodel.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/** Runs the command line in-process with captured output, against the snapshot fixtures. */
final class Cli {

    /**
     * What one run printed and returned.
     *
     * @param exitCode the exit code
     * @param out standard output
     * @param err standard error
     */
    record Result(int exitCode, String out, String err) {
        /** The lines of stderr, without empty ones. */
        List<String> errLines() {
            return err.lines().filter(l -> !l.isBlank()).toList();
        }

        /** The lines of stdout (CRLF or LF ends). */
        List<String> outLines() {
            return out.lines().toList();
        }
    }

    private Cli() {
    }

    /** Runs {@code dmmodel ARGS}. */
    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.commandLine(new PrintWriter(out), new PrintWriter(err)).execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    /** A snapshot fixture of src/test/resources/snapshots/NAME. */
    static Path snapshot(String name) {
        URL url = Cli.class.getResource("/snapshots/" + name);
        if (url == null) {
            throw new IllegalStateException("no test resource snapshots/" + name);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A copy of a snapshot fixture under {@code dir}, to change. */
    static Path copyOf(String name, Path dir) {
        Path from = snapshot(name);
        Path to = dir.resolve(name);
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return to;
    }

    /** Writes a file. */
    static Path write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }
}
