/** The Ansible plan reader. */
package dev.dmmodel.impl.plan.ansible;
