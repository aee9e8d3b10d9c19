/**
 * {@code cryptsetup}: what {@code luksFormat} writes (the LUKS header's data offset, the encryption sector size it
 * picks for the device) and the dm-crypt table {@code open} loads, for a plan's dry run.
 */
package dev.dmmodel.impl.cryptsetup;
