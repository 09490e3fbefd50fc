package org.groovecast.scripts.support

import java.nio.file.Files
import java.nio.file.NoSuchFileException
import java.nio.file.Path

/**
 * A strict RFC 8216 checker of a live media playlist: each version read is parsed strictly, and
 * each is checked against the one before it, for what a server may and may not change between
 * rewrites (§6.2.1, §6.2.2). A playlist it does not understand fails the test.
 *
 * <p>In one playlist: {@code #EXTM3U} on the first line; only tags this output writes, each where
 * RFC 8216 puts it (EXT-X-VERSION, EXT-X-TARGETDURATION, EXT-X-MEDIA-SEQUENCE and
 * EXT-X-DISCONTINUITY-SEQUENCE once each, all present, before the first segment);
 * every EXTINF a decimal followed by a URI line, which, rounded to the nearest integer, is at
 * most the target duration (§4.3.3.1); a version of at least 3 for decimal EXTINFs and 6 for
 * EXT-X-MAP (§7); EXT-X-ENDLIST at most once, last, and not at all while live; every segment and
 * init section listed is there on disk.
 *
 * <p>From one version to the next: the same version and target duration; segments only removed
 * from the front and appended at the end, each keeping its URI, duration, discontinuity and init
 * section; the media sequence grows by exactly the segments removed, the discontinuity sequence
 * by exactly the removed segments that carried EXT-X-DISCONTINUITY, so that every segment keeps
 * its discontinuity sequence number; consecutive versions overlap (the poll was fast enough).
 */
final class HlsChecker {
    static final class Segment {
        long sequence
        long discontinuitySequence
        double duration
        boolean discontinuity
        String uri
        String map

        String toString() { "#${sequence} ${uri} ${duration} s${discontinuity ? ' after a discontinuity' : ''} (dsn ${discontinuitySequence})" }
    }

    static final class MediaPlaylist {
        String text
        int version
        int targetDuration
        long mediaSequence
        long discontinuitySequence
        boolean ended
        List<Segment> segments = []
    }

    private static final Set<String> TAGS = ['#EXTM3U', '#EXT-X-VERSION', '#EXT-X-TARGETDURATION', '#EXT-X-MEDIA-SEQUENCE',
                                             '#EXT-X-DISCONTINUITY-SEQUENCE', '#EXT-X-DISCONTINUITY', '#EXT-X-MAP', '#EXTINF',
                                             '#EXT-X-ENDLIST'] as Set

    final Path dir
    /** Written by a watcher thread (HlsSpec.watch) while the spec reads it. */
    final List<MediaPlaylist> versions = new java.util.concurrent.CopyOnWriteArrayList<>()

    HlsChecker(Path dir) {
        this.dir = dir
    }

    /** Parses one version strictly; {@code live}: no EXT-X-ENDLIST allowed. */
    MediaPlaylist parse(String text, boolean live) {
        List<String> lines = text.split('\n', -1) as List
        check(lines.last() == '', text, 'a playlist ends with a line break')
        lines = lines.subList(0, lines.size() - 1)
        check(lines[0] == '#EXTM3U', text, 'the first line must be #EXTM3U')
        def p = new MediaPlaylist(text: text)
        Map<String, Integer> once = [:]
        boolean pendingDiscontinuity = false
        String map = null
        Double pendingDuration = null
        long dsn = 0
        for (int i = 1; i < lines.size(); i++) {
            String line = lines[i]
            check(!line.isEmpty() && line == line.strip(), text, "line ${i + 1} is blank or padded")
            check(!p.ended, text, 'EXT-X-ENDLIST must be the last line')
            if (pendingDuration != null) {
                check(!line.startsWith('#'), text, "line ${i + 1}: an EXTINF must be followed by its URI, got ${line}")
                p.segments << new Segment(sequence: p.mediaSequence + p.segments.size(), duration: pendingDuration,
                        discontinuity: pendingDiscontinuity, uri: line, map: map,
                        discontinuitySequence: (dsn += pendingDiscontinuity ? 1 : 0))
                pendingDuration = null
                pendingDiscontinuity = false
                continue
            }
            check(line.startsWith('#'), text, "line ${i + 1}: a URI without an EXTINF: ${line}")
            String tag = line.contains(':') ? line.substring(0, line.indexOf(':')) : line
            String value = line.contains(':') ? line.substring(line.indexOf(':') + 1) : null
            check(TAGS.contains(tag) && tag != '#EXTM3U', text, "line ${i + 1}: unexpected ${line}")
            boolean header = tag in ['#EXT-X-VERSION', '#EXT-X-TARGETDURATION', '#EXT-X-MEDIA-SEQUENCE', '#EXT-X-DISCONTINUITY-SEQUENCE']
            if (header) {
                check(p.segments.isEmpty() && !pendingDiscontinuity && map == null, text, "${tag} must come before the first segment")
                check(!once.containsKey(tag), text, "${tag} appears twice")
                check(value ==~ /\d+/, text, "${tag} must be a decimal integer, got ${value}")
                once[tag] = i
            }
            switch (tag) {
                case '#EXT-X-VERSION': p.version = value as int; break
                case '#EXT-X-TARGETDURATION': p.targetDuration = value as int; break
                case '#EXT-X-MEDIA-SEQUENCE': p.mediaSequence = value as long; break
                case '#EXT-X-DISCONTINUITY-SEQUENCE':
                    p.discontinuitySequence = value as long
                    dsn = p.discontinuitySequence
                    break
                case '#EXT-X-DISCONTINUITY':
                    check(value == null, text, 'EXT-X-DISCONTINUITY takes no value')
                    pendingDiscontinuity = true
                    break
                case '#EXT-X-MAP':
                    def m = value =~ /^URI="([^"]+)"$/
                    check(m.matches(), text, "EXT-X-MAP must be URI=\"...\", got ${value}")
                    map = m.group(1)
                    break
                case '#EXTINF':
                    def m = value =~ /^(\d+(?:\.\d+)?),(.*)$/
                    check(m.matches(), text, "EXTINF must be a decimal duration and a comma, got ${value}")
                    pendingDuration = m.group(1) as double
                    check(!m.group(1).contains('.') || once.containsKey('#EXT-X-VERSION') && p.version >= 3, text,
                            'decimal EXTINF durations need EXT-X-VERSION 3')
                    break
                case '#EXT-X-ENDLIST':
                    check(value == null, text, 'EXT-X-ENDLIST takes no value')
                    p.ended = true
                    break
            }
        }
        check(pendingDuration == null, text, 'the last EXTINF has no URI')
        ['#EXT-X-VERSION', '#EXT-X-TARGETDURATION', '#EXT-X-MEDIA-SEQUENCE', '#EXT-X-DISCONTINUITY-SEQUENCE'].each {
            check(once.containsKey(it), text, "${it} is missing")
        }
        check(!p.segments.any { it.map != null } || p.version >= 6, text, 'EXT-X-MAP in a media playlist needs EXT-X-VERSION 6')
        for (Segment s : p.segments) {
            // round half up, as RFC 8216 §4.3.3.1 means "rounded to the nearest integer"
            check(Math.floor(s.duration + 0.5) <= p.targetDuration, text, "${s} is longer than the target duration ${p.targetDuration}")
        }
        check(!live || !p.ended, text, 'EXT-X-ENDLIST while the stream is live')
        p
    }

    /** Parses a version and checks it against the previous one, and that what it lists is on disk. */
    MediaPlaylist observe(String text, boolean live = true) {
        MediaPlaylist p = parse(text, live)
        for (Segment s : p.segments) {
            check(Files.exists(dir.resolve(s.uri)), text, "${s.uri} is listed but not on disk")
            check(s.map == null || Files.exists(dir.resolve(s.map)), text, "${s.map} is listed but not on disk")
        }
        MediaPlaylist old = versions ? versions.last() : null
        if (old != null) follow(old, p)
        versions << p
        p
    }

    /** Reads the playlist file now, if it is there and changed since the last version observed. */
    boolean poll(Path playlist, boolean live = true) {
        String text
        try {
            text = Files.readString(playlist)
        } catch (NoSuchFileException ignored) {
            return false
        }
        if (versions && versions.last().text == text) return false
        observe(text, live)
        true
    }

    private static void follow(MediaPlaylist old, MediaPlaylist p) {
        String both = "--- before:\n${old.text}--- after:\n${p.text}"
        check(p.version == old.version, both, 'EXT-X-VERSION changed')
        check(p.targetDuration == old.targetDuration, both, 'EXT-X-TARGETDURATION changed')
        long removed = p.mediaSequence - old.mediaSequence
        check(removed >= 0, both, 'EXT-X-MEDIA-SEQUENCE went back')
        check(removed <= old.segments.size(), both, 'the two versions do not overlap: poll faster')
        List<Segment> gone = old.segments.subList(0, (int) removed)
        List<Segment> kept = old.segments.subList((int) removed, old.segments.size())
        check(p.discontinuitySequence - old.discontinuitySequence == gone.count { it.discontinuity }, both,
                "EXT-X-DISCONTINUITY-SEQUENCE went from ${old.discontinuitySequence} to ${p.discontinuitySequence} " +
                        "while ${gone.count { it.discontinuity }} discontinuity tags left")
        check(p.segments.size() >= kept.size(), both, 'segments were removed from the end')
        kept.eachWithIndex { Segment s, int i ->
            Segment t = p.segments[i]
            check(t.uri == s.uri && t.duration == s.duration && t.discontinuity == s.discontinuity && t.map == s.map
                    && t.sequence == s.sequence && t.discontinuitySequence == s.discontinuitySequence, both,
                    "segment ${s} became ${t}")
        }
    }

    private static void check(boolean ok, String text, String rule) {
        if (!ok) throw new AssertionError("RFC 8216: ${rule}\n${text}".toString())
    }

    /** The discontinuity sequence values seen, in order, each once. */
    List<Long> discontinuitySequences() {
        versions*.discontinuitySequence.unique()
    }

    List<Long> mediaSequences() {
        versions*.mediaSequence.unique()
    }

    /** Every segment seen in any version, by number. */
    Map<Long, Segment> segments() {
        Map<Long, Segment> all = new TreeMap<>()
        versions.each { v -> v.segments.each { all[it.sequence] = it } }
        all
    }
}
