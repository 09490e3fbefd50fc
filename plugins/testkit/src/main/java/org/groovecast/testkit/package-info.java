/**
 * A test kit for operator plugins: run a source the way a clock would, without the engine.
 *
 * <p>{@link org.groovecast.testkit.TestContext} is the stream context, with a clock that moves only
 * when told; {@link org.groovecast.testkit.FramePuller} prepares a source on it and pulls frames
 * tick by tick, returning what came out as {@link org.groovecast.testkit.Pulled} (the samples,
 * levels, track starts and {@link org.groovecast.testkit.MetadataAt metadata}); {@link
 * org.groovecast.testkit.OperatorCall} builds an operator from its spec with arguments as a script
 * gives them; {@link org.groovecast.testkit.TestSource} is an input with known samples, tracks and
 * readiness to feed it.
 */
package org.groovecast.testkit;
