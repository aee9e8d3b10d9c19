/**
 * dmmodel's public API: units, queue limits and kernel profiles, devices, device-mapper tables, LVM
 * volumes, layouts and findings. The algorithms live in {@code dev.dmmodel.impl}, found through
 * {@link dev.dmmodel.spi.ModelProvider}.
 */
module dev.dmmodel.api {
    requires com.google.common;

    exports dev.dmmodel.units;
    exports dev.dmmodel.limits;
    exports dev.dmmodel.device;
    exports dev.dmmodel.dm;
    exports dev.dmmodel.lvm;
    exports dev.dmmodel.layout;
    exports dev.dmmodel.finding;
    exports dev.dmmodel.spi;
    exports dev.dmmodel.trace;
    exports dev.dmmodel.workload;
    exports dev.dmmodel.engine;
    exports dev.dmmodel.analysis;
    exports dev.dmmodel.io;

    uses dev.dmmodel.spi.ModelProvider;
    uses dev.dmmodel.spi.FormatProvider;
}
