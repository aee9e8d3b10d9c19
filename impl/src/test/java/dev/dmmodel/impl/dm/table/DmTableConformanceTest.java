package dev.dmmodel.impl.dm.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.impl.format.snapshot.Snapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Every recorded {@code ${dmmodel.shared.dir}/kernel-traces{,-6.12}/<case>/snapshot/dmsetup-table.txt}:
 * the parsed tables written again are the file byte for byte (the thin-pool's trailing blank included), the
 * tables of the snapshot's layout written are the file byte for byte (what {@code export --to dm-tables}
 * prints), and the snapshot's disks plus the file parsed on its own give the layout of the snapshot import.
 * Skipped, with the reason, without the shared folder.
 */
class DmTableConformanceTest {

    private static final String PROPERTY = "dmmodel.shared.dir";
    private static final List<String> TRACE_FOLDERS = List.of("kernel-traces", "kernel-traces-6.12");

    static List<Path> recordedTables() {
        String property = System.getProperty(PROPERTY);
        Path shared = property == null || property.isBlank() ? null : Path.of(property).toAbsolutePath().normalize();
        Assumptions.assumeTrue(shared != null && Files.isDirectory(shared), "shared/ folder not found at "
                + (shared == null ? "<system property " + PROPERTY + " is not set>" : shared)
                + ": dmsetup table conformance skipped");
        List<Path> files = new ArrayList<>();
        for (String folder : TRACE_FOLDERS) {
            Path root = shared.resolve(folder);
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> s = Files.list(root)) {
                s.map(c -> c.resolve("snapshot").resolve("dmsetup-table.txt")).filter(Files::isRegularFile)
                        .sorted().forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Assumptions.assumeFalse(files.isEmpty(), "no recorded dmsetup-table.txt under " + shared
                + ": dmsetup table conformance skipped");
        return files;
    }

    private static String read(Path f) {
        try {
            return Files.readString(f, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void everyRecordedFileParsedAndWrittenIsTheFileByteForByte() {
        List<Path> files = recordedTables();
        List<String> differing = new ArrayList<>();
        int same = 0;
        int targets = 0;
        for (Path f : files) {
            String text = read(f);
            DmTables t = DmTableParser.parse(text, f.toString());
            targets += t.devices().stream().mapToInt(d -> d.table().targets().size()).sum();
            if (DmTableFormatter.tables(t, Map.of()).equals(text)) {
                same++;
            } else {
                differing.add(f.toString());
            }
        }
        assertThat(differing).as("files not reproduced byte for byte").isEmpty();
        assertThat(same).as("%d of %d recorded files reproduced", same, files.size()).isEqualTo(files.size());
        // one target per line of every file
        assertThat(targets).isEqualTo(files.stream().mapToLong(f -> read(f).lines().count()).sum());
    }

    @Test
    void everyRecordedSnapshotsLayoutWritesTheFileByteForByte() {
        List<Path> files = recordedTables();
        int same = 0;
        for (Path f : files) {
            Layout layout = Layout.of(Snapshot.read(f.getParent()).toLayoutSpec());
            assertThat(DmTableFormatter.tables(layout)).as(f.toString()).isEqualTo(read(f));
            same++;
        }
        assertThat(same).isEqualTo(files.size());
    }

    /** The snapshot's disks and partitions, its dmsetup table parsed on its own, give the snapshot's layout. */
    @Test
    void disksPlusTheStandaloneTablesGiveTheSnapshotsLayout() {
        List<Path> files = recordedTables();
        int same = 0;
        for (Path f : files) {
            Snapshot s = Snapshot.read(f.getParent());
            LayoutSpec full = s.toLayoutSpec();
            LayoutSpec disks = new LayoutSpec(full.profile(), full.steps().stream()
                    .filter(st -> !(st instanceof LayoutStep.DmCreate)).toList());
            Map<String, DevNumber> numbers = new LinkedHashMap<>();
            Map<String, DmTableImport.Identity> identities = new LinkedHashMap<>();
            for (Snapshot.Device d : s.devices()) {
                if (d.isDm()) {
                    numbers.put(d.dmName().orElseThrow(), d.dev());
                    identities.put(d.dmName().orElseThrow(), new DmTableImport.Identity(d.dmUuid().orElse(""),
                            Optional.of(d.kname()), Optional.of(d.dev())));
                } else {
                    numbers.put(d.kname(), d.dev());
                }
            }
            s.partitions().forEach(p -> numbers.put(p.kname(), p.dev()));
            DmTables tables = DmTableParser.parse(read(f), f.toString(), numbers);
            assertThat(tables.devices()).hasSize(s.dmDevices().size());
            Layout expected = Layout.of(full);
            Layout actual = Layout.of(DmTableImport.addTo(disks, tables, identities, f.toString()));
            Comparator<BlockDevice> byName = Comparator.comparing(BlockDevice::name);
            assertThat(actual.devices().stream().sorted(byName).toList()).as(f.toString())
                    .isEqualTo(expected.devices().stream().sorted(byName).toList());
            assertThat(actual.volumeGroups()).as(f.toString()).isEqualTo(expected.volumeGroups());
            assertThat(actual.physicalVolumes()).as(f.toString()).isEqualTo(expected.physicalVolumes());
            same++;
        }
        assertThat(same).isEqualTo(files.size());
    }
}
