/**
 * Internal: the LAB-tree's page storage: a page file with a checksummed header and CRC32C page trailers, direct
 * I/O where the file system allows it, the redo journal that makes each flush atomic, and the LRU buffer pool.
 * Public only for the other packages of this module; not part of nearsort's API, may change in any release. Use
 * {@link io.nearsort.labtree.LabArray}.
 */
package io.nearsort.labtree.storage;
