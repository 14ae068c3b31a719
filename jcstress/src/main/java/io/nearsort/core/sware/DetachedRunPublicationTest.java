package io.nearsort.core.sware;

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
 * The SA B+-tree's detached flush run (SWARE §IV-A/§IV-D, {@code SortednessAwareIndex}, {@code DetachedRun}):
 * a flush cycle detaches the buffer's entries under the buffer's exclusive lock and marks the run on its way
 * ({@code emitting}, volatile), then releases the lock and writes the run to the tree holding only the tree's
 * lock, and clears the mark once the tree has every entry. A point read under the buffer's shared lock that sees
 * the mark reads the run, then the tree; one that does not see it reads the tree directly, without the tree's
 * lock, and skips the tree when the key is above the tree's largest key (the tree's zonemap) — so clearing the
 * mark is what publishes the run's arrival in the tree. The state holds keys 1 to 8 in a full buffer of eight;
 * the writer puts key 9, whose flush cycle detaches all eight (a strictly ascending buffer flushes whole) and
 * writes them to the empty tree; the reader looks up key 9, then key 1. Key 1 was put before either started, so
 * the reader must find it in the buffer, the run or the tree, whatever the moment. Clearing the mark before the
 * run is written fails it (docs/reliability.md, "Concurrency: jcstress").
 */
@JCStressTest
@Description("SortednessAwareIndex: a run detached by a flush cycle stays visible until the tree has it")
@Outcome(id = "-1, 11", expect = ACCEPTABLE, desc = "key 9 not visible yet, key 1 found")
@Outcome(id = "99, 11", expect = ACCEPTABLE_INTERESTING, desc = "key 9 visible, key 1 found")
@Outcome(expect = FORBIDDEN, desc = "key 1 missed: neither in the buffer, the detached run nor the tree")
@State
public class DetachedRunPublicationTest {
    private static final long MISSING = -1;

    private final SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(8).pageSize(512).build();

    public DetachedRunPublicationTest() {
        for (long key = 1; key <= 8; key++) {
            index.put(key, 11 * key);
        }
    }

    @Actor
    public void writer() {
        index.put(9, 99);
    }

    @Actor
    public void reader(final JJ_Result r) {
        r.r1 = index.getOrDefault(9, MISSING);
        r.r2 = index.getOrDefault(1, MISSING);
    }

    @Arbiter
    public void close(final JJ_Result r) {
        index.close();
    }
}
