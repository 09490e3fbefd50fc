/**
 * The sources that play files: {@code single}, {@code playlist} (its m3u and pls files), {@code
 * request.queue} and {@code request.dynamic}, each resolving, probing and opening its next tracks
 * ahead of the clock.
 */
package org.groovecast.ffmpeg.playlist;
