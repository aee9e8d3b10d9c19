/**
 * The {@code dmmodel} command (picocli): {@code limits}, {@code trace}, {@code check}, {@code export} and {@code
 * show} on a host snapshot or a layout file, using the public API only.
 */
package dev.dmmodel.cli;
