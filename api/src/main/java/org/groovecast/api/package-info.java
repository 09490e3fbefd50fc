/**
 * The contract operator plugins compile against.
 *
 * <p>A station is a graph of {@link org.groovecast.api.Source}s pulled frame by frame by clocks.
 * Each clock owns a {@link org.groovecast.api.Frame} per output and, every {@code
 * settings.frame.duration}, asks each of its outputs to fill one. Operators are {@code Source}
 * subclasses; a plugin makes them available to scripts by declaring {@link
 * org.groovecast.api.OperatorSpec}s from an {@link org.groovecast.api.OperatorProvider} extension.
 *
 * <p>Threads: a source belongs to exactly one clock, and that clock never runs two ticks at once,
 * so a source's {@code generate} and callbacks need no locking. Nothing called from a tick may
 * block: blocking work goes to {@link org.groovecast.api.StreamContext#blocking()}.
 */
package org.groovecast.api;
