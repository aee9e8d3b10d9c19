package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The report page as a user sees it, in a real browser: Debian's headless Chromium opens the page written for seed
 * 004's host with a workload, and the test checks that no script error or console error happens, that the key
 * elements are there and visible, that a box of the stack picture leads to its device, that an explanation opens,
 * that a phone-width screen needs no sideways scrolling, and that the page prints. Screenshots and the PDF are kept
 * in {@code cli/target/browser/}.
 *
 * <p>Opt-in: {@code ./mvnw -Pbrowser -pl cli -am verify -Dtest=ReportBrowserTest -Dsurefire.failIfNoSpecifiedTests=false}.
 * Skipped, saying why, without the profile or without a browser ({@code apt-get install chromium}).
 */
class ReportBrowserTest {

    private static final Path OUT = Path.of("target", "browser").toAbsolutePath();
    private static final String SEED_004 = Path.of("..", "examples", "hosts", "seed-004-thin.yaml")
            .toAbsolutePath().normalize().toString();

    /** Visible: laid out with a size, not hidden by CSS. */
    private static final String VISIBLE = "function visible(sel) { const e = document.querySelector(sel);"
            + " if (!e) return sel + ': missing'; const r = e.getBoundingClientRect(); const s = getComputedStyle(e);"
            + " if (r.width <= 0 || r.height <= 0) return sel + ': no size';"
            + " if (s.visibility === 'hidden' || s.display === 'none' || !e.checkVisibility()) return sel + ': hidden';"
            + " return ''; }";

    @Test
    void theReportOpensCleanlyAndShowsItsParts() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("dmmodel.browser"),
                "the browser test is opt-in: run it with -Pbrowser");
        Optional<Path> browser = HeadlessChromium.find();
        Assumptions.assumeTrue(browser.isPresent(),
                "no chromium or chromium-browser on the PATH: apt-get install chromium to run the browser test");
        Files.createDirectories(OUT);
        Path page = OUT.resolve("seed-004-report.html");
        Cli.Result r = Cli.run("report", "--layout", SEED_004,
                "--workload", "echo 2048 > /sys/block/dm-1/queue/max_sectors_kb",
                "--workload", "dd if=/dev/zero of=/dev/mapper/thin bs=1M count=16 oflag=direct", "-o", page.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();

        try (HeadlessChromium chromium = new HeadlessChromium(browser.get(), OUT)) {
            chromium.viewport(1280, 900, false);
            chromium.navigate(page.toUri().toString());
            assertThat(chromium.evaluate("document.title")).isEqualTo("dmmodel report: --layout " + SEED_004);
            // the key parts, each present and visible
            for (String selector : List.of("#stack svg", "#stack svg a[href='#dev-dm-1'] rect",
                    "#findings article.finding.sev-WARNING", "#findings p.basis a[href='#lim-dm-1-max_sectors_kb']",
                    "#workload table#device-stats", "#workload table.fixes", "#chart-dm-1 svg",
                    "#chart-thin-dm-1 svg", "#dev-sdg table.limits", "#lim-dm-1-max_sectors_kb")) {
                assertThat(chromium.evaluate("(" + VISIBLE.replace("function visible(sel) ", "function(sel) ")
                        + ")(" + quote(selector) + ")")).as(selector).isEqualTo("");
            }
            // seed 004's numbers as the page shows them: after the write, bio_get_nr_vecs = min(max_segments 168,
            // 4096/8 + 1, 256) = 168 pages, so the thin device receives 1344 + 704 sectors per MiB
            assertThat((String) chromium.evaluate("document.querySelector('#chart-dm-1').textContent"))
                    .contains("1344").contains("704");
            chromium.screenshot(OUT.resolve("report-wide.png"));

            // a box of the picture leads to its device's section
            chromium.evaluate("document.querySelector(\"#stack svg a[href='#dev-dm-1']\")"
                    + ".dispatchEvent(new MouseEvent('click', {bubbles: true}))");
            assertThat(chromium.evaluate("location.hash")).isEqualTo("#dev-dm-1");
            assertThat(chromium.evaluate("(() => { const t = document.getElementById('dev-dm-1')"
                    + ".getBoundingClientRect().top; return t >= 0 && t < innerHeight; })()")).isEqualTo(true);

            // an explanation opens on demand and shows its inputs down to sdg
            // (checkVisibility: a closed <details> hides its content with content-visibility, not by size)
            assertThat(chromium.evaluate("(() => { const d = document.querySelector("
                    + "'#lim-dm-1-max_sectors_kb details'); const ul = d.querySelector('ul');"
                    + " const before = ul.checkVisibility(); d.open = true;"
                    + " const li = [...d.querySelectorAll('li code')].map(c => c.textContent);"
                    + " return before + '|' + ul.checkVisibility() + '|' + li.some(t => t.startsWith('sdg ')); })()"))
                    .isEqualTo("false|true|true");

            // a phone: nothing wider than the screen but the scrolling boxes that hold wide tables and the picture
            chromium.viewport(390, 844, true);
            chromium.navigate(page.toUri().toString());
            assertThat(chromium.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")).as(
                    "page width %s at 390", chromium.evaluate("document.documentElement.scrollWidth")).isEqualTo(true);
            chromium.screenshot(OUT.resolve("report-narrow.png"));
            chromium.screenshot(OUT.resolve("report-narrow-first-screen.png"), false);

            chromium.viewport(1280, 900, false);
            Path pdf = OUT.resolve("report.pdf");
            chromium.print(pdf);
            assertThat(new String(Files.readAllBytes(pdf), 0, 5, java.nio.charset.StandardCharsets.ISO_8859_1))
                    .isEqualTo("%PDF-");

            assertThat(chromium.errors()).as("script and console errors").isEmpty();
        }
    }

    private static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
}
