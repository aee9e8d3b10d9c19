package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceListener;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Progress on a terminal: rate-limited, cleared at the end; none at all when stderr is not a terminal. */
class ProgressTest {

    private static final TraceEvent E = new TraceEvent(0, "sda", EventType.BIO_QUEUE, "W", 0, 8, "");

    @Test
    void updatesAtMostEveryHalfSecondAndClearsTheLine() {
        StringWriter out = new StringWriter();
        AtomicLong clock = new AtomicLong();
        Progress p = new Progress(new PrintWriter(out, true), clock::get);
        AtomicLong passed = new AtomicLong();
        TraceListener l = p.counting(e -> passed.incrementAndGet());
        p.command("dd if=/dev/zero of=/dev/vg/lv bs=1M count=1000 oflag=direct");
        // 65536 events in 0.1 s: the clock is read, but no half second has passed
        clock.set(100_000_000L);
        for (int i = 0; i < Progress.CHECK_EVERY; i++) {
            l.onEvent(E);
        }
        assertThat(out.toString()).isEmpty();
        // the next 65536 at 1 s: one line, 131072 events at 131072 / 1 s = 0.13 M/s
        clock.set(1_000_000_000L);
        for (int i = 0; i < Progress.CHECK_EVERY; i++) {
            l.onEvent(E);
        }
        assertThat(out.toString()).isEqualTo("\rdmmodel: 131,072 events (0.1 M/s): dd if=/dev/zero of=/dev/vg/lv bs=1M"
                + " count=1000 oflag=direct\u001b[K");
        assertThat(passed.get()).isEqualTo(2 * Progress.CHECK_EVERY);
        p.done();
        assertThat(out.toString()).endsWith("\r\u001b[K");
    }

    @Test
    void offTheListenerIsPassedThroughAndNothingIsWritten() {
        TraceListener next = e -> { };
        Progress off = new Progress(null, () -> 0);
        assertThat(off.enabled()).isFalse();
        assertThat(off.counting(next)).isSameAs(next);
        off.done();
    }

    @Test
    void aPipeIsNotATerminal() {
        // surefire runs the tests with stderr on a pipe or a file: never progress there
        assertThat(Progress.stderrIsTerminal()).isFalse();
        assertThat(Progress.onStderr(new PrintWriter(new StringWriter())).enabled()).isFalse();
    }
}
