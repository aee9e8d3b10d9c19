/**
 * LVM's text metadata ({@code lib/format_text/}: {@code vgcfgbackup} files): the config grammar, the importer's
 * checks ({@code import_vsn1.c}) and the writer ({@code export.c}).
 */
package dev.dmmodel.impl.lvm.text;
