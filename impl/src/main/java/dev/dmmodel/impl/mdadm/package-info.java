/**
 * mdadm, the md userland ({@code mdadm/Create.c}, {@code super1.c}, {@code super0.c}, {@code maps.c}): what
 * {@code mdadm --create} chooses where its command line is silent — chunk, layout, the metadata's data offset and
 * the data size it leaves on each member.
 */
package dev.dmmodel.impl.mdadm;
