#!/bin/sh
# LVM on the whole RAID 5 volume of examples/hosts/blank-raid5.yaml, no partition table: pvcreate's
# default data alignment (optimal_io_size, 448 KiB) puts the data area on a full stripe, and extents of
# 7 MiB (16 full stripes) keep every LV segment on one.
set -e
pvcreate /dev/sda
vgcreate -s 7m vg /dev/sda
lvcreate -L 1g -n lv vg
