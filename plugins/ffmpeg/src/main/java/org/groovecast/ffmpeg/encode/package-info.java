/**
 * Encoding and muxing: {@code ffmpeg(...)} and its sugar ({@code mp3}, {@code aac}, {@code
 * vorbis}...), the system's LAME, libvorbisenc and libfdk-aac through the FFM API, a shared encode
 * muxed by {@code copy()}, and the muxer every output writes through.
 */
package org.groovecast.ffmpeg.encode;
