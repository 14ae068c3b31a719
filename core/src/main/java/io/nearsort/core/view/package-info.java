/**
 * The {@link java.util.NavigableMap} view every {@link io.nearsort.core.LongIndex} offers
 * ({@link io.nearsort.core.LongIndex#asNavigableMap()}): boxed keys and values over the index's cursor, sub-maps,
 * descending views and key sets, passing Guava's {@code NavigableMap} conformance suite.
 *
 * <p>For implementers of {@link io.nearsort.core.LongIndex}: {@link io.nearsort.core.view.LongIndexMapView}
 * (users see it only as a {@code NavigableMap}); every other type of the package is package-private.
 */
package io.nearsort.core.view;
