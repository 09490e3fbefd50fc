package org.groovecast.ffmpeg.remote;

import static org.bytedeco.ffmpeg.avformat.AVFormatContext.AVFMT_EVENT_FLAG_METADATA_UPDATED;
import static org.bytedeco.ffmpeg.avformat.AVStream.AVSTREAM_EVENT_FLAG_METADATA_UPDATED;
import static org.bytedeco.ffmpeg.global.avutil.AV_OPT_SEARCH_CHILDREN;
import static org.bytedeco.ffmpeg.global.avutil.av_free;
import static org.bytedeco.ffmpeg.global.avutil.av_opt_get;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVIOContext;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.javacpp.BytePointer;
import org.groovecast.ffmpeg.decode.MediaDecoder;
import org.groovecast.ffmpeg.shared.Av;

/**
 * What a remote stream says about itself while it plays: the container's tags when the demuxer
 * flags them updated (FFmpeg's reports an ICY title that way, as {@code streamtitle}; a chained Ogg
 * stream its comments), and the ICY title that FFmpeg's HTTP protocol keeps from the last metadata
 * block ({@code icy_metadata_packet}, with {@code icy=1}) for demuxers that do not. Polled on the
 * decoding thread; the ICY packet at most every {@link #ICY_POLL_NANOS}, since asking for it copies
 * a string.
 */
final class StreamTags {
    private static final long ICY_POLL_NANOS = 250_000_000L;

    private final MediaDecoder decoder;
    // Looked up once: JavaCPP makes a new object for each look-up, and changed() runs for every
    // read.
    private final AVFormatContext format;
    private final AVStream stream;
    private String lastPacket = "";

    /** The last ICY title reported, by either way it came. */
    private String lastSong;

    private long polledAt;

    StreamTags(MediaDecoder decoder) {
        this.decoder = decoder;
        this.format = decoder.formatContext();
        this.stream = decoder.audioStream();
    }

    /**
     * The tags the stream opened with: the container's and the audio stream's, and the ICY title if
     * one came.
     */
    Map<String, String> initial() {
        Map<String, String> tags = new LinkedHashMap<>(decoder.tags());
        withSong(tags);
        Map<String, String> icy = icy(System.nanoTime() + ICY_POLL_NANOS);
        if (icy != null) tags.putAll(icy);
        return tags;
    }

    /** New metadata since the last call, or null when nothing changed. */
    Map<String, String> changed() {
        Map<String, String> out = null;
        AVFormatContext f = format;
        AVStream s = stream;
        int fe = f.event_flags();
        int se = s.event_flags();
        if ((fe & AVFMT_EVENT_FLAG_METADATA_UPDATED) != 0
                || (se & AVSTREAM_EVENT_FLAG_METADATA_UPDATED) != 0) {
            f.event_flags(fe & ~AVFMT_EVENT_FLAG_METADATA_UPDATED);
            s.event_flags(se & ~AVSTREAM_EVENT_FLAG_METADATA_UPDATED);
            out = new LinkedHashMap<>();
            Av.copy(s.metadata(), out);
            Av.copy(f.metadata(), out);
            withSong(out);
            if (out.isEmpty()) out = null;
        }
        Map<String, String> icy = icy(System.nanoTime());
        if (icy != null) {
            if (out == null) out = new LinkedHashMap<>();
            out.putAll(icy);
        }
        return out == null || out.isEmpty() ? null : out;
    }

    /**
     * FFmpeg's demuxer reports an ICY title itself, as the tag {@code streamtitle}, when it flags
     * the tags updated: split it like the packet's, and remember it, so that the packet brings it
     * only once.
     */
    private void withSong(Map<String, String> tags) {
        String song = tags.get("streamtitle");
        if (song == null || song.equals(lastSong)) return;
        lastSong = song;
        tags.putAll(split(song));
    }

    /**
     * The ICY title if it changed since the last look, as {@code title} (and {@code artist}); else
     * null.
     */
    private Map<String, String> icy(long now) {
        if (now - polledAt < ICY_POLL_NANOS) return null;
        polledAt = now;
        AVIOContext pb = format.pb();
        if (pb == null || pb.isNull()) return null;
        BytePointer value = new BytePointer((org.bytedeco.javacpp.Pointer) null);
        try {
            if (av_opt_get(pb, "icy_metadata_packet", AV_OPT_SEARCH_CHILDREN, value) < 0
                    || value.isNull()) return null;
            byte[] raw = value.getStringBytes();
            String packet = text(raw);
            if (packet.isEmpty() || packet.equals(lastPacket)) return null;
            lastPacket = packet;
            String song = song(packet);
            if (song == null || song.equals(lastSong)) return null;
            lastSong = song;
            Map<String, String> m = split(song);
            return m.isEmpty() ? null : m;
        } finally {
            if (!value.isNull()) av_free(value);
            value.close();
        }
    }

    /**
     * The StreamTitle of an ICY metadata block (it may hold apostrophes: only {@code ';} ends it),
     * or null.
     */
    static String song(String packet) {
        String key = "StreamTitle='";
        int start = packet.indexOf(key);
        if (start < 0) return null;
        start += key.length();
        int end = packet.indexOf("';", start);
        if (end < 0) end = packet.lastIndexOf('\'');
        if (end < start) end = packet.length();
        return packet.substring(start, end).trim();
    }

    /**
     * Split at the first " - " (without one, the whole is the title); nothing for an empty title.
     */
    static Map<String, String> split(String song) {
        Map<String, String> m = new LinkedHashMap<>();
        String t = song.trim();
        if (t.isEmpty()) return m;
        int dash = t.indexOf(" - ");
        if (dash > 0) {
            m.put("artist", t.substring(0, dash).trim());
            m.put("title", t.substring(dash + 3).trim());
        } else {
            m.put("title", t);
        }
        return m;
    }

    /** Servers send titles in UTF-8 mostly, older ones in Latin-1: UTF-8 when it is valid. */
    private static String text(byte[] raw) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(raw))
                    .toString();
        } catch (CharacterCodingException e) {
            return new String(raw, StandardCharsets.ISO_8859_1);
        }
    }
}
