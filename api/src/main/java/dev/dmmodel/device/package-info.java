/**
 * Block devices: disks with their driver and {@link dev.dmmodel.device.DiskPresets} (SATA, NVMe, SAS, hardware
 * RAID, loop, null_blk, virtio), partitions and partition tables, and dm devices.
 */
package dev.dmmodel.device;
