package org.groovecast.ffmpeg.hls;

import java.nio.file.Path;

/**
 * Where an HLS output's files go and what they are called, beyond its directory: the master
 * playlist's name, the segments' names, how many segments stay on disk after they left the playlist
 * (null: as many as it lists), and where the playlists' state is kept across restarts (null:
 * nowhere, a restart begins a new playlist).
 */
record HlsFiles(String playlist, HlsNames names, Integer overhead, Path persistAt) {
    static HlsFiles standard(Path dir) {
        return new HlsFiles("stream.m3u8", HlsNames.standard(dir), null, null);
    }
}
