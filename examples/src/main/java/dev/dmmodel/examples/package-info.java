/**
 * Runnable examples of the API: the seeds' stories worked through with the model.
 */
package dev.dmmodel.examples;
