/**
 * Internal: the baselines of the LDI paper's experiments (§5), the LSM-like leveled and tiered stores
 * (Col_LSM-like, doing exactly the I/O of the cost model of Eqs. 1–2 and 10–13) and the sorted-run store
 * (Sorted_Col). They are public so that {@code nearsort ingest --compare} and the JMH experiments can run them
 * beside the column store; they are not part of nearsort's API (not reopenable, no commit points, no promise about
 * what survives a crash) and may change in any release. Use {@link io.nearsort.ldi.projection.ColumnStore}. Their
 * run files go through a {@link io.nearsort.core.io.FileIo} (a constructor parameter) so that tests can put I/O
 * faults in between (issue 22).
 */
package io.nearsort.ldi.baselines;
