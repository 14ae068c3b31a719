/**
 * Off-heap memory: {@link io.nearsort.core.memory.PageArena} (fixed-size pages carved from slabs, one owner,
 * freed whole by {@code close()}; single-threaded or with per-thread caches for SB-Tree's block allocator, §III-E),
 * {@link io.nearsort.core.memory.SlabPool} (slabs of closed arenas kept for the next index of the process, bounded)
 * and {@link io.nearsort.core.memory.HugePages} (the transparent-huge-page advice and its status).
 *
 * <p>API: those three. Internal, public only so that every module of nearsort checks the JVM flag and the debug
 * switch the same way: {@link io.nearsort.core.memory.UnsafeAccess} (its two flag constants are what users need)
 * and {@link io.nearsort.core.memory.MemoryChecks}; they may change in any release.
 */
package io.nearsort.core.memory;
