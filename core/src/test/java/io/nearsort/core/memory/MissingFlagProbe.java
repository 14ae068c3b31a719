package io.nearsort.core.memory;

import io.nearsort.core.Indexes;
import io.nearsort.core.LongIndex;

import java.util.List;
import java.util.function.Supplier;

/** Started in a child JVM without the export flag by {@link MissingAgronaFlagTest}: every entry point must fail. */
public final class MissingFlagProbe {
    private MissingFlagProbe() {
    }

    public static void main(final String[] args) {
        final List<Supplier<LongIndex>> entryPoints = List.of(() -> Indexes.bPlusTree().build(),
                () -> Indexes.beTree().build(), () -> Indexes.saBeTree().build());
        String message = null;
        for (final Supplier<LongIndex> entryPoint : entryPoints) {
            try {
                entryPoint.get().close();
                System.out.println("built without the flag");
                System.exit(0);
            } catch (final IllegalStateException e) {
                message = e.getMessage();
                if (!message.contains(UnsafeAccess.REQUIRED_FLAG)) {
                    break;
                }
            }
        }
        System.out.println(message);
        System.exit(3);
    }
}
