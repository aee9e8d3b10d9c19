/** YAML plans (curtin, Ansible) read through SnakeYAML's node API with each value's line and column. */
package dev.dmmodel.impl.plan.yaml;
