/**
 * dm-crypt ({@code drivers/md/dm-crypt.c}): its target type with {@code crypt_ctr} and {@code crypt_ctr_optional}'s
 * argument rules, and its model ({@code crypt_iterate_devices}, {@code crypt_io_hints}, {@code crypt_map} with
 * {@code get_max_request_size}, and the clones {@code kcryptd_io_read} / {@code kcryptd_crypt_write_io_submit}
 * send to the device below). Encryption itself is not modelled: only where the I/O goes and in what sizes. Keys
 * are never held: the target keeps the key argument as {@code dmsetup table} prints it (zeros or a keyring
 * reference).
 */
package dev.dmmodel.impl.dm.crypt;
