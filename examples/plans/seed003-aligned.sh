#!/bin/sh
# Seed 003 done right, for examples/hosts/blank-raid5.yaml: the partition at sector 2688 (a multiple of the
# 448 KiB full stripe, 896 sectors), pvcreate with the stripe as its data alignment, 7 MiB extents
# (16 full stripes). Needs the dry run's sfdisk.
set -e
sfdisk /dev/sda <<EOF2
label: dos
start=2688, type=8e
EOF2
pvcreate --dataalignment 448k /dev/sda1
vgcreate -s 7m vg /dev/sda1
lvcreate -L 1G -n lv vg
