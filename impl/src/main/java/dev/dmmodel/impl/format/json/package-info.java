/**
 * A strict JSON reader (RFC 8259) for the formats that are JSON: LVM's reports, lsblk's output and JSON layout
 * files. Numbers keep their text, so sizes stay exact.
 */
package dev.dmmodel.impl.format.json;
