package io.nearsort.core.memory;

import io.nearsort.core.Indexes;
import io.nearsort.core.LongIndex;

import java.util.Map;
import java.util.function.Supplier;

/**
 * Started in a child JVM without the export flag by {@link MissingAgronaFlagTest}; builds the index named by its
 * argument ({@code bplus} when none), which must fail.
 */
public final class MissingFlagProbe {
    private static final Map<String, Supplier<LongIndex>> ENTRY_POINTS = Map.of(
            "bplus", () -> Indexes.bPlusTree().build(),
            "sbtree", () -> Indexes.sbTree().build(),
            "betree", () -> Indexes.beTree().build(),
            "sa-betree", () -> Indexes.saBeTree().build());

    private MissingFlagProbe() {
    }

    public static void main(final String[] args) {
        final String name = args.length > 0 ? args[0] : "bplus";
        final Supplier<LongIndex> entryPoint = ENTRY_POINTS.get(name);
        if (entryPoint == null) {
            System.out.println("unknown index " + name + "; expected one of " + ENTRY_POINTS.keySet());
            System.exit(2);
        }
        try {
            entryPoint.get().close();
            System.out.println("built without the flag");
            System.exit(0);
        } catch (final IllegalStateException e) {
            System.out.println(e.getMessage());
            System.exit(3);
        }
    }
}
