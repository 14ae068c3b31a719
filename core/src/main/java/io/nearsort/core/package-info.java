/**
 * nearsort's index API: {@link io.nearsort.core.LongIndex} (an ordered map of {@code long} keys to {@code long}
 * values, with a {@link io.nearsort.core.LongCursor} and a {@link java.util.NavigableMap} view), the structures
 * behind it built through {@link io.nearsort.core.Indexes}, their {@link io.nearsort.core.IndexStats}, the
 * {@link io.nearsort.core.Concurrency} modes of the SA trees, and the corruption type every on-disk structure
 * reports ({@link io.nearsort.core.CorruptFileException}).
 *
 * <p>API here and in the structure packages: what {@link io.nearsort.core.Indexes} returns and the types their
 * methods take. For implementers of the API: {@link io.nearsort.core.AppendableLongIndex} (what the SWARE buffer
 * needs of a tree) and {@link io.nearsort.core.AbstractLongCursor}. Internal, public only so that nearsort's other
 * packages and modules can use them: {@code LongIndex.checkBatch}, {@code LongIndex.checkRange} and
 * {@code AppendableLongIndex.checkAscending}.
 */
package io.nearsort.core;
