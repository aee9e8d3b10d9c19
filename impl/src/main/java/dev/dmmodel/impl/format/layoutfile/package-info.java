/**
 * dmmodel's own layout files (YAML or JSON, {@code docs/layout-format.md}): the reader, the writer and their checks.
 * YAML is parsed by SnakeYAML ({@link dev.dmmodel.impl.format.layoutfile.YamlSyntax}), JSON by the project's JSON
 * reader ({@link dev.dmmodel.impl.format.layoutfile.JsonSyntax}); both give the one document tree the checks read.
 */
package dev.dmmodel.impl.format.layoutfile;
