package io.nearsort.labtree.storage;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ReleaseChainTest {
    @Test
    void everyStepRunsAndTheFirstFailureCarriesTheOthers() {
        final List<String> ran = new ArrayList<>();
        final IOException flush = new IOException("flush failed");
        final IllegalAccessError free = new IllegalAccessError("free failed"); // the defect's error
        final ReleaseChain chain = new ReleaseChain()
                .run(() -> {
                    ran.add("flush");
                    throw flush;
                })
                .run(() -> {
                    ran.add("free");
                    throw free;
                })
                .run(() -> ran.add("close"));
        assertSame(flush, assertThrows(IOException.class, chain::rethrow));
        assertEquals(List.of("flush", "free", "close"), ran);
        assertArrayEquals(new Throwable[] {free}, flush.getSuppressed());
    }

    @Test
    void anErrorAloneIsRethrownAndNoFailureThrowsNothing() {
        final IllegalAccessError free = new IllegalAccessError("free failed");
        assertSame(free, assertThrows(IllegalAccessError.class, new ReleaseChain().run(() -> {
            throw free;
        })::rethrow));
        assertDoesNotThrow(new ReleaseChain().run(() -> { })::rethrow);
    }
}
