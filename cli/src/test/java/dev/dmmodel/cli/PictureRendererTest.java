package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class PictureRendererTest {

    static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    static List<Element> elements(Document d, String tag) {
        NodeList list = d.getElementsByTagNameNS("http://www.w3.org/2000/svg", tag);
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < list.getLength(); i++) {
            out.add((Element) list.item(i));
        }
        return out;
    }

    @Test
    void svgOfTheSector63Stack() throws Exception {
        StackPicture p = StackPicture.of(StackPictureTest.sector63(), PictureRenderer.SVG_WIDTH, 12,
                PictureRenderer.SVG_MIN_WIDTH);
        Document d = parse(PictureRenderer.svg(p, "test"));
        assertThat(d.getDocumentElement().getLocalName()).isEqualTo("svg");
        assertThat(elements(d, "script")).isEmpty();
        assertThat(elements(d, "image")).isEmpty();
        // sda, sda1, lin0, lin: one rect each
        assertThat(elements(d, "rect")).hasSize(4);
        List<Element> marks = elements(d, "line").stream().filter(e -> e.getAttribute("class").equals("misaligned"))
                .toList();
        // drawn top row first: lin0's mark, then sda1's
        assertThat(marks).extracting(Element::getTextContent).containsExactly(
                "dm-0 (lin0) starts at sector 0 (0 bytes) of sda1, sector 63 of sda: 3584 bytes past a 4096-byte"
                        + " boundary (align.device.offset)",
                "sda1 starts at sector 63 (32256 bytes) of sda: 3584 bytes past a 4096-byte boundary"
                        + " (align.partition.physical-block)");
        // the mark is on the box's left edge, in the box's group
        Element sda1Rect = elements(d, "rect").stream()
                .filter(r -> ((Element) r.getParentNode()).getAttribute("data-device").equals("sda1")).findFirst()
                .orElseThrow();
        assertThat(marks.get(1).getParentNode()).isSameAs(sda1Rect.getParentNode());
        assertThat(marks.get(1).getAttribute("x1")).isEqualTo(sda1Rect.getAttribute("x"));
        assertThat(sda1Rect.getAttribute("class")).isEqualTo("partition bad");
        // labels: name, start in sectors and bytes, size (16777153 x 512 = 8589902336 bytes = 8388576.5 KiB)
        List<String> texts = elements(d, "text").stream().map(Element::getTextContent).toList();
        assertThat(texts).contains("sda1", "at 63 s (32256 B) of sda", "16777153 s (8388576.5KiB)",
                "at 1985 s (1016320 B) of sda1");
        // rows bottom up: the disk's box (drawn last) is the lowest
        List<Element> rects = elements(d, "rect");
        double diskY = Double.parseDouble(rects.get(rects.size() - 1).getAttribute("y"));
        assertThat(elements(d, "rect")).allSatisfy(r -> assertThat(Double.parseDouble(r.getAttribute("y")))
                .isLessThanOrEqualTo(diskY));
    }

    @Test
    void namesAreEscaped() throws Exception {
        String name = "a&b<c>\"d'e";
        Layout l = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .dmsetupCreate(name, t -> t.linear(Sectors.of(2048), "sda", Sectors.ZERO))
                .build();
        String svg = PictureRenderer.svg(StackPicture.of(l, 960, 12, 8), "caption <&>");
        Document d = parse(svg);
        assertThat(elements(d, "title").get(0).getTextContent()).isEqualTo("caption <&>");
        assertThat(elements(d, "title")).anySatisfy(t -> assertThat(t.getTextContent()).startsWith("dm-0 (" + name + ")"));
        assertThat(PictureRenderer.xml("<a href='x'>&\"\u0001")).isEqualTo("&lt;a href=&apos;x&apos;&gt;&amp;&quot;\uFFFD");
    }

    @Test
    void textPicture() {
        String text = PictureRenderer.text(StackPicture.of(StackPictureTest.sector63(), PictureRenderer.TEXT_WIDTH, 2,
                PictureRenderer.TEXT_MIN_WIDTH));
        String[] lines = text.split("\n");
        // dm in two lanes (lin above lin0), partitions, disks; then the two misaligned starts
        assertThat(lines).hasSize(6);
        assertThat(lines[0]).startsWith("            [dm-1 ");
        assertThat(lines[1]).startsWith("dm          !dm-0 ]");
        assertThat(lines[2]).startsWith("partitions  !sda1 ").endsWith("]");
        assertThat(lines[3]).startsWith("disks       [sda  ").endsWith("]");
        // 96 columns of boxes after the title column
        assertThat(lines[3]).hasSize(12 + PictureRenderer.TEXT_WIDTH);
        assertThat(lines[4]).isEqualTo("! sda1 starts at sector 63 (32256 bytes) of sda: 3584 bytes past a 4096-byte"
                + " boundary (align.partition.physical-block)");
        assertThat(lines[5]).startsWith("! dm-0 (lin0) starts at sector 0 (0 bytes) of sda1, sector 63 of sda");
    }

    /** Every recorded host: a well-formed SVG with a box per box and a mark per misaligned start. */
    @Test
    void everyRecordedSnapshotDrawsAWellFormedSvg() throws Exception {
        String property = System.getProperty("dmmodel.shared.dir");
        Path shared = property == null || property.isBlank() ? null : Path.of(property);
        Assumptions.assumeTrue(shared != null && Files.isDirectory(shared.resolve("kernel-traces")),
                "shared/kernel-traces absent: skipped");
        List<Path> cases;
        try (Stream<Path> s = Files.list(shared.resolve("kernel-traces"))) {
            cases = s.filter(c -> Files.isDirectory(c.resolve("snapshot"))).sorted().toList();
        }
        int marked = 0;
        for (Path c : cases) {
            HostSnapshot s = HostSnapshot.read(c.resolve("snapshot"));
            Layout l = Layout.of(s.toLayoutSpec(s.profile().orElse(KernelProfile.defaultProfile())));
            StackPicture p = StackPicture.of(l, PictureRenderer.SVG_WIDTH, 12, PictureRenderer.SVG_MIN_WIDTH);
            Document d = parse(PictureRenderer.svg(p, c.getFileName().toString()));
            assertThat(elements(d, "rect")).as(c.toString()).hasSize(p.boxes().size());
            long marks = p.boxes().stream().filter(StackPicture.Box::misaligned).count();
            assertThat(elements(d, "line")).as(c.toString()).hasSize((int) marks);
            // every partition with an align.partition finding has its box marked with that id
            l.findings().stream().filter(f -> f.id().startsWith("align.partition.")).forEach(f ->
                    assertThat(p.boxes(f.device())).as(c + " " + f.device())
                            .allSatisfy(b -> assertThat(b.mark().findingIds()).contains(f.id())));
            marked += (int) marks;
        }
        assertThat(cases).hasSizeGreaterThan(20);
        assertThat(marked).isGreaterThan(0);
    }
}
