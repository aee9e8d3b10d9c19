package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * {@code dmmodel report} and {@code trace --format svg}: the page is one self-contained document (read here as
 * XML, which it is written to be), every link in it lands, and it carries seed 004's numbers as the kernel's rules
 * give them.
 */
class ReportCommandTest {

    private static final String SEED_004 = Path.of("..", "examples", "hosts", "seed-004-thin.yaml")
            .toAbsolutePath().normalize().toString();
    private static final String DD_16M = "dd if=/dev/zero of=/dev/mapper/thin bs=1M count=16 oflag=direct";

    static Document xml(String text) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        f.setExpandEntityReferences(false);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> all(Document d, String xpath) throws Exception {
        NodeList nodes = (NodeList) XPathFactory.newInstance().newXPath().evaluate(xpath, d, XPathConstants.NODESET);
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add((Element) nodes.item(i));
        }
        return out;
    }

    private static Element byId(Document d, String id) throws Exception {
        List<Element> e = all(d, "//*[@id='" + id + "']");
        assertThat(e).as("element #%s", id).hasSize(1);
        return e.get(0);
    }

    private static Document seed004Report(Path dir, String... workload) throws Exception {
        Path page = dir.resolve("report.html");
        List<String> args = new ArrayList<>(List.of("report", "--layout", SEED_004, "-o", page.toString()));
        for (String w : workload) {
            args.add("--workload");
            args.add(w);
        }
        Cli.Result r = Cli.run(args.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isEmpty();
        return xml(Files.readString(page));
    }

    @Test
    void thePageIsSelfContainedAndEveryLinkLands(@TempDir Path tmp) throws Exception {
        Document d = seed004Report(tmp, DD_16M);
        // nothing to run and nothing to fetch: no script, no external style, image, frame or link
        assertThat(all(d, "//*[local-name()='script' or local-name()='link' or local-name()='img'"
                + " or local-name()='iframe' or local-name()='object' or local-name()='embed']")).isEmpty();
        assertThat(all(d, "//*[@src]")).isEmpty();
        Set<String> ids = new HashSet<>();
        for (Element e : all(d, "//*[@id]")) {
            assertThat(ids.add(e.getAttribute("id"))).as("id %s is unique", e.getAttribute("id")).isTrue();
        }
        List<Element> links = all(d, "//*[@href]");
        assertThat(links).isNotEmpty();
        for (Element a : links) {
            String href = a.getAttribute("href");
            assertThat(href).as("a link inside the page").startsWith("#");
            assertThat(ids).as("the target of %s", href).contains(href.substring(1));
        }
        // the picture's boxes link to their devices: sdg, sdh, dm-0 (twice: on sdh and on sdg), dm-1
        assertThat(all(d, "//*[@id='stack']//*[local-name()='a']")).extracting(e -> e.getAttribute("href"))
                .containsExactlyInAnyOrder("#dev-sdg", "#dev-sdh", "#dev-dm-0", "#dev-dm-0", "#dev-dm-1");
    }

    @Test
    void everyLimitOfEveryDeviceIsExplainedFromTheRules(@TempDir Path tmp) throws Exception {
        Document d = seed004Report(tmp);
        // 4 devices x 18 sysfs fields
        assertThat(all(d, "//*[local-name()='tr'][starts-with(@id, 'lim-')]")).hasSize(4 * 18);
        // dm-1's max_sectors_kb: 512 on 3.10, from sd's default cap on sdg = min(65535, BLK_DEF_MAX_SECTORS 1024)
        // sectors, stacked through dm-0
        Element row = byId(d, "lim-dm-1-max_sectors_kb");
        List<Element> cells = all(d, "//*[@id='lim-dm-1-max_sectors_kb']/*[local-name()='td']");
        assertThat(cells.get(1).getTextContent()).isEqualTo("512");
        assertThat(row.getTextContent()).contains("dm_calculate_queue_limits")
                .contains("sdg max_sectors_kb 512").contains("BLK_DEF_MAX_SECTORS 1024");
        // the finding names what it rests on, and those rows are the ones explained
        Element finding = all(d, "//*[local-name()='article'][contains(@class, 'sev-WARNING')]").get(0);
        assertThat(finding.getTextContent()).contains("thin.pool.block-larger-than-bio")
                .contains("no bio reaching its thin devices can be larger than 1024 sectors");
        assertThat(all(d, "//*[local-name()='article']//*[local-name()='p'][@class='basis']/*[local-name()='a']"))
                .extracting(e -> e.getAttribute("href"))
                .containsExactly("#lim-dm-1-max_sectors_kb", "#lim-dm-1-max_segments");
        // no workload: no workload section
        assertThat(all(d, "//*[@id='workload']")).isEmpty();
    }

    @Test
    void aWorkloadAddsChartsAndTheThinFixesReRun(@TempDir Path tmp) throws Exception {
        Document d = seed004Report(tmp, "echo 2048 > /sys/block/dm-1/queue/max_sectors_kb", DD_16M);
        // 16 x 1 MiB, each built as 1344 + 704 sectors (bio_get_nr_vecs = min(168, 4096/8 + 1, 256) = 168 pages):
        // the thin device's bio-size chart has two bars of 16
        List<String> bars = new ArrayList<>();
        for (Element t : all(d, "//*[@id='chart-dm-1']//*[local-name()='rect'][@class='bar-bio']/*[local-name()='title']")) {
            bars.add(t.getTextContent());
        }
        assertThat(bars).containsExactly("704 sectors (352KiB): 16", "1344 sectors (672KiB): 16");
        // the 16 blocks are zeroed first (no bio covers a 2048-sector block): 16 MiB of zeroing against 16 MiB of data
        Element thin = byId(d, "chart-thin-dm-1");
        assertThat(thin.getTextContent()).contains("zeroing 16MiB").contains("written to dm-1 16MiB");
        // the checked fixes: the largest bio is 1344 sectors, so the largest power-of-two block it covers is 1024
        // sectors (512 KiB), which removes the zeroing
        List<Element> rows = all(d, "//*[local-name()='table'][@class='fixes']//*[local-name()='tr'][*[local-name()='td']]");
        assertThat(rows).extracting(r -> r.getElementsByTagName("td").item(0).getTextContent() + " => "
                        + r.getElementsByTagName("td").item(5).getTextContent())
                .contains("recreate the pool with 512KiB blocks (1024 sectors) => works");
        // what each device did: dm-1 received 32 bios, sdg issued requests
        Element stats = byId(d, "device-stats");
        assertThat(stats.getTextContent()).contains("dm-1");
        Node dm1 = all(d, "//*[@id='device-stats']//*[local-name()='tr'][*[local-name()='td'][1]/*[local-name()='a']"
                + "[text()='dm-1']]").get(0);
        assertThat(((Element) dm1).getElementsByTagName("td").item(1).getTextContent()).isEqualTo("32");
    }

    @Test
    void withoutOutputThePageGoesToStdout() throws Exception {
        Cli.Result r = Cli.run("report", "--layout", SEED_004);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
        xml(r.out());
    }

    @Test
    void anOutputThatCannotBeWrittenIsBadInput(@TempDir Path tmp) {
        Path missing = tmp.resolve("no-such-dir").resolve("report.html");
        Cli.Result r = Cli.run("report", "--layout", SEED_004, "-o", missing.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith("dmmodel: --output " + missing + ": cannot write the file");
    }

    @Test
    void traceFormatSvgDrawsTheChartsAlone() throws Exception {
        Cli.Result r = Cli.run("trace", "--layout", SEED_004, "--format", "svg", "--workload", DD_16M);
        assertThat(r.exitCode()).as(r.err()).isZero();
        Document d = xml(r.out());
        assertThat(d.getDocumentElement().getLocalName()).isEqualTo("svg");
        // 3.10 with the stock cap: nr_vecs = min(168, 1024/8 + 1, 256) = 129 pages, max_sectors 1024 stops the
        // bio first: 16 MiB reaches dm-1 as 32 bios of 1024 sectors
        List<String> bars = new ArrayList<>();
        for (Element t : all(d, "//*[local-name()='g'][starts-with(@aria-label, 'dm-1: bios received')]"
                + "//*[local-name()='rect']/*[local-name()='title']")) {
            bars.add(t.getTextContent());
        }
        assertThat(bars).containsExactly("1024 sectors (512KiB): 32");
        // sdg issues requests, and its offsets in issue order are drawn (one point per request)
        List<Element> offsets = all(d, "//*[local-name()='g'][starts-with(@aria-label, 'sdg: request offsets')]"
                + "//*[local-name()='circle']");
        assertThat(offsets).isNotEmpty();
        assertThat(Cli.run("trace", "--layout", SEED_004, "--format", "svg", "--why", "--workload", DD_16M).exitCode())
                .isEqualTo(2);
    }
}
