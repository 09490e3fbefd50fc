package org.groovecast.ffmpeg.hls;

import org.groovecast.api.Metadata;

/**
 * One rendition's title as its segments carry it: a change is offered when a frame brings metadata
 * with a {@code title} (and its {@code artist}, if any), as the titles sent to Icecast are
 * (metadata without a title, cue points or gains, changes nothing; the same title and artist again
 * change nothing), and falls due when the first packet at or past its sample is written, since an
 * encoder's packets lag its frames by its delay. A change offered while another waits replaces it:
 * the later title is the one playing by then.
 *
 * <p>Per frame this only scans the frame's metadata; a tag is built per change.
 */
final class TimedId3 {
    private Id3Cue current;
    private Id3Cue pending;
    private long changes;

    /**
     * Metadata {@code m} from stream sample {@code at} on; {@link Long#MIN_VALUE} when the sample
     * is not known yet (a shared encode whose first packet has not come), due with the next packet.
     */
    void offer(Metadata m, long at) {
        String title = m.get("title");
        String artist = m.get("artist");
        if (title == null) return;
        Id3Cue latest = pending != null ? pending : current;
        if (latest != null && latest.says(title, artist)) return;
        pending = Id3Cue.of(++changes, at, title, artist);
    }

    /**
     * The change that falls due with a packet at stream sample {@code at}, now current; null if
     * none does.
     */
    Id3Cue due(long at) {
        if (pending == null || at < pending.at()) return null;
        current = pending.at() == Long.MIN_VALUE ? pending.at(at) : pending;
        pending = null;
        return current;
    }

    /** The title playing at the last packet written, or null before the first one. */
    Id3Cue current() {
        return current;
    }

    /**
     * A new run (a reload's rendition, a restart of the encoder): what {@code previous} knew goes
     * on, a title not yet due from the start of the run.
     */
    void continueFrom(TimedId3 previous) {
        current = previous.current;
        changes = previous.changes;
        if (previous.pending != null) pending = previous.pending.at(Long.MIN_VALUE);
    }

    /** The run's timestamps start again: a change waiting is due with the next packet. */
    void restart() {
        if (pending != null) pending = pending.at(Long.MIN_VALUE);
    }
}
