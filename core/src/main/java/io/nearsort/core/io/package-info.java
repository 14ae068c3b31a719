/**
 * The seam between nearsort's on-disk structures and their files: {@link io.nearsort.core.io.FileIo}, through which
 * the LAB-tree and the LDI column store open, rename and delete every file;
 * {@link io.nearsort.core.io.FaultInjectingFileIo}, which puts a chosen I/O fault behind it (a failed write or
 * {@code force}, a short write, a flipped bit on a read, a full disk, a failed rename) so that tests can show a
 * structure reports the fault naming the file and loses nothing that was durable; and
 * {@link io.nearsort.core.io.PowerLossFileIo}, which simulates a power loss by dropping the writes not forced.
 *
 * <p>API: all three; {@code FaultInjectingFileIo} and {@code PowerLossFileIo} are meant for tests, nearsort's and
 * its users'.
 */
package io.nearsort.core.io;
