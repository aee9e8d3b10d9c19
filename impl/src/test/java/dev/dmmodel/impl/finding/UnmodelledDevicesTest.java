package dev.dmmodel.impl.finding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Bytes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whole devices of stacking drivers the model does not implement, as a snapshot imports them (driver OTHER). */
class UnmodelledDevicesTest {

    private static List<Finding> findings(String name, DiskDriver driver) {
        Layout l = Layout.builder(KernelProfile.LINUX_6_12)
                .disk(name, DiskPresets.sasDisk().toBuilder().driver(driver).build().withSize(Bytes.gib(1)))
                .build();
        return l.findings().stream().filter(f -> f.type() == FindingType.DEVICE_NOT_MODELLED).toList();
    }

    @Test
    void anMdArrayIsNamedWithItsDriver() {
        // the 6.12 stacks' md-* snapshots: md0 over vdb..vde, imported as a disk with its recorded limits
        List<Finding> f = findings("md0", DiskDriver.OTHER);
        assertThat(f).hasSize(1);
        assertThat(f.get(0).id()).isEqualTo("device.not-modelled");
        assertThat(f.get(0).message()).isEqualTo("md0 is an md RAID array (drivers/md/md.c), which the model does not"
                + " implement: it is modelled as a disk with the limits the kernel reported, and what it sends to the"
                + " devices below it is not");
    }

    @Test
    void bcacheZramAndNbdToo() {
        assertThat(findings("bcache0", DiskDriver.OTHER)).hasSize(1);
        assertThat(findings("zram0", DiskDriver.OTHER)).hasSize(1);
        assertThat(findings("nbd3", DiskDriver.OTHER)).hasSize(1);
    }

    @Test
    void aDiskOfAModelledDriverOrAnotherNameIsNot() {
        assertThat(findings("sda", DiskDriver.SD)).isEmpty();
        assertThat(findings("mdisk", DiskDriver.OTHER)).isEmpty();
        assertThat(findings("xvda", DiskDriver.OTHER)).isEmpty();
    }
}
