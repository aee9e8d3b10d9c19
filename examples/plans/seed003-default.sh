#!/bin/sh
# Seed 003 as it was provisioned, for examples/hosts/blank-raid5.yaml: an msdos label whose one partition
# starts at sector 63 (as old fdisk placed it), then LVM with every default. Needs the dry run's sfdisk.
set -e
sfdisk /dev/sda <<EOF2
label: dos
start=63, type=8e
EOF2
pvcreate /dev/sda1
vgcreate vg /dev/sda1
lvcreate -L 1G -n lv vg
