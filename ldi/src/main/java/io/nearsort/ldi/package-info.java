/**
 * Learned Distribution Index (LDI) for column projections — <em>LDI: Learned Distribution Index for Column
 * Stores</em>, SSDBM 2021.
 *
 * <p>This module is wired into the build (it depends on {@code nearsort-core} only) but holds no index yet:
 * the distribution learning, bucketing, IB-tree, I/O handler and column store are the subject of their own
 * issue and are not implemented in this release.
 */
package io.nearsort.ldi;
