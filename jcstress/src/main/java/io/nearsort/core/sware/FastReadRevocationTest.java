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
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The point reads of a {@link Concurrency#SINGLE_WRITER} SA B+-tree that take no lock ({@code ReadIndicator}):
 * a read marks its thread's slot and then checks that no writer has revoked the fast path; a writer that
 * reorganises the buffer under the exclusive lock revokes it and waits until no slot is marked. The state holds
 * eight scrambled keys in a full buffer of eight; the writer puts key 9, whose flush cycle sorts the buffer under
 * the exclusive lock, detaches its first half (keys 1 to 4) for the tree and moves the rest (5 to 8) to the
 * buffer's front. The reader looks up key 8, which stays in the buffer, then key 1, which goes to the tree: both
 * were put before either actor started, so the reader must find both whatever the moment. A writer that does not
 * wait for the reads inside, or a read that checks the revocation before it marks its slot, fails it
 * (docs/reliability.md, "Concurrency: jcstress").
 */
@JCStressTest
@Description("SortednessAwareIndex SINGLE_WRITER: a lock-free point read never overlaps a reorganisation")
@Outcome(id = "88, 11", expect = ACCEPTABLE, desc = "both keys found")
@Outcome(expect = FORBIDDEN, desc = "a key missed or a wrong value: the read overlapped the flush cycle")
@State
public class FastReadRevocationTest {
    private static final long MISSING = -1;

    private final SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(8).pageSize(512)
            .concurrency(Concurrency.SINGLE_WRITER).build();

    public FastReadRevocationTest() {
        for (final long key : new long[] {8, 1, 7, 2, 6, 3, 5, 4}) {
            index.put(key, 11 * key);
        }
    }

    @Actor
    public void writer() {
        index.put(9, 99);
    }

    @Actor
    public void reader(final JJ_Result r) {
        r.r1 = index.getOrDefault(8, MISSING);
        r.r2 = index.getOrDefault(1, MISSING);
    }

    @Arbiter
    public void close(final JJ_Result r) {
        index.close();
    }
}
