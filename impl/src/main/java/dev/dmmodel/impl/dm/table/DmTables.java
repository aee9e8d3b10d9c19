package dev.dmmodel.impl.dm.table;

import dev.dmmodel.dm.DmTable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The dm devices of a table text, in an order in which they can be created: every device after the devices of
 * the text its table uses (a thin volume after its pool, a pool after its metadata and data devices); devices
 * that do not depend on each other in the order of their first line.
 *
 * @param devices the devices in creation order
 */
public record DmTables(List<Device> devices) {

    /**
     * One dm device.
     *
     * @param name its dm name
     * @param table its table; devices as the parser resolved them (see {@link DmTableParser})
     * @param line the 1-based line of its first target in the text
     * @param dependencies the devices of the same text its table uses, in table order, each once
     */
    public record Device(String name, DmTable table, int line, List<String> dependencies) {
        /** Rejects nulls, copies the list. */
        public Device {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(table, "table");
            dependencies = List.copyOf(dependencies);
        }

        /** Every device the table references, in table order, each once. */
        public List<String> references() {
            return table.devices().stream().distinct().toList();
        }
    }

    /** Copies the list; rejects two devices of one name. */
    public DmTables {
        devices = List.copyOf(devices);
        if (devices.stream().map(Device::name).distinct().count() != devices.size()) {
            throw new IllegalArgumentException("dm tables: a device name occurs twice");
        }
    }

    /** No device ({@code No devices found}). */
    public boolean isEmpty() {
        return devices.isEmpty();
    }

    /** The tables by dm name, in creation order. */
    public Map<String, DmTable> tables() {
        Map<String, DmTable> m = new LinkedHashMap<>();
        for (Device d : devices) {
            m.put(d.name(), d.table());
        }
        return Collections.unmodifiableMap(m);
    }

    /** The device of that dm name, if the text has it. */
    public Optional<Device> device(String name) {
        return devices.stream().filter(d -> d.name().equals(name)).findFirst();
    }
}
