/**
 * dmmodel's implementation: the kernel's and LVM's rules. Nothing here is exported; applications use
 * {@code dev.dmmodel.api}, which finds this module's {@link dev.dmmodel.spi.ModelProvider}.
 */
module dev.dmmodel.impl {
    requires dev.dmmodel.api;
    requires com.google.common;
    requires org.slf4j;
    requires org.yaml.snakeyaml;


    provides dev.dmmodel.spi.ModelProvider with dev.dmmodel.impl.DefaultModelProvider;
    provides dev.dmmodel.spi.FormatProvider with dev.dmmodel.impl.DefaultFormatProvider;
}
