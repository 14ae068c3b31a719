package io.nearsort.examples.cli.bench;

import java.util.SplittableRandom;

/**
 * The reads of a workload's phases, drawn once from the plan's seed so that every structure runs exactly the same
 * operations: non-empty lookup keys, the read:write mix schedule, and scan ranges of {@code scanLength}
 * consecutive distinct keys.
 */
final class Operations {
    /** Marks a read in {@link #mixSchedule}. */
    static final int READ = -1;

    final long[] lookupKeys;
    final int mixPreload;
    /** Arrival position to write, or {@link #READ}. */
    final int[] mixSchedule;
    /** Keys of the mix's reads, in order; each was written before its read. */
    final long[] mixReadKeys;
    final long[] scanLo;
    final long[] scanHi;

    Operations(final BenchPlan plan, final Workload workload, final Reference reference) {
        final long[] keys = workload.keys();
        final int n = keys.length;
        final SplittableRandom random = new SplittableRandom(plan.seed());
        lookupKeys = new long[n == 0 ? 0 : plan.lookups()];
        for (int i = 0; i < lookupKeys.length; i++) {
            lookupKeys[i] = keys[random.nextInt(n)];
        }
        mixPreload = (int) (n * BenchPlan.MIX_PRELOAD);
        if (plan.mixes() && n > 0) {
            final int writes = plan.mixWrites() == 0 ? 0 : n - mixPreload;
            final int reads = plan.mixWrites() == 0 ? n - mixPreload
                    : (int) Math.min(Integer.MAX_VALUE / 2, (long) writes * plan.mixReads() / plan.mixWrites());
            mixSchedule = new int[writes + reads];
            mixReadKeys = new long[reads];
            int written = mixPreload;
            int read = 0;
            for (int op = 0; op < mixSchedule.length; op++) {
                // Interleave evenly: read while reads lag behind the ratio (or the writes are done).
                final boolean doRead = read < reads && (written == n
                        || (long) read * Math.max(1, writes) <= (long) (written - mixPreload) * reads);
                if (doRead && written > 0) {
                    mixSchedule[op] = READ;
                    mixReadKeys[read++] = keys[random.nextInt(written)];
                } else {
                    mixSchedule[op] = written++;
                }
            }
        } else {
            mixSchedule = new int[0];
            mixReadKeys = new long[0];
        }
        final int scans = reference.distinct() == 0 ? 0 : plan.scans();
        scanLo = new long[scans];
        scanHi = new long[scans];
        final int length = Math.min(plan.scanLength(), reference.distinct());
        for (int i = 0; i < scans; i++) {
            final int first = random.nextInt(reference.distinct() - length + 1);
            scanLo[i] = reference.distinctKey(first);
            scanHi[i] = reference.distinctKey(first + length - 1);
        }
    }

    /** Operations the mix performs (reads and writes). */
    int mixOperations() {
        return mixSchedule.length;
    }
}
