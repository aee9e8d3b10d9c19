package dev.dmmodel.cli;

import dev.dmmodel.trace.TraceListener;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of a long run on stderr, one line rewritten in place ({@code \r}) at most twice a second: events so far,
 * their rate, and the command running. Only when stderr is a terminal: on a pipe or a file nothing is written, so
 * logs and captured output stay clean.
 */
final class Progress {

    /** Events between two looks at the clock: the check costs nothing per event. */
    static final long CHECK_EVERY = 1 << 16;
    /** Time between two updates. */
    static final long INTERVAL_NANOS = 500_000_000L;

    private static final Progress NONE = new Progress(null, () -> 0);

    private final PrintWriter err;
    private final LongSupplier clock;
    private final long start;
    private long last;
    private long events;
    private String command = "";
    private boolean shown;

    Progress(PrintWriter err, LongSupplier clock) {
        this.err = err;
        this.clock = clock;
        this.start = clock.getAsLong();
        this.last = start;
    }

    /** Progress on {@code err} if the process's stderr is a terminal, else none. */
    static Progress onStderr(PrintWriter err) {
        return stderrIsTerminal() ? new Progress(err, System::nanoTime) : NONE;
    }

    // Linux: fd 2 is a terminal when it links to a tty device; anything else (a pipe, a file, no /proc) is not
    static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (Exception e) {
            return false;
        }
    }

    /** Whether this writes anything. */
    boolean enabled() {
        return err != null;
    }

    /** {@code next}, counting its events for this progress; {@code next} itself when progress is off. */
    TraceListener counting(TraceListener next) {
        if (!enabled()) {
            return next;
        }
        return e -> {
            next.onEvent(e);
            tick();
        };
    }

    /** The command that runs now. */
    void command(String line) {
        command = line;
    }

    /** One event; looks at the clock every {@link #CHECK_EVERY} events. */
    void tick() {
        if ((++events & (CHECK_EVERY - 1)) != 0 || !enabled()) {
            return;
        }
        long now = clock.getAsLong();
        if (now - last < INTERVAL_NANOS) {
            return;
        }
        last = now;
        double seconds = Math.max(1e-9, (now - start) / 1e9);
        String line = String.format(Locale.ROOT, "dmmodel: %,d events (%.1f M/s): %s", events,
                events / seconds / 1e6, command);
        if (line.length() > 100) {
            line = line.substring(0, 99) + "~";
        }
        err.print("\r" + line + "\u001b[K");
        err.flush();
        shown = true;
    }

    /** Clears the line, if one was written. */
    void done() {
        if (shown) {
            err.print("\r\u001b[K");
            err.flush();
            shown = false;
        }
    }

    /** Events counted. */
    long events() {
        return events;
    }

}
