/**
 * LVM commands as scripts ({@code pvcreate}, {@code vgcreate}, {@code lvcreate}, {@code lvextend}, {@code
 * lvconvert}): which options give a pe_start, exact-placement writing of a layout, and the parser that reads such
 * scripts back.
 */
package dev.dmmodel.impl.lvm.cmd;
