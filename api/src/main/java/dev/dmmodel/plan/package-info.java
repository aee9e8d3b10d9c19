/**
 * Dry runs of provisioning plans: the shell script, kickstart file, curtin/autoinstall {@code storage:} config or
 * Ansible play an engineer will really run, read as a {@link dev.dmmodel.plan.Plan} and applied to a host's
 * {@link dev.dmmodel.layout.LayoutSpec} the way each tool (sfdisk, sgdisk, parted, pvcreate, lvcreate, mdadm,
 * anaconda/blivet, curtin, the Ansible modules) would apply it on that host. The {@link dev.dmmodel.plan.PlanResult}
 * is the final layout, one {@link dev.dmmodel.plan.PlanEntry} per plan line (what the tool prints or decides) and the
 * first {@link dev.dmmodel.plan.PlanFailure}, in the tool's own wording, with the plan's file and line.
 */
package dev.dmmodel.plan;
