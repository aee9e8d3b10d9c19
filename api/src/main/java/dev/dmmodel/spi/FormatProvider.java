package dev.dmmodel.spi;

import dev.dmmodel.dm.DmTable;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.io.LsblkImport;
import dev.dmmodel.io.LvmScript;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.VolumeGroup;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The readers and writers behind {@code dev.dmmodel.io}, found with {@link java.util.ServiceLoader}
 * ({@code dmmodel-impl} provides them). Applications call the classes of {@code dev.dmmodel.io}, not this.
 */
public interface FormatProvider {

    /** See {@link HostSnapshot#read(Path)}. */
    HostSnapshot readSnapshot(Path directory);

    /** See {@link dev.dmmodel.io.LvmMetadata#read(String, String)}. */
    VolumeGroup readLvmMetadata(String text, String source);

    /** See {@link dev.dmmodel.io.LvmMetadata#write(VolumeGroup)}. */
    String writeLvmMetadata(VolumeGroup volumeGroup);

    /** See {@link dev.dmmodel.io.DmTables#read(String, String)}. */
    Map<String, DmTable> readDmTables(String text, String source);

    /** See {@link dev.dmmodel.io.DmTables#addTo(LayoutSpec, String, String)}. */
    LayoutSpec addDmTables(LayoutSpec spec, String text, String source);

    /** See {@link dev.dmmodel.io.DmTables#write(Layout)}. */
    String writeDmTables(Layout layout);

    /** See {@link dev.dmmodel.io.LvmCommands#write(Layout)}. */
    LvmScript writeLvmCommands(Layout layout);

    /** See {@link dev.dmmodel.io.LvmCommands#read(String, String)}. */
    List<LayoutStep> readLvmCommands(String script, String source);

    /** See {@link dev.dmmodel.io.LvmReports#readFullReport(String, String)}. */
    List<VolumeGroup> readLvmFullReport(String json, String source);

    /** See {@link dev.dmmodel.io.LvmReports#read(String, Optional, String, String)}. */
    List<VolumeGroup> readLvmReports(String pvsJson, Optional<String> vgsJson, String lvsSegmentsJson, String source);

    /** See {@link dev.dmmodel.io.Lsblk#read(String, String)}. */
    LsblkImport readLsblk(String json, String source);

    /**
     * See {@link dev.dmmodel.io.LayoutFiles#read(String, String)}; {@code kernel} null means the file's
     * {@code kernel:} or the default.
     */
    LayoutSpec readLayoutFile(String text, String source, KernelProfile kernel);

    /** See {@link dev.dmmodel.io.LayoutFiles#kernel(String, String)}. */
    Optional<KernelProfile> layoutFileKernel(String text, String source);

    /**
     * See {@link dev.dmmodel.io.LayoutFiles#build(String, String, KernelProfile)}; {@code kernel} null means the
     * file's {@code kernel:} or the default.
     */
    Layout buildLayoutFile(String text, String source, KernelProfile kernel);

    /** See {@link dev.dmmodel.io.LayoutFiles#text(Path)}. */
    String readLayoutFileText(Path file);

    /** See {@link dev.dmmodel.io.HostSnapshot#sysfsAttributes(QueueLimits)}. */
    Map<String, Long> sysfsAttributes(QueueLimits limits);

    /** See {@link dev.dmmodel.io.LayoutFiles#write(LayoutSpec)}. */
    String writeLayoutFile(LayoutSpec spec);

    /** See {@link dev.dmmodel.plan.PlanFormat#detect(String, String)}. */
    dev.dmmodel.plan.PlanFormat detectPlanFormat(String text, String source);

    /** See {@link dev.dmmodel.plan.Plan#parse(String, String, dev.dmmodel.plan.PlanFormat)}. */
    List<dev.dmmodel.plan.PlanCommand> parsePlan(String text, String source, dev.dmmodel.plan.PlanFormat format);

    /** See {@link dev.dmmodel.plan.Plan#applyTo(LayoutSpec)}. */
    dev.dmmodel.plan.PlanResult applyPlan(dev.dmmodel.plan.Plan plan, LayoutSpec host);
}
