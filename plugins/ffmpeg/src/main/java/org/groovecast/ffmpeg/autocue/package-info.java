/**
 * Autocue and computed ReplayGain: a file's loudness over time, the cue points and gain found in it
 * ({@code autocue.analyze}, {@code settings.autocue.*}), and what a request source adds to a track
 * from them ({@link org.groovecast.ffmpeg.autocue.TrackAnalysis}).
 */
package org.groovecast.ffmpeg.autocue;
