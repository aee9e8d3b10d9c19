/**
 * dmmodel's own layout files (YAML or JSON, {@code docs/layout-format.md}): the reader, the writer and their checks.
 */
package dev.dmmodel.impl.format.layoutfile;
