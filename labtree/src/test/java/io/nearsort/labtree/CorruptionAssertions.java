package io.nearsort.labtree;

import io.nearsort.core.CorruptFileException;
import org.junit.jupiter.api.function.Executable;

import java.io.UncheckedIOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** How the LAB-tree's unchecked API must report corruption. */
public final class CorruptionAssertions {
    private CorruptionAssertions() {
    }

    /**
     * Asserts that {@code call} throws an {@link UncheckedIOException} caused by a {@link CorruptFileException}
     * with the same message, and returns the cause.
     */
    public static CorruptFileException assertCorrupt(final Executable call) {
        final UncheckedIOException e = assertThrows(UncheckedIOException.class, call);
        final CorruptFileException cause = assertInstanceOf(CorruptFileException.class, e.getCause(), e.toString());
        assertEquals(cause.getMessage(), e.getMessage(), "the unchecked exception carries the corruption's message");
        return cause;
    }
}
