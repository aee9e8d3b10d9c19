/**
 * dmmodel's public API: units, queue limits and kernel profiles, devices, device-mapper tables, LVM
 * volumes, layouts and findings, and readers and writers of the formats hosts keep ({@code dev.dmmodel.io}).
 * The algorithms live in the module {@code dev.dmmodel.impl}, which this module finds with
 * {@link java.util.ServiceLoader}; the service interfaces between the two are exported to it alone, the JSON
 * string writer to it and to the command line, and neither is part of the API.
 */
// the qualified exports name modules built after this one: javac's "module not found" is expected here
@SuppressWarnings("module")
module dev.dmmodel.api {
    requires com.google.common;

    exports dev.dmmodel.units;
    exports dev.dmmodel.limits;
    exports dev.dmmodel.device;
    exports dev.dmmodel.dm;
    exports dev.dmmodel.lvm;
    exports dev.dmmodel.layout;
    exports dev.dmmodel.finding;
    exports dev.dmmodel.trace;
    exports dev.dmmodel.workload;
    exports dev.dmmodel.engine;
    exports dev.dmmodel.analysis;
    exports dev.dmmodel.io;
    exports dev.dmmodel.plan;

    // the service provider interfaces: for the implementation only, not for applications
    exports dev.dmmodel.spi to dev.dmmodel.impl;
    // the one JSON string writer (TraceFormat's, the implementation's, the CLI's): not API either
    exports dev.dmmodel.internal.json to dev.dmmodel.impl, dev.dmmodel.cli;

    uses dev.dmmodel.spi.ModelProvider;
    uses dev.dmmodel.spi.FormatProvider;
}
