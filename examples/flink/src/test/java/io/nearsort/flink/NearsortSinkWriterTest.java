package io.nearsort.flink;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The writer's commit, snapshot and restore protocol, driven as Flink drives it, with crashes between the steps. */
class NearsortSinkWriterTest {
    private static void write(final StatefulSinkWriter<Event, NearsortWriterState> w, final long from, final long to)
            throws Exception {
        for (long i = from; i < to; i++) {
            w.write(new Event(i), null);
        }
    }

    /** Writes ids {@code [from, to)}, ends the input (which commits) and closes the writer. */
    private static void writeToTheEnd(final StatefulSinkWriter<Event, NearsortWriterState> w, final long from,
                                      final long to) throws Exception {
        write(w, from, to);
        w.flush(true);
        w.close();
    }

    @Test
    void aRestoreRollsTheStoreBackToTheCheckpointsCommit(@TempDir final Path dir) throws Exception {
        final NearsortSink<Event> sink = Event.sink(dir, 10);
        final JobID job = new JobID();
        final StatefulSinkWriter<Event, NearsortWriterState> first = sink.createWriter(new TestInitContext(job, 0,
                0));
        write(first, 0, 100);
        final List<NearsortWriterState> state1 = first.snapshotState(1);
        assertEquals(List.of(new NearsortWriterState(0, job.toHexString(), 1)), state1);
        write(first, 100, 200);
        first.snapshotState(2); // committed in the store, but checkpoint 2 never completes
        write(first, 200, 250);
        first.close(); // the task fails

        // Flink restores checkpoint 1 and the source replays from it.
        final StatefulSinkWriter<Event, NearsortWriterState> second = sink.restoreWriter(new TestInitContext(job, 0,
                1), state1);
        write(second, 100, 300);
        second.snapshotState(3);
        second.close();
        Event.assertExactlyOnce(Event.readStores(dir), 300);
    }

    @Test
    void aRestartWithoutACompletedCheckpointRollsBackToTheJobsStart(@TempDir final Path dir) throws Exception {
        final NearsortSink<Event> sink = Event.sink(dir, 10);
        final StatefulSinkWriter<Event, NearsortWriterState> earlier = sink.createWriter(new TestInitContext(
                new JobID(), 0, 0));
        write(earlier, 0, 50);
        earlier.flush(true); // an earlier bounded job ran to its end
        earlier.close();

        final JobID job = new JobID();
        final StatefulSinkWriter<Event, NearsortWriterState> first = sink.createWriter(new TestInitContext(job, 0,
                0));
        write(first, 50, 100);
        first.snapshotState(1); // never completes
        write(first, 100, 120);
        first.close();

        // The job restarts without state; its source replays from the beginning.
        final StatefulSinkWriter<Event, NearsortWriterState> second = sink.createWriter(new TestInitContext(job, 0,
                1));
        write(second, 50, 150);
        second.flush(true);
        second.close();
        Event.assertExactlyOnce(Event.readStores(dir), 150);
    }

    @Test
    void theEndOfABoundedInputIsDurableWithoutACheckpoint(@TempDir final Path dir) throws Exception {
        final StatefulSinkWriter<Event, NearsortWriterState> w = Event.sink(dir, 10).createWriter(
                new TestInitContext(new JobID(), 1, 0));
        write(w, 0, 1_000);
        w.flush(false); // before a checkpoint barrier: nothing durable yet
        w.close(); // the task fails
        assertEquals(Map.of(), Event.readStores(dir), "flush(false) committed nothing");

        final StatefulSinkWriter<Event, NearsortWriterState> bounded = Event.sink(dir, 10).createWriter(
                new TestInitContext(new JobID(), 1, 0));
        write(bounded, 0, 1_000);
        bounded.flush(false);
        bounded.flush(true);
        bounded.close();
        Event.assertExactlyOnce(Event.readStores(dir), 1_000);
    }

    @Test
    void anotherParallelismIsRefusedOnRestoreAndRestartButNotForANewJob(@TempDir final Path dir) throws Exception {
        final NearsortSink<Event> sink = Event.sink(dir, 10);
        final JobID job = new JobID();
        final StatefulSinkWriter<Event, NearsortWriterState> w = sink.createWriter(new TestInitContext(job, 0, 0, 2));
        write(w, 0, 10);
        final List<NearsortWriterState> state = w.snapshotState(1);
        w.close();
        // A scale-up: subtask 0 gets its state back, subtasks 2 and 3 get none.
        final IllegalStateException restore = assertThrows(IllegalStateException.class, () -> sink.restoreWriter(
                new TestInitContext(job, 0, 1, 4), state));
        assertTrue(restore.getMessage().contains("runs with parallelism 4") && restore.getMessage().contains(
                "restore (checkpoint 1) was made with parallelism 2") && restore.getMessage().contains(
                "cannot be rescaled"), restore.getMessage());
        // The same job restarted with another parallelism before a checkpoint completed (no state).
        final IllegalStateException restart = assertThrows(IllegalStateException.class, () -> sink.createWriter(
                new TestInitContext(job, 0, 1, 3)));
        assertTrue(restart.getMessage().contains("roll back to (job " + job.toHexString() + "'s start) was made"
                + " with parallelism 2"), restart.getMessage());
        // A new job appends to what earlier jobs committed, with any parallelism.
        final StatefulSinkWriter<Event, NearsortWriterState> next = sink.createWriter(new TestInitContext(
                new JobID(), 0, 0, 3));
        writeToTheEnd(next, 10, 20);
        Event.assertExactlyOnce(Event.readStores(dir), 20);
    }

    @Test
    void aWriterWaitsForThePreviousAttemptToReleaseTheStore(@TempDir final Path dir) throws Exception {
        final NearsortSink<Event> sink = Event.sink(dir, 10);
        final JobID job = new JobID();
        final StatefulSinkWriter<Event, NearsortWriterState> previous = sink.createWriter(new TestInitContext(job, 0,
                0));
        write(previous, 0, 10);
        final List<NearsortWriterState> state = previous.snapshotState(1);
        final Thread closer = new Thread(() -> {
            try {
                Thread.sleep(300);
                previous.close(); // the failed attempt's writer closes late
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        closer.start();
        final StatefulSinkWriter<Event, NearsortWriterState> next;
        try {
            next = sink.restoreWriter(new TestInitContext(job, 0, 1), state);
        } finally {
            closer.join();
        }
        write(next, 10, 15);
        next.flush(true);

        final NearsortSink<Event> impatient = NearsortSink.<Event>builder().directory(dir).schema(Event.SCHEMA)
                .projection(io.nearsort.ldi.projection.Projection.of("by_time", "time", "time", "id"))
                .projection(io.nearsort.ldi.projection.Projection.of("by_value", "value", "value", "sensor"))
                .rowMapper(RowMappers.pojo(Event.class)).lockTimeout(Duration.ZERO).build();
        final IOException locked = assertThrows(IOException.class, () -> impatient.createWriter(
                new TestInitContext(new JobID(), 0, 0)));
        assertTrue(locked.getMessage().contains("still open elsewhere after 0 ms (lockTimeout)"),
                locked.getMessage());
        writeToTheEnd(next, 15, 20);
        Event.assertExactlyOnce(Event.readStores(dir), 20);
    }

    @Test
    void restoringAnotherSubtasksStateIsRefusedAsARescale(@TempDir final Path dir) throws Exception {
        final NearsortSink<Event> sink = Event.sink(dir, 10);
        final JobID job = new JobID();
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> sink.restoreWriter(
                new TestInitContext(job, 0, 1), List.of(new NearsortWriterState(1, job.toHexString(), 4))));
        assertTrue(e.getMessage().contains("cannot be rescaled"), e.getMessage());
    }

    @Test
    void aCheckpointNoLongerRetainedIsNamedWithTheOptionToRaise(@TempDir final Path dir) throws Exception {
        final NearsortSink<Event> sink = Event.sink(dir, 2);
        final JobID job = new JobID();
        final StatefulSinkWriter<Event, NearsortWriterState> w = sink.createWriter(new TestInitContext(job, 0, 0));
        final List<NearsortWriterState> state1 = w.snapshotState(1);
        for (long c = 2; c <= 4; c++) {
            write(w, c * 10, c * 10 + 10);
            w.snapshotState(c);
        }
        w.close();
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> sink.restoreWriter(
                new TestInitContext(job, 0, 1), state1));
        assertTrue(e.getMessage().contains("no commit of checkpoint 1") && e.getMessage().contains(
                "raise retainedCommits"), e.getMessage());
    }

    @Test
    void theBuilderNamesWhatIsMissingOrWrong(@TempDir final Path dir) {
        assertEquals("directory is not set", assertThrows(IllegalStateException.class,
                () -> NearsortSink.<Event>builder().schema(Event.SCHEMA).build()).getMessage());
        assertEquals("rowMapper is not set", assertThrows(IllegalStateException.class,
                () -> NearsortSink.<Event>builder().directory(dir).schema(Event.SCHEMA)
                        .projection(io.nearsort.ldi.projection.Projection.of("p", "id", "id")).build())
                .getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NearsortSink.builder().retainedCommits(1))
                .getMessage().contains("retainedCommits must be in [2, 10000] (got: 1)"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NearsortSink.<Event>builder().directory(dir)
                .schema(Event.SCHEMA).rowMapper(RowMappers.pojo(Event.class))
                .projection(io.nearsort.ldi.projection.Projection.of("p", "nope", "nope")).build())
                .getMessage().contains("nope"));
    }

    @Test
    void rowMappersReadPojosAndNamedOrPositionalRowsAndNameAMissingColumn(@TempDir final Path dir)
            throws Exception {
        final NearsortSink<Row> sink = NearsortSink.<Row>builder().directory(dir).schema(Event.SCHEMA)
                .projection(io.nearsort.ldi.projection.Projection.of("by_time", "time", "time", "id"))
                .projection(io.nearsort.ldi.projection.Projection.of("by_value", "value", "value", "sensor"))
                .rowMapper(RowMappers.row()).build();
        final StatefulSinkWriter<Row, NearsortWriterState> w = sink.createWriter(new TestInitContext(new JobID(),
                0, 0));
        for (long i = 0; i < 10; i++) {
            final Event e = new Event(i);
            if (i % 2 == 0) {
                final Row named = Row.withNames();
                named.setField("id", e.getId());
                named.setField("time", e.getTime());
                named.setField("sensor", e.getSensor());
                named.setField("value", e.getValue());
                w.write(named, null);
            } else {
                w.write(Row.of(e.getTime(), e.getId(), e.getSensor(), e.getValue()), null);
            }
        }
        final Row missing = Row.withNames();
        missing.setField("id", 10L);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> w.write(missing, null)).getMessage()
                .contains("no field time"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> w.write(Row.of(1L, "x", "s", 1.0), null))
                .getMessage().contains("column id of type LONG does not accept a String"));
        w.flush(true);
        w.close();
        Event.assertExactlyOnce(Event.readStores(dir), 10);

        final RowWriter row = new RowWriter(Event.SCHEMA);
        row.begin(io.nearsort.ldi.projection.ColumnBatch.allocate(Event.SCHEMA, 1), 0);
        assertEquals("column index must be in [0, 4) (got: 4)", assertThrows(IllegalArgumentException.class,
                () -> row.setDouble(4, 1.0)).getMessage());
        assertEquals("column index must be in [0, 4) (got: -1)", assertThrows(IllegalArgumentException.class,
                () -> row.setString(-1, "s")).getMessage());
        assertEquals("column index must be in [0, 4) (got: 9)", assertThrows(IllegalArgumentException.class,
                () -> row.set(9, 1L)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> row.setString("sensor", null)).getMessage()
                .contains("does not accept null"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> row.setDouble("value", Double.NaN))
                .getMessage().contains("does not accept NaN"));
        row.setLong("time", 1).setLong("id", 1).setString("sensor", "s");
        assertEquals("the row mapper did not set column value", assertThrows(IllegalArgumentException.class,
                row::finish).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RowMappers.pojo(String.class).map("x", row))
                .getMessage().contains("no public field time"));
    }
}
