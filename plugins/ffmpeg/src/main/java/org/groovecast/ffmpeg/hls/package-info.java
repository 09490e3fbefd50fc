/**
 * HLS: {@code output.file.hls}, its renditions, segments (MPEG-TS, fragmented MP4, packed audio),
 * playlists kept across restarts and reloads, the title as timed ID3 metadata, and publishing to an
 * origin.
 */
package org.groovecast.ffmpeg.hls;
