package org.example.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dmmodel.layout.Layout;
import org.junit.jupiter.api.Test;

/** Runs twice (see pom.xml): with this module on the module path, and everything on the class path. */
class PartitionedTest {

    @Test
    void runsWhereThePomSays() {
        boolean modulePath = "module".equals(System.getProperty("consumer.path"));
        assertEquals(modulePath, Partitioned.class.getModule().isNamed(), "named module iff on the module path");
        if (modulePath) {
            assertEquals("org.example.consumer", Partitioned.class.getModule().getName());
            assertEquals("dev.dmmodel.api", Layout.class.getModule().getName());
            // nothing requires the implementation: service binding (the API's "uses") resolved it
            assertTrue(ModuleLayer.boot().findModule("dev.dmmodel.impl").isPresent(), "dev.dmmodel.impl resolved");
        } else {
            assertNull(Layout.class.getModule().getName());
        }
    }

    @Test
    void partitionAtSector63IsMisalignedBy512Bytes() {
        Layout layout = Partitioned.at(63);
        // 63 * 512 = 32256 bytes = 7 physical blocks and 3584 bytes: the next 4 KiB boundary is 512 bytes on
        assertEquals(4096, layout.limits("sda1").physicalBlockSize());
        assertEquals(512, layout.limits("sda1").sysfsAlignmentOffset());
        assertEquals(0, layout.limits("sda").sysfsAlignmentOffset());
    }

    @Test
    void partitionAtSector2048IsAligned() {
        Layout layout = Partitioned.at(2048);
        assertEquals(0, layout.limits("sda1").sysfsAlignmentOffset());
        assertFalse(layout.limits("sda1").misaligned());
        assertTrue(layout.find("sda1").isPresent());
    }
}
