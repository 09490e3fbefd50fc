package org.groovecast.ffmpeg.hls;

import java.util.Objects;

/**
 * A title that plays from stream sample {@code at} on (in the rendition's packet time), as HLS's
 * timed metadata carries it: {@code tag} is its ID3v2.4 tag (TIT2 and TPE1), built once when the
 * title changed; {@code id} counts the changes, so an {@code emsg} repeated at each segment's head
 * keeps the id of the change it repeats.
 */
record Id3Cue(long id, long at, String title, String artist, byte[] tag) {
    Id3Cue {
        Objects.requireNonNull(tag);
    }

    /** The cue of a title and its artist (null: none) from {@code at} on. */
    static Id3Cue of(long id, long at, String title, String artist) {
        return new Id3Cue(
                id,
                at,
                title,
                artist,
                new Id3Tag().text("TIT2", title).text("TPE1", artist).toBytes());
    }

    /** The same title from stream sample {@code sample} on. */
    Id3Cue at(long sample) {
        return new Id3Cue(id, sample, title, artist, tag);
    }

    /** Whether this cue says what {@code title} and {@code artist} say. */
    boolean says(String title, String artist) {
        return Objects.equals(this.title, title) && Objects.equals(this.artist, artist);
    }
}
