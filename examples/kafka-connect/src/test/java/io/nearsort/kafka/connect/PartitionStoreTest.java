package io.nearsort.kafka.connect;

import io.nearsort.kafka.connect.NearsortSinkConfig.TimeSource;
import io.nearsort.kafka.connect.NearsortSinkConfig.ValueFormat;
import io.nearsort.ldi.projection.ColumnStore;
import io.nearsort.ldi.projection.ColumnStoreOptions;
import io.nearsort.ldi.projection.MemoryBudgetExceededException;
import io.nearsort.ldi.projection.TableLayout;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A batch whose append fails part way is never committed: the store reopens at its last commit. */
class PartitionStoreTest {
    private static final TopicPartition TP = new TopicPartition("events", 0);
    private static final int BATCH = 300;

    private static SinkRecord record(final long offset, final String s) {
        return new SinkRecord(TP.topic(), TP.partition(), null, null, null,
                Map.of("id", offset, "event_time", offset, "s", s), offset, null, TimestampType.NO_TIMESTAMP_TYPE);
    }

    @Test
    void aBatchAppendedInPartIsNeverCommitted(@TempDir final Path base) throws Exception {
        final TableLayout layout = new NearsortSinkConfig(Map.of(NearsortSinkConfig.STORE_DIR, base.toString(),
                NearsortSinkConfig.COLUMNS, "id:long,event_time:long,s:string")).layout();
        // A main buffer of 512 rows and a budget that the batch's first 256-row chunk of 400-character strings
        // leaves too little room for its row 280 (a 225,000-character string): ColumnStore.append appends the first
        // chunk, then throws. Appended again, the first chunk fills the main buffer, which spills, and the batch
        // fits: without the failed mark, a commit would then store the first chunk twice.
        final ColumnStoreOptions options = ColumnStoreOptions.builder().commitOnClose(false)
                .buckets(64, 512).training(512, 0, 512).memoryBudget(600_000).build();
        final RecordMapper mapper = new RecordMapper(layout.schema(), "event_time", TimeSource.FIELD,
                ValueFormat.MAP);
        try (PartitionStore store = PartitionStore.open(TP, base, layout, options, mapper, BATCH, 0)) {
            for (long o = 0; o < 10; o++) {
                store.add(record(o, "s"));
            }
            assertEquals(10, store.commit());
        }
        try (PartitionStore store = PartitionStore.open(TP, base, layout, options, mapper, BATCH, 0)) {
            assertEquals(10, store.committedOffset());
            for (long o = 10; o < 10 + BATCH - 1; o++) {
                store.add(record(o, o == 10 + 280 ? "x".repeat(225_000) : "y".repeat(400)));
            }
            final RuntimeException failed = assertThrows(RuntimeException.class,
                    () -> store.add(record(10 + BATCH - 1, "y")));
            final String refused = assertThrows(ConnectException.class, store::commit).getMessage();
            assertTrue(refused.contains("must be reopened at its last commit (offset 10)"), refused);
            assertInstanceOf(ConnectException.class, failed);
            assertInstanceOf(MemoryBudgetExceededException.class, failed.getCause());
            assertTrue(failed.getMessage().contains("reopens at its last commit (offset 10)"), failed.getMessage());
            assertThrows(ConnectException.class, () -> store.add(record(10 + BATCH, "y")));
        }
        try (ColumnStore reopened = ColumnStore.open(PartitionStore.directory(base, TP))) {
            assertEquals(10, reopened.rows(), "only the first commit's rows");
            assertEquals("10", reopened.lastCommit().orElseThrow().metadata().get(PartitionStore.NEXT_OFFSET));
        }
        try (PartitionStore store = PartitionStore.open(TP, base, layout, options, mapper, BATCH, 0)) {
            assertEquals(10, store.committedOffset(), "the partition rewinds to the last commit");
        }
    }
}
