package io.nearsort.core.ingest;

import io.nearsort.core.Indexes;
import io.nearsort.core.btree.BPlusTree;
import io.nearsort.core.sortedness.KLGenerator;
import org.junit.jupiter.api.Test;

import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunAppenderTest {

    @Test
    void sortedInputIsAppendedEntirely() {
        final long[] keys = KLGenerator.generate(100_000, 0, 0, 1);
        try (BPlusTree tree = Indexes.bPlusTree().build()) {
            final RunAppender appender = new RunAppender(tree, 16);
            appender.ingest(keys, keys, 0, keys.length);
            assertEquals(100_000, appender.appendedEntries());
            assertEquals(100_000, tree.stats().bulkLoadedEntries());
            assertTrue(tree.stats().averageLeafFill() > 0.9);
        }
    }

    @Test
    void nearSortedInputWithDuplicatesMatchesTheOracleLatestWriteWinning() {
        final long[] keys = KLGenerator.generate(50_000, 10, 1, 2);
        for (int i = 5; i < keys.length; i += 50) {
            keys[i] = keys[i - 3]; // repeated keys: later writes must win
        }
        final long[] values = new long[keys.length];
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        for (int i = 0; i < keys.length; i++) {
            values[i] = i;
            oracle.put(keys[i], (long) i);
        }
        try (BPlusTree tree = Indexes.bPlusTree().tailLeafInserts(true).splitRatio(0.8).build()) {
            final RunAppender appender = new RunAppender(tree, 8);
            appender.ingest(keys, values, 0, keys.length);
            assertEquals(oracle, tree.asNavigableMap());
            assertEquals(keys.length, appender.appendedEntries() + appender.putEntries());
            assertTrue(appender.appendedEntries() > 0 && appender.putEntries() > 0);
        }
    }

    @Test
    void rejectsBadArguments() {
        try (BPlusTree tree = Indexes.bPlusTree().build()) {
            assertThrows(IllegalArgumentException.class, () -> new RunAppender(tree, 0));
            assertThrows(IndexOutOfBoundsException.class,
                    () -> new RunAppender(tree, 1).ingest(new long[3], new long[2], 0, 3));
        }
    }
}
