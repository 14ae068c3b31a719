package io.nearsort.ldi.projection;

/**
 * An append or a cursor would take a {@link ColumnStore} over its memory budget
 * ({@link ColumnStoreOptions#memoryBudget}) even after the writers caught up. Nothing of the rejected row (or of the
 * rows of a batch from the one named on) was appended, and the store stays usable.
 */
public final class MemoryBudgetExceededException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    MemoryBudgetExceededException(final String message) {
        super(message);
    }
}
