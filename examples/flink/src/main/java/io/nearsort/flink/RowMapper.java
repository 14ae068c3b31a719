package io.nearsort.flink;

import java.io.Serializable;

/**
 * Turns a stream element into one row of the store: sets every column of the {@link RowWriter} once. Shipped to
 * the task managers with the sink, so it must be serializable (a static nested class or a top-level class; a lambda
 * or inner class capturing an enclosing instance that is not serializable fails at job submission).
 * {@link RowMappers} has mappers for POJOs and Flink {@code Row}s.
 *
 * @param <T> the stream's element type
 */
@FunctionalInterface
public interface RowMapper<T> extends Serializable {
    /** Sets every column of {@code row} from {@code element}; throwing fails the task (it restarts from a checkpoint). */
    void map(T element, RowWriter row);
}
