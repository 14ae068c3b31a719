package io.nearsort.core.sware;

import io.nearsort.core.Concurrency;
import io.nearsort.core.Indexes;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The SA B+-tree's buffer zone maps as readers see them ({@link Concurrency#SINGLE_WRITER}, SWARE §IV-B with the
 * publication protocol of {@code SwareBuffer}): the writer appends without a lock, updating the entry's zone map
 * ({@code zoneMin}/{@code zoneMax}) and {@code minKey}/{@code maxKey}, and then publishes the buffer's size with a
 * release store; a reader takes an acquire snapshot {@code n} of the size and skips every zone of the unsorted
 * section whose zone map does not cover the key. A published entry must never be missed because its zone's map
 * does not cover it yet.
 *
 * <p>Zones of 15 entries (512-byte pages, bulk fill factor 0.5), a buffer of 32, Bloom filters off (so a miss can
 * come only from the zone maps, {@code minKey}/{@code maxKey} or the search) and no query-driven sorting (so no read
 * asks the writer to reorganise). The keys, by position: 100, 200, ..., 1200 in order (positions 0-11), then
 * <ul>
 *   <li>12: 1300, in order ({@code SwareBuffer.appendInOrder}, which leaves zone 0's map lagging);</li>
 *   <li>13: 50, below every key: leaves {@code appendInOrder}'s path, so zone 0's lagging map is covered
 *   ({@code coverLaggingZonemaps}: [100, 1300] from the [0, 0] of a new buffer) and then widened to 50;</li>
 *   <li>14: 1400, above every key, in the unsorted section: widens zone 0's maximum;</li>
 *   <li>15: 550, the first entry of zone 1: resets that zone's map ([0, 0] before);</li>
 *   <li>16 and 17: 650, then 450: widen zone 1's maximum, then its minimum, both inside {@code [minKey,
 *   maxKey]}.</li>
 * </ul>
 * Each state takes one of these six appends in turn (its position {@code p}): the state puts the keys before
 * {@code p}, the writer puts the key at {@code p} (one append per sample, so that the reader often catches it
 * being published). The reader takes the snapshot {@code n}; when it covers the entry ({@code n > p}) it looks the
 * key up through the buffer's checks with that snapshot ({@code mayHold}, {@code findInUnsorted}, then
 * {@code findInSorted}, as {@code SortednessAwareIndex.find} does), then through the index's
 * {@code getOrDefault} (its own snapshot is at least {@code n}: nothing reorganises the buffer here).
 *
 * <p>Result: {@code p}; whether the writer's put was lock-free (1: the state was built in the writer's thread, so
 * that thread is the index's writer) or took the locked path (0: a new writer thread's first write records it,
 * under the exclusive lock, publishing at the unlock); whether the reader's snapshot covered the entry; and what
 * missed it (0: nothing; +1: the buffer's checks; +2: {@code getOrDefault}, or it read a wrong value). A snapshot
 * covering the entry with anything but 0 is forbidden. Publishing the size before the zone-map update fails it
 * (docs/reliability.md, "Concurrency: jcstress").
 */
@JCStressTest
@Description("SortednessAwareIndex SINGLE_WRITER: an appended entry's zone map covers it when the entry is published")
@Outcome(id = "1[2-7], [01], 0, 0", expect = ACCEPTABLE, desc = "the entry not published yet")
@Outcome(id = "1[2-7], [01], 1, 0", expect = ACCEPTABLE_INTERESTING, desc = "the entry published, and found")
@Outcome(expect = FORBIDDEN, desc = "the entry published but missed (by the buffer's checks: 1; the index: 2)")
@State
public class ZonemapPublicationTest {
    private static final long MISSING = -1;
    /** Keys by position: in order up to 1300, then the appends the zone maps have to follow. No key twice. */
    private static final long[] KEYS = {100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200,
        1300, 50, 1400, 550, 650, 450};
    /** The first position a writer's append takes. */
    private static final int FIRST = 12;
    private static final int ZONE_SIZE = 15;
    private static final AtomicInteger NEXT = new AtomicInteger();

    private final SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(32).pageSize(512)
            .bulkFillFactor(0.5).bloomBitsPerEntry(0).queryDrivenSortThreshold(0)
            .concurrency(Concurrency.SINGLE_WRITER).build();
    private final SwareBuffer buffer = index.buffer;
    /** The reader's own counters for the buffer's checks (plain counts: only the reader writes them). */
    private final SwareCounters.Reads counts = new SwareCounters.Reads(null);
    /** The position the writer's append takes. */
    private final int p = FIRST + Math.floorMod(NEXT.getAndIncrement(), KEYS.length - FIRST);
    /** The thread that built the state: the index's writer thread so far. */
    private final Thread builder = Thread.currentThread();

    public ZonemapPublicationTest() {
        if (buffer.zoneSize != ZONE_SIZE) {
            throw new IllegalStateException("zones of " + buffer.zoneSize + " entries, not " + ZONE_SIZE);
        }
        for (int i = 0; i < p; i++) {
            index.put(KEYS[i], value(KEYS[i]));
        }
    }

    private static long value(final long key) {
        return key + 1;
    }

    @Actor
    public void writer(final IIII_Result r) {
        r.r2 = Thread.currentThread() == builder ? 1 : 0;
        index.put(KEYS[p], value(KEYS[p]));
    }

    @Actor
    public void reader(final IIII_Result r) {
        final int n = buffer.visibleSize();
        r.r1 = p;
        if (n <= p) {
            return; // not published yet: nothing to find
        }
        r.r3 = 1;
        final long key = KEYS[p];
        int pos = -1;
        if (buffer.mayHold(key, n, counts)) {
            pos = buffer.findInUnsorted(key, n, counts);
            if (pos < 0) {
                pos = buffer.findInSorted(key, n, counts);
            }
        }
        int missed = pos < 0 ? 1 : 0;
        if (index.getOrDefault(key, MISSING) != value(key)) {
            missed += 2;
        }
        r.r4 = missed;
    }

    @Arbiter
    public void close(final IIII_Result r) {
        index.close();
    }
}
