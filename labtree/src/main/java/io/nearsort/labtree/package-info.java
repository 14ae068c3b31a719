/**
 * LAB-tree: the Linearized Array B-tree for disk-resident arrays (RIOT array storage).
 *
 * <p>This module is wired into the build (it depends on {@code nearsort-core} only) but holds no array store
 * yet: linearizations, splitting strategies, leaf formats and update batching are the subject of their own
 * issue and are not implemented in this release.
 */
package io.nearsort.labtree;
