package io.nearsort.core.memory;

import io.nearsort.core.Indexes;

/**
 * Started in a child JVM without the export flag by {@link MissingAgronaFlagTest}; builds the index named by its
 * argument ({@code bplus} when none).
 */
public final class MissingFlagProbe {
    private MissingFlagProbe() {
    }

    public static void main(final String[] args) {
        try {
            if (args.length > 0 && args[0].equals("sbtree")) {
                Indexes.sbTree().build().close();
            } else {
                Indexes.bPlusTree().build().close();
            }
            System.out.println("built without the flag");
            System.exit(0);
        } catch (final IllegalStateException e) {
            System.out.println(e.getMessage());
            System.exit(3);
        }
    }
}
