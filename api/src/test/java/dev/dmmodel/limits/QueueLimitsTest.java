package dev.dmmodel.limits;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QueueLimitsTest {

    @Test
    void alignmentGranularityIsTheLargerOfPhysicalBlockAndIoMin() {
        // a 512e disk: 4096-byte physical blocks, io_min 4096 -> 4096
        assertThat(QueueLimits.alignmentGranularity(4096, 4096)).isEqualTo(4096);
        // a RAID 5 with 64 KiB chunks on 512-byte sectors: io_min 65536 outweighs the 512-byte block
        assertThat(QueueLimits.alignmentGranularity(512, 65536)).isEqualTo(65536);
        // a 4Kn drive that reports io_min 512 (below its block): the physical block decides
        assertThat(QueueLimits.alignmentGranularity(4096, 512)).isEqualTo(4096);
        QueueLimits raid = QueueLimits.builder().physicalBlockSize(512).ioMin(65536).ioOpt(458752).build();
        assertThat(raid.alignmentGranularity()).isEqualTo(65536);
    }
}
