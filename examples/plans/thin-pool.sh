#!/bin/sh
# A thin pool and an overprovisioned thin volume in the volume group vg an earlier plan created
# (e.g. raid5-whole-disk.sh: dmmodel check --plan raid5-whole-disk.sh --plan thin-pool.sh).
set -e
lvcreate --type thin-pool -L 2g -n pool vg
lvcreate -V 8g -T vg/pool -n thin
