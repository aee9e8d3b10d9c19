#!/bin/sh
# A volume group on the whole 4 GiB RAID 5 volume of examples/hosts/blank-raid5.yaml, and an LV of 100 GiB:
# more than the volume group has.
set -e
pvcreate /dev/sda
vgcreate vg0 /dev/sda
lvcreate -L 100G -n data vg0
