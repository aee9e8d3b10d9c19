package dev.dmmodel.benchmarks;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.io.DmTables;
import dev.dmmodel.io.LayoutFiles;
import dev.dmmodel.io.LvmCommands;
import dev.dmmodel.io.LvmMetadata;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Bytes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reading and writing the host formats of {@code dev.dmmodel.io} for a large host: 16 SAS disks, one PV each,
 * one VG {@code vg} and {@code lvs} logical volumes, every fourth striped over 4 PVs (so {@code lvs} dm devices,
 * {@code lvs} LVs in the metadata, a script of about {@code lvs + 17} commands, also read and dry-run as a
 * provisioning plan). Average time per call.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar Formats -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class Formats {

    /** Logical volumes (and dm devices) of the host. */
    @Param({"100", "1000"})
    public int lvs;

    private Layout layout;
    private LayoutSpec spec;
    private String dmTables;
    private String lvmMetadata;
    private String layoutFile;
    private String lvmCommands;
    private LayoutSpec disks;

    /** Builds the host and writes it in every format once. */
    @Setup(Level.Trial)
    public void writeHost() {
        LayoutBuilder b = Layout.builder(KernelProfile.defaultProfile());
        String[] pvs = new String[16];
        for (int i = 0; i < pvs.length; i++) {
            pvs[i] = "sd" + (char) ('a' + i);
            b.disk(pvs[i], DiskPresets.sasDisk().withSize(Bytes.tib(2)));
        }
        disks = new LayoutSpec(KernelProfile.defaultProfile(), b.steps());
        for (String pv : pvs) {
            b.pvcreate(pv);
        }
        b.vgcreate("vg", pvs);
        for (int i = 0; i < lvs; i++) {
            LvCreateRequest.Builder r = LvCreateRequest.builder("lv" + i).size(Bytes.gib(1));
            if (i % 4 == 3) {
                r.stripes(4).stripeSize(Bytes.kib(64));
            }
            b.lvcreate("vg", r.build());
        }
        spec = new LayoutSpec(KernelProfile.defaultProfile(), b.steps());
        layout = Layout.of(spec);
        dmTables = DmTables.write(layout);
        lvmMetadata = LvmMetadata.write(layout.volumeGroups().get(0));
        layoutFile = LayoutFiles.write(spec);
        lvmCommands = LvmCommands.write(layout).script();
    }

    /** {@code dmsetup table} text of every device, parsed and checked. */
    @Benchmark
    public Map<?, ?> readDmTables() {
        return DmTables.read(dmTables, "dmsetup-table.txt");
    }

    /** {@code dmsetup table} text of the layout. */
    @Benchmark
    public String writeDmTables() {
        return DmTables.write(layout);
    }

    /** The VG's {@code vgcfgbackup} text, read and checked (extent table included). */
    @Benchmark
    public VolumeGroup readLvmMetadata() {
        return LvmMetadata.read(lvmMetadata, "vg.vg");
    }

    /** The VG as {@code vgcfgbackup} text. */
    @Benchmark
    public String writeLvmMetadata() {
        return LvmMetadata.write(layout.volumeGroups().get(0));
    }

    /** The layout file read into steps (YAML parse and checks, not the build). */
    @Benchmark
    public LayoutSpec readLayoutFile() {
        return LayoutFiles.read(layoutFile, "host.yaml");
    }

    /** The LVM commands parsed back into steps. */
    @Benchmark
    public List<LayoutStep> readLvmCommands() {
        return LvmCommands.read(lvmCommands, "recreate.sh");
    }

    /** The LVM commands written (each pvcreate's options searched by replaying LVM's pe_start rule). */
    @Benchmark
    public String writeLvmCommands() {
        return LvmCommands.write(layout).script();
    }

    /** The disks with every dm table added, built into a layout: importing a host from lsblk and dmsetup. */
    @Benchmark
    public Layout importDmTablesAndBuild() {
        return Layout.of(DmTables.addTo(disks, dmTables, "dmsetup-table.txt"));
    }

    /** The LVM commands read as a provisioning plan (shell lexing and every command checked, no host). */
    @Benchmark
    public dev.dmmodel.plan.Plan readPlan() {
        return dev.dmmodel.plan.Plan.parse(lvmCommands, "recreate.sh", dev.dmmodel.plan.PlanFormat.SHELL);
    }

    /**
     * The LVM commands dry-run on the blank disks: every command re-read against the host and the layout rebuilt
     * after it (so the cost grows with the square of the number of commands).
     */
    @Benchmark
    public dev.dmmodel.plan.PlanResult applyPlan() {
        return dev.dmmodel.plan.Plan.parse(lvmCommands, "recreate.sh", dev.dmmodel.plan.PlanFormat.SHELL)
                .applyTo(disks);
    }
}
