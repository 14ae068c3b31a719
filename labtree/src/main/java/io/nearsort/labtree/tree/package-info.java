/**
 * Internal: the B-tree over pages that stores a {@link io.nearsort.labtree.LabArray} (LAB-tree §3–4): sparse and
 * dense leaf pages, internal nodes, the meta page checked on reopen, the free-page list. Public only for the
 * other packages of this module; not part of nearsort's API, may change in any release.
 */
package io.nearsort.labtree.tree;
