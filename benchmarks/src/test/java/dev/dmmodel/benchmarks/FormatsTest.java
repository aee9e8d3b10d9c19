package dev.dmmodel.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The formats benchmark's host and each of its operations, on a small host, so the benchmark cannot rot. */
class FormatsTest {

    @Test
    void everyOperationRoundTripsTheSmallHost() {
        Formats f = new Formats();
        f.lvs = 8;
        f.writeHost();

        assertThat(f.readDmTables()).hasSize(8);
        assertThat(f.writeDmTables()).hasLineCount(8);
        assertThat(f.readLvmMetadata().logicalVolumes()).hasSize(8);
        assertThat(f.readLvmMetadata().physicalVolumes()).hasSize(16);
        // 16 pvcreate + vgcreate + 8 lvcreate
        assertThat(f.readLvmCommands()).hasSize(25);
        assertThat(f.writeLvmCommands()).contains("lvcreate");
        assertThat(f.readLayoutFile().steps()).hasSize(16 + 16 + 1 + 8);
        // tables only: the dm devices, no volume group
        assertThat(f.importDmTablesAndBuild().dmDevices()).hasSize(8);
        assertThat(f.importDmTablesAndBuild().volumeGroups()).isEmpty();
    }
}
