package org.groovecast.ffmpeg.playlist;

import java.nio.file.Path;
import org.groovecast.api.Metadata;

/**
 * A track to play, as a request source chose it: its URI as given (prefixes such as {@code
 * annotate:} and protocols included, resolved by the station when the track is prepared), the
 * metadata its playlist gave it ({@code #EXTINF}), the directory relative paths are relative to,
 * and for a queued request its id.
 */
record Request(String uri, Metadata annotations, Path baseDir, int rid) {
    static Request of(String uri) {
        return new Request(uri, Metadata.EMPTY, null, 0);
    }
}
