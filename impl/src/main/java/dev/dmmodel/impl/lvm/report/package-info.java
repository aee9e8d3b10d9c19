/**
 * LVM's JSON reports ({@code lib/report/}: {@code pvs}, {@code vgs}, {@code lvs -a --segments}, {@code fullreport},
 * units, {@code json_std}) read into volume groups.
 */
package dev.dmmodel.impl.lvm.report;
