/**
 * The service interfaces between the API and its implementation ({@link dev.dmmodel.spi.ModelProvider},
 * {@link dev.dmmodel.spi.FormatProvider}), found with {@link java.util.ServiceLoader}. The module exports this
 * package to {@code dev.dmmodel.impl} alone: it is no part of the API, and it changes with the implementation.
 * Applications, the testkit and the command line use {@code Layout.of}, {@code Layout.builder} and
 * {@code dev.dmmodel.io} instead.
 */
package dev.dmmodel.spi;
