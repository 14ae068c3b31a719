package io.nearsort.core.sbtree;

import io.nearsort.core.memory.PageArena;
import io.nearsort.core.memory.SlabPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.J_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The search layer's ROWEX append (SB-Tree §III-F): the search-layer thread appends a fence in place at the right
 * edge by writing its key and child pointer and only then publishing the node's count, so a lock-free reader that
 * sees the new count routes to a child pointer that is already written. One actor is the writer
 * ({@code SearchLayer.insert} of a fence above every other, the in-place append), the other a reader
 * ({@code SearchLayer.find}) of a key the new fence covers. The reader must find the first data block (the append
 * not yet visible) or the new one, never another value: that would be a child pointer read before it was written.
 * Publishing the count before the child pointer fails it (docs/reliability.md, "Concurrency: jcstress").
 */
@JCStressTest
@Description("SearchLayer in-place append: the child pointer is written before the count is published")
@Outcome(id = "8", expect = ACCEPTABLE, desc = "the append is not visible yet: the first data block")
@Outcome(id = "24", expect = ACCEPTABLE_INTERESTING, desc = "the appended fence's data block")
@Outcome(expect = FORBIDDEN, desc = "a child pointer read before it was written")
@State
public class SearchLayerAppendPublicationTest {
    private static final long FENCE = 1_000;

    private final PageArena arena = PageArena.builder().pageSize(512).concurrent(true)
            .slabPool(SlabPool.disabled()).build();
    private final SearchLayer layer = new SearchLayer(new SearchBlockDescriptor(512, 4), arena,
            new EpochReclamation(), block(0));

    /** A stand-in for a data block's address (readers of the search layer never dereference leaf children). */
    private static long block(final long fence) {
        return (fence << 4) | 8;
    }

    @Actor
    public void writer() {
        layer.insert(FENCE, block(1));
    }

    @Actor
    public void reader(final J_Result r) {
        r.r1 = layer.find(FENCE + FENCE / 2);
    }

    @Arbiter
    public void close(final J_Result r) {
        arena.close();
    }
}
