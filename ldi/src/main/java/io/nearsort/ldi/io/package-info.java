/**
 * LDI's I/O (LDI §4.1–4.2): checksummed record files, a projection's bucket file cut into segments addressed by
 * bucket pointers (§4.1's file ID and offset), the store lock, and the I/O handler of §4.2 (read and write phases,
 * de-duplication, θ-grouped extent reads, parallel readers).
 *
 * <p>API: what a {@link io.nearsort.ldi.projection.ColumnStore} user meets: {@link io.nearsort.ldi.io.IoStats}
 * ({@code ColumnStore.ioStats()}), {@link io.nearsort.ldi.io.StoreLock.StoreLockedException} (a second process
 * opening a store), {@link io.nearsort.ldi.io.ThetaCalibration} (θ measured for a device) and
 * {@link io.nearsort.ldi.io.WriteMax} (§5's Write_MAX floor). Internal, public only for the {@code projection},
 * {@code commit} and {@code baselines} packages: {@link io.nearsort.ldi.io.RecordFile},
 * {@link io.nearsort.ldi.io.Segments}, {@link io.nearsort.ldi.io.BucketPointer},
 * {@link io.nearsort.ldi.io.BucketLocation}, {@link io.nearsort.ldi.io.IoHandler},
 * {@link io.nearsort.ldi.io.NamingFileIo} (every I/O error of a store names its file, issue 22) and
 * {@link io.nearsort.ldi.io.StoreLock} itself; they may change in any release.
 */
package io.nearsort.ldi.io;
