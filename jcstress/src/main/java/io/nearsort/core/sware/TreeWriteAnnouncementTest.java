package io.nearsort.core.sware;

import io.nearsort.core.Concurrency;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The reads of a {@link Concurrency#SINGLE_WRITER} SA B+-tree that read the tree without its version checks
 * ({@code ReadIndicator.readsAlone}): a marked read may do so until the writer announces a tree write beside
 * reads ({@code ReadIndicator.announceTreeWrite}, before a sorted batch past the empty buffer), and the writer
 * waits, before it writes, for every read still reading alone. The tree is two plain fields here, {@code a} and
 * {@code b}, which the writer changes from 0 to 1 in that order between its announcement and its
 * {@code endTreeWrite}: no B+-tree shows a torn read often enough for a test (its bulk append only adds at its
 * right edge), two fields show every one. The reader enters, then looks up twice, each lookup asking
 * {@code readsAlone} first, as {@code SortednessAwareIndex.getAll} does, and reading {@code b} then {@code a}
 * when alone.
 *
 * <p>Result per lookup: {@code 10 * b + a} when it read alone, -1 when it read beside the write (the version
 * checks would then guard it). A lookup alone must see the write not begun ({@code 0}) or done ({@code 11}); and
 * once a lookup has read alone before the write, the write cannot end before the read does, so the second lookup
 * cannot see it done. A writer that does not wait, or a read that does not ask before each lookup, fails it
 * (docs/reliability.md, "Concurrency: jcstress").
 */
@JCStressTest
@Description("SortednessAwareIndex SINGLE_WRITER: no read reads the tree without its checks beside a tree write")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "both lookups alone, before the write")
@Outcome(id = "11, 11", expect = ACCEPTABLE, desc = "both lookups alone, after the write")
@Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "both lookups beside the write")
@Outcome(id = "0, -1", expect = ACCEPTABLE_INTERESTING, desc = "the first lookup alone, the second beside")
@Outcome(expect = FORBIDDEN, desc = "a lookup alone saw the write half done, or the write ended inside the read")
@State
public class TreeWriteAnnouncementTest {
    private final ReadIndicator indicator = new ReadIndicator(new SwareCounters(true));
    private int a;
    private int b;

    @Actor
    public void writer() {
        indicator.announceTreeWrite();
        a = 1;
        b = 1;
        indicator.endTreeWrite();
    }

    @Actor
    public void reader(final II_Result r) {
        final ReadIndicator.Slot slot = indicator.enter();
        try {
            r.r1 = lookUp(slot);
            r.r2 = lookUp(slot);
        } finally {
            indicator.exit(slot);
        }
    }

    private int lookUp(final ReadIndicator.Slot slot) {
        if (!indicator.readsAlone(slot)) {
            return -1;
        }
        final int seenB = b;
        return 10 * seenB + a;
    }
}
