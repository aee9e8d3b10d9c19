#!/bin/sh
# An LV on the whole RAID 5 volume of examples/hosts/blank-raid5.yaml with an XFS filesystem of 512-byte
# sectors, mounted: a workload on /dev/vg/lv then runs with the 512-byte soft block size the mounted XFS sets
# on the device (a buffered read of the raw LV goes through 512-byte buffers).
set -e
pvcreate /dev/sda
vgcreate -s 7m vg /dev/sda
lvcreate -L 1g -n lv vg
mkfs.xfs -s size=512 /dev/vg/lv
mount /dev/vg/lv /mnt
