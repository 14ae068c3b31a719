package io.nearsort.core.memory;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import java.util.Arrays;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A concurrent {@link PageArena} hands a page to at most one owner: two threads allocating at once from a fresh
 * arena never receive the same page. With a per-thread cache of two pages every allocation finds its cache empty
 * and refills it with one page under the arena's lock ({@code PageArena.allocate}), so each of the eight
 * allocations carves a page from the shared slab (the first of them adds the slab) while the other thread may be
 * doing the same. The arbiter counts the distinct pages: anything but eight is a page handed to both threads.
 * Refilling the caches outside the lock fails it (docs/reliability.md, "Concurrency: jcstress").
 */
@JCStressTest
@Description("PageArena concurrent: two threads allocating at once never receive the same page")
@Outcome(id = "8", expect = ACCEPTABLE, desc = "eight distinct pages")
@Outcome(expect = FORBIDDEN, desc = "a page handed to both threads")
@State
public class PageArenaAllocateDisjointTest {
    private static final int PAGES = 4;

    private final PageArena arena = PageArena.builder().pageSize(512).concurrent(true).threadCacheCapacity(2)
            .slabPool(SlabPool.disabled()).build();
    private final long[] first = new long[PAGES];
    private final long[] second = new long[PAGES];

    @Actor
    public void first() {
        allocate(first);
    }

    @Actor
    public void second() {
        allocate(second);
    }

    private void allocate(final long[] pages) {
        for (int i = 0; i < PAGES; i++) {
            pages[i] = arena.allocate();
        }
    }

    @Arbiter
    public void close(final I_Result r) {
        final long[] all = Arrays.copyOf(first, 2 * PAGES);
        System.arraycopy(second, 0, all, PAGES, PAGES);
        r.r1 = (int) Arrays.stream(all).distinct().count();
        arena.close();
    }
}
