/**
 * The kernel's block tracepoints as the model emits them ({@code include/trace/events/block.h}): {@link
 * dev.dmmodel.trace.TraceEvent}, {@link dev.dmmodel.trace.EventType}, listeners and the CSV/ftrace text formats.
 */
package dev.dmmodel.trace;
