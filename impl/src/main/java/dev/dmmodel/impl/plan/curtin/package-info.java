/** The curtin plan reader. */
package dev.dmmodel.impl.plan.curtin;
