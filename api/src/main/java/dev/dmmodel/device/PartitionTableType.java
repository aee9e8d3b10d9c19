package dev.dmmodel.device;

/** Partition table (disk label) types. */
public enum PartitionTableType {
    /** The DOS/MBR label: four primary partitions, legacy tools start the first one at sector 63. */
    MSDOS,
    /** GPT: 128 entries; the entry array takes the first 34 sectors (512-byte LBAs) and the last 33. */
    GPT
}
