/**
 * Building a layout: {@link dev.dmmodel.layout.LayoutBuilder} records {@link dev.dmmodel.layout.LayoutStep}s into
 * a {@link dev.dmmodel.layout.LayoutSpec}, and {@link dev.dmmodel.layout.Layout} is the immutable result with
 * every device's computed limits and its findings.
 */
package dev.dmmodel.layout;
