package dev.dmmodel.impl;

import dev.dmmodel.dm.DmTable;
import dev.dmmodel.impl.dm.table.DmTableFormatter;
import dev.dmmodel.impl.dm.table.DmTableImport;
import dev.dmmodel.impl.dm.table.DmTableParser;
import dev.dmmodel.impl.dm.table.DmTables;
import dev.dmmodel.impl.lvm.cmd.LvmCommandParser;
import dev.dmmodel.impl.lvm.cmd.LvmCommandWriter;
import dev.dmmodel.impl.lvm.text.VgMetadataReader;
import dev.dmmodel.impl.lvm.text.VgMetadataWriter;
import dev.dmmodel.impl.format.snapshot.Snapshot;
import dev.dmmodel.impl.format.snapshot.SysfsQueueAttributes;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.impl.format.layoutfile.LayoutFileReader;
import dev.dmmodel.impl.format.layoutfile.LayoutFileWriter;
import dev.dmmodel.impl.format.lsblk.LsblkReader;
import dev.dmmodel.impl.lvm.report.LvmReportReader;
import dev.dmmodel.io.LsblkImport;
import dev.dmmodel.io.LvmScript;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.spi.FormatProvider;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The format readers and writers the API finds through {@link java.util.ServiceLoader}. */
public final class DefaultFormatProvider implements FormatProvider {

    /** Public no-argument constructor for the service loader. */
    public DefaultFormatProvider() {
    }

    @Override
    public HostSnapshot readSnapshot(Path directory) {
        return Snapshot.read(directory).toHostSnapshot();
    }

    @Override
    public VolumeGroup readLvmMetadata(String text, String source) {
        return VgMetadataReader.read(text, source);
    }

    @Override
    public String writeLvmMetadata(VolumeGroup volumeGroup) {
        return VgMetadataWriter.write(volumeGroup);
    }

    @Override
    public Map<String, DmTable> readDmTables(String text, String source) {
        Map<String, DmTable> tables = new LinkedHashMap<>();
        for (DmTables.Device d : DmTableParser.parse(text, source).devices()) {
            tables.put(d.name(), d.table());
        }
        return java.util.Collections.unmodifiableMap(tables);
    }

    @Override
    public LayoutSpec addDmTables(LayoutSpec spec, String text, String source) {
        return DmTableImport.addTo(spec, DmTableParser.parse(text, source), source);
    }

    @Override
    public String writeDmTables(Layout layout) {
        return DmTableFormatter.tables(layout);
    }

    @Override
    public LvmScript writeLvmCommands(Layout layout) {
        LvmCommandWriter.Result r = LvmCommandWriter.write(layout);
        return new LvmScript(r.script(), r.warnings());
    }

    @Override
    public List<LayoutStep> readLvmCommands(String script, String source) {
        return LvmCommandParser.parse(script, source);
    }

    @Override
    public List<VolumeGroup> readLvmFullReport(String json, String source) {
        return LvmReportReader.readFullReport(json, source);
    }

    @Override
    public List<VolumeGroup> readLvmReports(String pvsJson, Optional<String> vgsJson, String lvsSegmentsJson,
            String source) {
        return LvmReportReader.read(pvsJson, vgsJson.orElse(null), lvsSegmentsJson, source);
    }

    @Override
    public LsblkImport readLsblk(String json, String source) {
        return LsblkReader.read(json, source);
    }

    @Override
    public LayoutSpec readLayoutFile(String text, String source, KernelProfile kernel) {
        dev.dmmodel.impl.format.layoutfile.LayoutFile file = LayoutFileReader.read(text, source);
        return kernel == null ? file.spec() : file.spec(kernel);
    }

    @Override
    public Optional<KernelProfile> layoutFileKernel(String text, String source) {
        return LayoutFileReader.read(text, source).kernel();
    }

    @Override
    public Layout buildLayoutFile(String text, String source, KernelProfile kernel) {
        dev.dmmodel.impl.format.layoutfile.LayoutFile file = LayoutFileReader.read(text, source);
        return kernel == null ? file.build() : file.build(kernel);
    }

    @Override
    public String readLayoutFileText(Path file) {
        return LayoutFileReader.text(file);
    }

    @Override
    public Map<String, Long> sysfsAttributes(QueueLimits limits) {
        return SysfsQueueAttributes.of(limits);
    }

    @Override
    public String writeLayoutFile(LayoutSpec spec) {
        return LayoutFileWriter.write(spec);
    }

    @Override
    public dev.dmmodel.plan.PlanFormat detectPlanFormat(String text, String source) {
        return dev.dmmodel.impl.plan.PlanFormats.detect(text, source);
    }

    @Override
    public List<dev.dmmodel.plan.PlanCommand> parsePlan(String text, String source,
                                                        dev.dmmodel.plan.PlanFormat format) {
        List<dev.dmmodel.plan.PlanCommand> out = new java.util.ArrayList<>();
        for (dev.dmmodel.impl.plan.PlanOp op : dev.dmmodel.impl.plan.PlanFormats.reader(format).read(text, source)) {
            out.add(new dev.dmmodel.plan.PlanCommand(op.origin().line(), op.tool(), op.origin().text()));
        }
        return List.copyOf(out);
    }

    @Override
    public dev.dmmodel.plan.PlanResult applyPlan(dev.dmmodel.plan.Plan plan, LayoutSpec host) {
        List<dev.dmmodel.impl.plan.PlanOp> ops = dev.dmmodel.impl.plan.PlanFormats.reader(plan.format())
                .read(plan.text(), plan.source());
        return dev.dmmodel.impl.plan.PlanRunner.run(plan.source(), ops, host);
    }
}
