package io.nearsort.labtree;

import io.nearsort.labtree.daf.DirectlyAddressableFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Started in a child JVM without the export flag by {@link MissingAgronaFlagTest}: opens a {@code lab} array or a
 * {@code daf} file at the path it is given and closes it, which must fail at open. Exits 3 with the message when
 * it does and the file was not created, 4 if the file was created anyway, 0 if open and close succeed.
 */
public final class MissingFlagProbe {
    private MissingFlagProbe() {
    }

    public static void main(final String[] args) throws IOException {
        final Path file = Path.of(args[1]);
        try {
            if (args[0].equals("daf")) {
                DirectlyAddressableFile.open(file, Linearization.rowMajor(), 512, 8, 30, 30).close();
            } else {
                try (LabArray a = LabArray.builder(file).shape(30, 30).pageSize(512).bufferPoolPages(8).build()) {
                    a.set(1.0, 2, 3);
                }
            }
            System.out.println("opened and closed without the flag");
            System.exit(0);
        } catch (final IllegalStateException e) {
            System.out.println(e.getMessage());
            System.exit(Files.exists(file) ? 4 : 3);
        }
    }
}
