package io.nearsort.core.memory;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The accounting of a concurrent {@link PageArena} after concurrent allocations and frees. Each of two threads
 * allocates three 512-byte pages and frees the second (per-thread caches of two pages, so every allocation
 * refills under the arena's lock and the free stays in the thread's cache), while the other thread does the same.
 * Once both are done the arena must report four pages and 2,048 bytes in use ({@code pagesInUse},
 * {@code bytesInUse}: counted outside the lock, per thread) and one slab of sixteen pages plus the page that
 * aligns it, 8,704 bytes ({@code bytesAllocated}, under the lock). Counting pages in use in a plain field instead
 * of the {@code LongAdder} fails it, and so does refilling outside the lock (docs/reliability.md,
 * "Concurrency: jcstress").
 */
@JCStressTest
@Description("PageArena concurrent: pages and bytes in use add up after concurrent allocations and frees")
@Outcome(id = "4, 2048, 8704", expect = ACCEPTABLE, desc = "four pages in use, one slab allocated")
@Outcome(expect = FORBIDDEN, desc = "an allocation or free lost from the counts, or a slab too many")
@State
public class PageArenaAccountingTest {
    private final PageArena arena = PageArena.builder().pageSize(512).concurrent(true).threadCacheCapacity(2)
            .slabPool(SlabPool.disabled()).build();

    @Actor
    public void first() {
        allocateThreeFreeOne();
    }

    @Actor
    public void second() {
        allocateThreeFreeOne();
    }

    private void allocateThreeFreeOne() {
        arena.allocate();
        final long page = arena.allocate();
        arena.allocate();
        arena.free(page);
    }

    @Arbiter
    public void close(final JJJ_Result r) {
        r.r1 = arena.pagesInUse();
        r.r2 = arena.bytesInUse();
        r.r3 = arena.bytesAllocated();
        arena.close();
    }
}
