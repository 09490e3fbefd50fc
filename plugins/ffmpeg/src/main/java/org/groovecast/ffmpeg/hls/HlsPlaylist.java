package org.groovecast.ffmpeg.hls;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A rendition's live media playlist (RFC 8216): the window of its last {@code keep} segments and
 * the numbers that must stay true from one rewrite to the next, which a reload hands on whole.
 * Between rewrites only what RFC 8216 §6.2.1 allows changes: segments are appended and removed from
 * the front, the media sequence grows by the segments removed, the discontinuity sequence by the
 * discontinuity tags removed with them (§6.2.2), so every segment keeps its two numbers; the target
 * duration and the version never change.
 */
final class HlsPlaylist {
    /**
     * A finished segment: its number, file, length, whether a discontinuity precedes it, its init
     * section.
     */
    record Segment(long sequence, String file, double seconds, boolean discontinuity, String map) {}

    private final int targetDuration;
    private final int keep;

    /** How many segments stay on disk after they left the window, for players a round behind. */
    private final int overhead;

    private final Deque<Segment> window = new ArrayDeque<>();

    /** Segments that left the window: players may still fetch them for one more round. */
    private final Deque<Segment> retired = new ArrayDeque<>();

    private long nextSequence;
    private long discontinuitySequence;
    private int version = 3;

    HlsPlaylist(int targetDuration, int keep) {
        this(targetDuration, keep, keep);
    }

    HlsPlaylist(int targetDuration, int keep, int overhead) {
        this.targetDuration = targetDuration;
        this.keep = keep;
        this.overhead = overhead;
    }

    /**
     * A playlist that goes on from a saved one (an output restarted with {@code persistAt}): the
     * same numbers and segments, so that players polling across the restart see it grow; its target
     * duration is the larger of the two, which the saved segments and the new ones both fit.
     */
    HlsPlaylist resumed(HlsState.Saved saved) {
        HlsPlaylist p =
                new HlsPlaylist(Math.max(targetDuration, saved.targetDuration()), keep, overhead);
        p.nextSequence = saved.nextSequence();
        p.discontinuitySequence = saved.discontinuitySequence();
        p.version = Math.max(version, saved.version());
        p.window.addAll(saved.window());
        p.retired.addAll(saved.retired());
        // A shorter playlist now: what no longer fits goes a round out, as if it had left on air.
        while (p.window.size() > keep) {
            Segment old = p.window.removeFirst();
            if (old.discontinuity()) p.discontinuitySequence++;
            p.retired.addLast(old);
        }
        return p;
    }

    /** What a restart needs to go on from here. */
    HlsState.Saved saved() {
        return new HlsState.Saved(
                targetDuration,
                version,
                nextSequence,
                discontinuitySequence,
                List.copyOf(window),
                List.copyOf(retired));
    }

    int targetDuration() {
        return targetDuration;
    }

    /** The number the next segment gets. */
    long nextSequence() {
        return nextSequence;
    }

    boolean isEmpty() {
        return window.isEmpty();
    }

    /**
     * Appends a finished segment; returns the files nobody needs any more (segments a round out of
     * the window, init sections no remaining segment uses), for the caller to delete.
     */
    List<String> add(String file, double seconds, boolean discontinuity, String map) {
        window.addLast(new Segment(nextSequence++, file, seconds, discontinuity, map));
        if (map != null)
            version = Math.max(version, 6); // EXT-X-MAP in a media playlist (RFC 8216 §7)
        List<String> gone = new ArrayList<>();
        while (window.size() > keep) {
            Segment old = window.removeFirst();
            if (old.discontinuity()) discontinuitySequence++;
            retired.addLast(old);
        }
        while (retired.size() > overhead) {
            Segment old = retired.removeFirst();
            gone.add(old.file());
            if (old.map() != null && !uses(old.map())) gone.add(old.map());
        }
        return gone;
    }

    private boolean uses(String map) {
        for (Segment s : retired) if (map.equals(s.map())) return true;
        for (Segment s : window) if (map.equals(s.map())) return true;
        return false;
    }

    /** The files the playlist names now: its segments and their init sections. */
    List<String> files() {
        List<String> files = new ArrayList<>(window.size() + 1);
        for (Segment s : window) {
            files.add(s.file());
            if (s.map() != null && !files.contains(s.map())) files.add(s.map());
        }
        return files;
    }

    /**
     * The playlist's text; {@code ended} adds {@code #EXT-X-ENDLIST}, for a stream that is over.
     */
    String render(boolean ended) {
        StringBuilder m = new StringBuilder(256 + window.size() * 64);
        m.append("#EXTM3U\n#EXT-X-VERSION:").append(version).append('\n');
        m.append("#EXT-X-TARGETDURATION:").append(targetDuration).append('\n');
        m.append("#EXT-X-MEDIA-SEQUENCE:")
                .append(window.isEmpty() ? nextSequence : window.getFirst().sequence())
                .append('\n');
        m.append("#EXT-X-DISCONTINUITY-SEQUENCE:").append(discontinuitySequence).append('\n');
        String map = null;
        for (Segment s : window) {
            if (s.discontinuity()) m.append("#EXT-X-DISCONTINUITY\n");
            if (s.map() != null && !Objects.equals(s.map(), map))
                m.append("#EXT-X-MAP:URI=\"").append(s.map()).append("\"\n");
            map = s.map();
            m.append(String.format(Locale.ROOT, "#EXTINF:%.3f,", s.seconds()))
                    .append('\n')
                    .append(s.file())
                    .append('\n');
        }
        if (ended) m.append("#EXT-X-ENDLIST\n");
        return m.toString();
    }
}
