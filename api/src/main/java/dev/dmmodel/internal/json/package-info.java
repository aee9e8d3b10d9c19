/**
 * The project's one JSON string writer, shared by the API's trace format, the implementation's writers and
 * messages, and the command line. The module exports this package to {@code dev.dmmodel.impl} and
 * {@code dev.dmmodel.cli} alone: it is no part of the API.
 */
package dev.dmmodel.internal.json;
