/**
 * Decoding: a media file's audio (and video) to the clock's format ({@link
 * org.groovecast.ffmpeg.decode.MediaDecoder}), and a live connection's stream for {@code
 * input.harbor} (the plugin's {@code LiveDecoder}).
 */
package org.groovecast.ffmpeg.decode;
