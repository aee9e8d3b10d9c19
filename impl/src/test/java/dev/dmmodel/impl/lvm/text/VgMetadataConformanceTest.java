package dev.dmmodel.impl.lvm.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvRole;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.VolumeGroup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Every recorded {@code vgcfgbackup} file in {@code ${dmmodel.shared.dir}/kernel-traces*}{@code /<case>/snapshot/lvm/*.vg}
 * is read and compared with the {@code lvs}/{@code pvs} JSON reports LVM printed for the same case.
 *
 * <p>Compared, from {@code lvs-segments-all.json} ({@code lvs -a --segments}): the set of LV names and
 * {@code vg_name}; {@code vg_extent_size}; visibility ({@code lv_name} in brackets = hidden); per segment
 * {@code seg_start_pe}, {@code seg_size_pe}, {@code segtype} (linear / striped / thin-pool / thin); for
 * linear and striped segments {@code stripes}, {@code stripe_size} and {@code seg_pe_ranges} (device, first
 * and last PE of each stripe); for thin-pool segments {@code chunk_size}, {@code transaction_id},
 * {@code discards}, {@code zero} and {@code data_lv}/{@code metadata_lv}; for thin segments
 * {@code transaction_id}, {@code thin_id} and {@code pool_lv}. From {@code pvs-all.json}: for each PV of
 * the VG, {@code pe_start}, {@code pv_pe_count} and {@code dev_size}. Not compared: {@code stripes} of a
 * thin pool (the report counts its data LV, the model has no PV areas), {@code mda} sizes (not in the
 * text metadata), UUIDs and times.
 *
 * <p>Without the shared folder the factory is one skipped test with the reason.
 */
class VgMetadataConformanceTest {

    private static final String PROPERTY = "dmmodel.shared.dir";
    private static final List<String> TRACE_FOLDERS = List.of("kernel-traces", "kernel-traces-6.12", "kernel-traces-5.10",
            "kernel-traces-7.2", "kernel-traces-6.12-stacks");
    /** Case-name prefixes whose LVM segment types are not modelled yet, with the issue that brings them. */
    static final Map<String, String> NOT_MODELLED = Map.of();
    private static final Pattern OBJECT = Pattern.compile("\\{[^{}]*\\}");
    private static final Pattern FIELD = Pattern.compile("\"([A-Za-z0-9_]+)\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern RANGE = Pattern.compile("/dev/(\\S+):(\\d+)-(\\d+)");

    @TestFactory
    Stream<DynamicNode> everyRecordedVgFileAgreesWithLvsAndPvs() {
        String property = System.getProperty(PROPERTY);
        Path shared = property == null || property.isBlank() ? null : Path.of(property).toAbsolutePath().normalize();
        if (shared == null || !Files.isDirectory(shared)) {
            String where = shared == null ? "<system property " + PROPERTY + " is not set>" : shared.toString();
            return Stream.of(skipped("shared/ folder not found at " + where + ": LVM metadata conformance skipped"));
        }
        List<DynamicNode> folders = new ArrayList<>();
        for (String folder : TRACE_FOLDERS) {
            Path root = shared.resolve(folder);
            if (!Files.isDirectory(root)) {
                folders.add(skipped(folder + "/ folder not found at " + root + ": its LVM metadata cases skipped"));
            } else {
                folders.add(dynamicContainer(folder, root.toUri(), cases(root)));
            }
        }
        return folders.stream();
    }

    private static DynamicNode skipped(String message) {
        return dynamicTest("LVM metadata conformance", () -> Assumptions.assumeTrue(false, message));
    }

    private static Stream<DynamicNode> cases(Path root) {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(root)) {
            for (Path caseDir : s.sorted().toList()) {
                Path lvm = caseDir.resolve("snapshot").resolve("lvm");
                if (Files.isDirectory(lvm)) {
                    try (Stream<Path> vgs = Files.list(lvm)) {
                        vgs.filter(p -> p.getFileName().toString().endsWith(".vg")).sorted().forEach(files::add);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (files.isEmpty()) {
            return Stream.of(dynamicTest("vg files", () -> {
                throw new AssertionError(root + " holds no */snapshot/lvm/*.vg");
            }));
        }
        return files.stream().map(f -> {
            String caseName = root.relativize(f).getName(0).toString();
            java.util.Optional<String> skip = NOT_MODELLED.entrySet().stream()
                    .filter(e -> caseName.startsWith(e.getKey())).map(Map.Entry::getValue).findFirst();
            return dynamicTest(root.relativize(f).toString(), f.toUri(), () -> {
                Assumptions.assumeTrue(skip.isEmpty(), () -> root.relativize(f) + " skipped: " + skip.orElse(""));
                check(f);
            });
        });
    }

    private static List<Map<String, String>> rows(Path json) throws IOException {
        String text = Files.readString(json);
        List<Map<String, String>> rows = new ArrayList<>();
        Matcher o = OBJECT.matcher(text);
        while (o.find()) {
            Map<String, String> row = new LinkedHashMap<>();
            Matcher f = FIELD.matcher(o.group());
            while (f.find()) {
                row.put(f.group(1), f.group(2));
            }
            if (!row.isEmpty()) {
                rows.add(row);
            }
        }
        return rows;
    }

    private static long sectors(String s) {
        assertThat(s).endsWith("S");
        return Long.parseLong(s.substring(0, s.length() - 1));
    }

    private static String bare(String lvName) {
        return lvName.startsWith("[") && lvName.endsWith("]") ? lvName.substring(1, lvName.length() - 1) : lvName;
    }

    static void check(Path vgFile) throws IOException {
        VolumeGroup vg = VgMetadataReader.read(vgFile);
        Path lvm = vgFile.getParent();

        // a snapshot with several VGs has one report for all: this VG's rows
        List<Map<String, String>> segs = rows(lvm.resolve("lvs-segments-all.json")).stream()
                .filter(r -> vg.name().equals(r.get("vg_name"))).toList();
        assertThat(segs).as("segment rows").isNotEmpty();
        TreeSet<String> reported = new TreeSet<>();
        // lib/metadata/snapshot_manip.c: a classic snapshot is reported under its COW store's name, with the
        // snapshot's chunk size and origin; its snapshotN LV is not reported
        Map<String, SegmentType.Snapshot> snapshotOfCow = new HashMap<>();
        for (LogicalVolume l : vg.logicalVolumes()) {
            if (l.segments().get(0).type() instanceof SegmentType.Snapshot x) {
                snapshotOfCow.put(x.cowStore(), x);
            }
        }
        for (Map<String, String> row : segs) {
            assertThat(row.get("vg_name")).isEqualTo(vg.name());
            assertThat(sectors(row.get("vg_extent_size"))).isEqualTo(vg.extentSize().count());
            String name = bare(row.get("lv_name"));
            reported.add(name);
            LogicalVolume lv = vg.logicalVolume(name).orElseThrow(() -> new AssertionError("no LV " + name));
            String what = vg.name() + "/" + name + " at LE " + row.get("seg_start_pe");
            boolean shown = lv.role() == LvRole.SNAPSHOT_COW || lv.visible();
            assertThat(shown).as(what + " visible").isEqualTo(!row.get("lv_name").startsWith("["));
            if (snapshotOfCow.containsKey(name)) {
                SegmentType.Snapshot x = snapshotOfCow.get(name);
                assertThat(x.chunkSize().count()).as(what + " chunk_size").isEqualTo(sectors(row.get("chunk_size")));
                assertThat(x.origin()).as(what + " origin").isEqualTo(row.get("origin"));
            }
            long start = Long.parseLong(row.get("seg_start_pe"));
            LvSegment seg = lv.segments().stream().filter(s -> s.startExtent() == start).findFirst()
                    .orElseThrow(() -> new AssertionError("no segment of " + what));
            assertThat(seg.extentCount()).as(what + " seg_size_pe").isEqualTo(Long.parseLong(row.get("seg_size_pe")));
            assertThat(seg.segType()).as(what + " segtype").isEqualTo(row.get("segtype"));
            if (seg.isStriped()) {
                assertThat(seg.stripes()).as(what + " stripes").isEqualTo(Integer.parseInt(row.get("stripes")));
                assertThat(seg.stripeSize().count()).as(what + " stripe_size").isEqualTo(sectors(row.get("stripe_size")));
                List<StripeArea> ranges = new ArrayList<>();
                Matcher m = RANGE.matcher(row.get("seg_pe_ranges"));
                while (m.find()) {
                    long first = Long.parseLong(m.group(2));
                    assertThat(Long.parseLong(m.group(3)) - first + 1).as(what + " range length")
                            .isEqualTo(seg.areaLength());
                    ranges.add(new StripeArea(m.group(1), first));
                }
                assertThat(seg.areas()).as(what + " seg_pe_ranges").isEqualTo(ranges);
            } else if (seg.thinPool().isPresent()) {
                SegmentType.ThinPool p = seg.thinPool().get();
                assertThat(p.chunkSize().count()).as(what + " chunk_size").isEqualTo(sectors(row.get("chunk_size")));
                assertThat(p.transactionId()).as(what + " transaction_id")
                        .isEqualTo(Long.parseLong(row.get("transaction_id")));
                assertThat(p.discards().word()).as(what + " discards").isEqualTo(row.get("discards"));
                assertThat(p.zeroNewBlocks()).as(what + " zero").isEqualTo("zero".equals(row.get("zero")));
                assertThat(p.dataLv()).isEqualTo(bare(row.get("data_lv")));
                assertThat(p.metadataLv()).isEqualTo(bare(row.get("metadata_lv")));
            } else if (seg.type() instanceof SegmentType.CachePool p) {
                assertThat(p.chunkSize().count()).as(what + " chunk_size").isEqualTo(sectors(row.get("chunk_size")));
                assertThat(p.dataLv()).isEqualTo(bare(row.get("data_lv")));
                assertThat(p.metadataLv()).isEqualTo(bare(row.get("metadata_lv")));
                assertThat(p.cacheMode().map(SegmentType.CacheMode::word).orElse("")).as(what + " cache_mode")
                        .isEqualTo(row.get("cache_mode"));
                assertThat(p.policy().orElse("")).as(what + " cache_policy").isEqualTo(row.get("cache_policy"));
            } else if (seg.type() instanceof SegmentType.Cache c) {
                SegmentType.CachePool p = (SegmentType.CachePool) vg.logicalVolume(c.cachePool()).orElseThrow()
                        .segments().get(0).type();
                assertThat(c.origin()).as(what + " origin").isEqualTo(bare(row.get("origin")));
                assertThat(c.cachePool()).as(what + " pool_lv").isEqualTo(bare(row.get("pool_lv")));
                assertThat(p.chunkSize().count()).as(what + " chunk_size").isEqualTo(sectors(row.get("chunk_size")));
                assertThat(p.cacheMode().map(SegmentType.CacheMode::word).orElse("")).as(what + " cache_mode")
                        .isEqualTo(row.get("cache_mode"));
            } else if (seg.type() instanceof SegmentType.Raid r) {
                // lib/report/report.c: stripes = area_count, data_copies, seg_pe_ranges over the images'
                // LEs, metadata_devices the rmeta LVs
                assertThat(r.deviceCount()).as(what + " stripes").isEqualTo(Integer.parseInt(row.get("stripes")));
                assertThat(r.stripeSize().count()).as(what + " stripe_size").isEqualTo(sectors(row.get("stripe_size")));
                assertThat(r.regionSize().count()).as(what + " region_size").isEqualTo(sectors(row.get("region_size")));
                assertThat(r.copies()).as(what + " data_copies").isEqualTo(Integer.parseInt(row.get("data_copies")));
                List<String> images = new ArrayList<>();
                long areaLen = r.imageExtents(seg.extentCount());
                for (String image : r.imageLvs()) {
                    images.add(image + ":0-" + (areaLen - 1));
                }
                assertThat(row.get("seg_pe_ranges")).as(what + " seg_pe_ranges").isEqualTo(String.join(" ", images));
                List<String> metas = new ArrayList<>();
                for (String meta : r.metadataLvs()) {
                    metas.add(meta + "(0)");
                }
                assertThat(row.get("metadata_devices")).as(what + " metadata_devices")
                        .isEqualTo(String.join(",", metas));
            } else if (seg.type() instanceof SegmentType.Writecache w) {
                assertThat(w.origin()).as(what + " origin").isEqualTo(bare(row.get("origin")));
                assertThat(w.writecache()).as(what + " pool_lv").isEqualTo(bare(row.get("pool_lv")));
                assertThat(w.blockSize()).as(what + " writecache_block_size")
                        .isEqualTo(Long.parseLong(row.get("writecache_block_size")));
            } else {
                SegmentType.Thin t = seg.thin().orElseThrow();
                assertThat(t.transactionId()).as(what + " transaction_id")
                        .isEqualTo(Long.parseLong(row.get("transaction_id")));
                assertThat(t.deviceId()).as(what + " thin_id").isEqualTo(Long.parseLong(row.get("thin_id")));
                assertThat(t.pool()).as(what + " pool_lv").isEqualTo(bare(row.get("pool_lv")));
            }
        }
        List<LogicalVolume> reportable = vg.logicalVolumes().stream().filter(l -> l.role() != LvRole.SNAPSHOT).toList();
        assertThat(reported).as("LVs").isEqualTo(new TreeSet<>(reportable.stream().map(LogicalVolume::name).toList()));
        long segments = reportable.stream().mapToLong(l -> l.segments().size()).sum();
        assertThat((long) segs.size()).as("segment count").isEqualTo(segments);

        Map<String, Map<String, String>> pvRows = new HashMap<>();
        for (Map<String, String> row : rows(lvm.resolve("pvs-all.json"))) {
            pvRows.put(row.get("pv_name"), row);
        }
        for (PhysicalVolume pv : vg.physicalVolumes()) {
            Map<String, String> row = pvRows.get("/dev/" + pv.device());
            assertThat(row).as("pvs row of /dev/" + pv.device()).isNotNull();
            assertThat(pv.peStart().count()).as(pv.device() + " pe_start").isEqualTo(sectors(row.get("pe_start")));
            assertThat(pv.peCount()).as(pv.device() + " pv_pe_count").isEqualTo(Long.parseLong(row.get("pv_pe_count")));
            assertThat(pv.devSize().count()).as(pv.device() + " dev_size").isEqualTo(sectors(row.get("dev_size")));
        }
    }
}
