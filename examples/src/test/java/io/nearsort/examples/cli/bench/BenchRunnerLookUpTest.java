package io.nearsort.examples.cli.bench;

import io.nearsort.core.IndexStats;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The lookup phase's calls: one {@code get} per key, or one {@code getAll} per slice of {@code --lookup-batch}. */
class BenchRunnerLookUpTest {
    /** Answers {@code ~key} and records every call: a get as {@code [key]}, a getAll as {@code [from, to]}. */
    private static final class Recording implements BenchTarget {
        final List<long[]> gets = new ArrayList<>();
        final List<long[]> batches = new ArrayList<>();

        @Override
        public long get(final long key, final long missing) {
            gets.add(new long[] {key});
            return ~key;
        }

        @Override
        public void getAll(final long[] keys, final long[] values, final int from, final int to,
                           final long missing) {
            batches.add(new long[] {from, to});
            for (int i = from; i < to; i++) {
                values[i] = ~keys[i];
            }
        }

        @Override
        public void ingest(final long[] keys, final long[] values, final int from, final int to) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void put(final long key, final long value) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void scan(final long lo, final long hi, final long[] result) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void scanFrom(final long from, final int count, final long[] result) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void finish() {
        }

        @Override
        public long size() {
            return 0;
        }

        @Override
        public IndexStats stats() {
            return null;
        }

        @Override
        public void close() {
        }
    }

    private static long[] keys(final int n) {
        final long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = 3L * i - 7;
        }
        return keys;
    }

    @Test
    void oneGetPerKeyByDefault() {
        final Recording target = new Recording();
        final long[] keys = keys(5);
        final long[] found = new long[5];
        BenchRunner.lookUp(target, keys, found, 1);
        assertEquals(5, target.gets.size());
        assertEquals(0, target.batches.size());
        for (int i = 0; i < 5; i++) {
            assertEquals(keys[i], target.gets.get(i)[0]);
            assertEquals(~keys[i], found[i]);
        }
    }

    @Test
    void oneGetAllPerSliceTheLastOneShorter() {
        final Recording target = new Recording();
        final long[] keys = keys(5_000);
        final long[] found = new long[5_000];
        BenchRunner.lookUp(target, keys, found, 300);
        assertEquals(0, target.gets.size());
        assertEquals(17, target.batches.size());
        for (int b = 0; b < 17; b++) {
            assertEquals(300L * b, target.batches.get(b)[0]);
            assertEquals(Math.min(5_000, 300L * (b + 1)), target.batches.get(b)[1]);
        }
        for (int i = 0; i < keys.length; i++) {
            assertEquals(~keys[i], found[i]);
        }
    }

    @Test
    void aBatchLongerThanTheLookupsIsOneCallEvenNearIntMax() {
        final Recording target = new Recording();
        final long[] keys = keys(10);
        final long[] found = new long[10];
        BenchRunner.lookUp(target, keys, found, Integer.MAX_VALUE - 8);
        assertEquals(1, target.batches.size());
        assertEquals(0, target.batches.get(0)[0]);
        assertEquals(10, target.batches.get(0)[1]);
    }
}
