package io.nearsort.core.memory;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.atomic.AtomicLong;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The hand-off of a page between threads of a concurrent {@link PageArena} through its shared free list (the
 * way SB-Tree's search-layer thread frees the blocks it reclaims and the writers allocate them again). Each
 * thread has a cache of two pages. The freer allocates four pages, writes this state's mark into bytes 8 to 15 and
 * the last eight bytes of each, and frees them: its cache holds two, so the third and fourth frees each spill one
 * page (the second, then the third) to the shared list under the arena's lock, writing the list's next pointer
 * into the page's first eight bytes. The taker meanwhile allocates three pages, each a refill under the lock that
 * pops the shared list or, when it is empty, carves a fresh page, and reads the marks of each page it gets.
 * The arbiter then allocates four more pages to drain the list.
 *
 * <p>Result: how many spilled pages the taker got (0 to 2), and a verdict: 0 when the hand-off was sound;
 * 1 when the taker got a page the freer's cache still held or the same page twice (two owners); 2 when a spilled
 * page reached the taker without the freer's marks (its writes before the free not visible); 3 when the list was
 * corrupted: the drain returned a page the taker holds or one page twice, or lost a spilled page the taker did
 * not get. Spilling outside the lock fails it, and so does refilling outside the lock (docs/reliability.md,
 * "Concurrency: jcstress").
 */
@JCStressTest
@Description("PageArena concurrent: a page freed by one thread and allocated by another changes owner once")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the taker carved fresh pages only (no spill visible yet)")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "one spilled page handed to the taker, with its marks")
@Outcome(id = "2, 0", expect = ACCEPTABLE_INTERESTING, desc = "both spilled pages handed to the taker")
@Outcome(expect = FORBIDDEN, desc = "two owners of a page, a hand-off without the freer's writes, or a corrupt list")
@State
public class PageArenaHandOffTest {
    private static final int PAGE = 512;
    private static final AtomicLong MARKS = new AtomicLong();

    private final PageArena arena = PageArena.builder().pageSize(PAGE).concurrent(true).threadCacheCapacity(2)
            .slabPool(SlabPool.disabled()).build();
    /** Unique to this state, so a page of an earlier state's memory never carries it. */
    private final long mark = MARKS.incrementAndGet();
    private final UnsafeBuffer freerBuffer = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer takerBuffer = new UnsafeBuffer(0, 0);
    private final long[] freed = new long[4];
    private final long[] taken = new long[3];
    private final boolean[] marked = new boolean[3];

    @Actor
    public void freer() {
        for (int i = 0; i < freed.length; i++) {
            freed[i] = arena.allocate();
            arena.wrap(freerBuffer, freed[i]).putLong(8, mark);
            freerBuffer.putLong(PAGE - 8, mark);
        }
        for (final long page : freed) {
            arena.free(page);
        }
    }

    @Actor
    public void taker() {
        for (int i = 0; i < taken.length; i++) {
            taken[i] = arena.allocate();
            arena.wrap(takerBuffer, taken[i]);
            marked[i] = takerBuffer.getLong(8) == mark && takerBuffer.getLong(PAGE - 8) == mark;
        }
    }

    @Arbiter
    public void close(final II_Result r) {
        // The freer's cache keeps freed[0] and freed[3]; freed[1] and freed[2] went to the shared list.
        int handedOff = 0;
        int verdict = 0;
        for (int i = 0; i < taken.length; i++) {
            final long page = taken[i];
            if (page == freed[0] || page == freed[3] || indexOf(taken, page) != i) {
                verdict = 1;
            } else if (page == freed[1] || page == freed[2]) {
                handedOff++;
                if (!marked[i] && verdict == 0) {
                    verdict = 2;
                }
            }
        }
        final long[] drained = new long[4];
        for (int i = 0; i < drained.length; i++) {
            drained[i] = arena.allocate();
            if (indexOf(taken, drained[i]) >= 0 || indexOf(drained, drained[i]) != i) {
                verdict = verdict == 0 ? 3 : verdict;
            }
        }
        for (int i = 1; i <= 2; i++) {
            if (indexOf(taken, freed[i]) < 0 && indexOf(drained, freed[i]) < 0 && verdict == 0) {
                verdict = 3;
            }
        }
        r.r1 = handedOff;
        r.r2 = verdict;
        arena.close();
    }

    private static int indexOf(final long[] pages, final long page) {
        for (int i = 0; i < pages.length; i++) {
            if (pages[i] == page) {
                return i;
            }
        }
        return -1;
    }
}
