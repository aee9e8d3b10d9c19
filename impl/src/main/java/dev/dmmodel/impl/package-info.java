/**
 * The implementation's entry points behind the API's service interfaces: the model provider (building layouts:
 * {@code HostBuilder}, LVM steps) and the format provider. The kernel and LVM rules live in the sub-packages, laid
 * out as the kernel and LVM2 lay out theirs.
 */
package dev.dmmodel.impl;
