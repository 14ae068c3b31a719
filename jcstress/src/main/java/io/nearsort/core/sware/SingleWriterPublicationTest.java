package io.nearsort.core.sware;

import io.nearsort.core.Concurrency;
import io.nearsort.core.Indexes;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The SA B+-tree's single-writer buffer publication ({@link Concurrency#SINGLE_WRITER}, SWARE §IV with the
 * publication protocol of {@code SwareBuffer}): the writer appends an entry without a lock and then publishes the
 * buffer's size with a release store; a reader under the shared lock takes the size with an acquire load and
 * reads entries below it only. The writer's first put takes the locked path (it records the writer thread), the
 * next two the lock-free appends: key 3 in order ({@code SwareBuffer.appendInOrder}), then key 2 out of order
 * ({@code SwareBuffer.append}, inside the buffer's key range, so the reader's min/max check does not skip it).
 * The reader looks key 2 up, then key 1: it may miss either, but what it finds must carry the value written, and
 * having found key 2 it must find key 1. Publishing the size
 * before the value is written fails it (docs/reliability.md, "Concurrency: jcstress").
 */
@JCStressTest
@Description("SortednessAwareIndex SINGLE_WRITER: a lock-free append is published after its entry")
@Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "neither key visible yet")
@Outcome(id = "-1, 11", expect = ACCEPTABLE, desc = "key 1 visible, key 2 not yet")
@Outcome(id = "22, 11", expect = ACCEPTABLE_INTERESTING, desc = "both keys visible")
@Outcome(expect = FORBIDDEN, desc = "a wrong value, or key 2 visible without key 1")
@State
public class SingleWriterPublicationTest {
    private static final long MISSING = -1;

    private final SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(8).pageSize(512)
            .concurrency(Concurrency.SINGLE_WRITER).build();

    @Actor
    public void writer() {
        index.put(1, 11);
        index.put(3, 33);
        index.put(2, 22);
    }

    @Actor
    public void reader(final JJ_Result r) {
        r.r1 = index.getOrDefault(2, MISSING);
        r.r2 = index.getOrDefault(1, MISSING);
    }

    @Arbiter
    public void close(final JJ_Result r) {
        index.close();
    }
}
