/** The kickstart plan reader. */
package dev.dmmodel.impl.plan.kickstart;
