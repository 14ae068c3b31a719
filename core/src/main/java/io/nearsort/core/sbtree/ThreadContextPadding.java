package io.nearsort.core.sbtree;

/** Cache-line padding in front of the fields other threads read (the JVM lays out superclass fields first). */
abstract class ThreadContextPadding {
    @SuppressWarnings("unused")
    private long p0, p1, p2, p3, p4, p5, p6, p7;
}
