#!/bin/sh
# Seed 003's LVM done right on a partition at sector 63: pe_start moved so that the data area starts on a
# full stripe of the disk (448 KiB = 896 sectors; 63 + 833 = 896), extents a multiple of the full stripe
# (7 MiB = 16 x 448 KiB).
set -e
pvcreate --dataalignment 448k --dataalignmentoffset 833s /dev/sda1
vgcreate -s 7m vg /dev/sda1
lvcreate -L 1g -n lv vg
