#!/bin/sh
# Seed 003's LVM, every default, on a partition that already exists (/dev/sda1): pvcreate takes its data
# alignment from the device's optimal_io_size, vgcreate its 4 MiB extents.
set -e
pvcreate /dev/sda1
vgcreate vg /dev/sda1
lvcreate -L 1G -n lv vg
