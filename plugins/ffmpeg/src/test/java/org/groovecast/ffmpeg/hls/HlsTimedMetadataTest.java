package org.groovecast.ffmpeg.hls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.groovecast.api.Source;
import org.groovecast.ffmpeg.encode.EncoderOperators;
import org.groovecast.testkit.OperatorCall;
import org.groovecast.testkit.TestContext;
import org.groovecast.testkit.TestSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The title and artist in output.file.hls's segments as HLS's timed metadata, read back as players
 * and tools read them: ffprobe's timed_id3 stream and the PMT's descriptors in MPEG-TS, the emsg
 * boxes before each fragment in fragmented MP4, the ID3 head of packed audio. A station plays
 * "First Song" by "Band A" from the start and "Second Song" by "Band B" from 1.5 s, in segments of
 * 1 s.
 */
class HlsTimedMetadataTest {
    private static final double CHANGE = 1.5;
    private static final int CHANGE_FRAME = 75; // 75 frames of 882 samples: 1.5 s at 44.1 kHz

    @TempDir Path dir;

    private HlsOutput output(Path into, String encoder, Map<String, Object> extra) {
        Object codec =
                OperatorCall.call(
                        OperatorCall.find(encoder, new EncoderOperators()), Map.of("bitrate", 64));
        Map<String, Object> named = new LinkedHashMap<>();
        named.put("segmentDuration", 1.0);
        named.put("segments", 10);
        named.putAll(extra);
        return (HlsOutput)
                OperatorCall.call(
                        OperatorCall.find("output.file.hls", new OutputOperators()),
                        named,
                        into.toString(),
                        Map.of("lo", codec),
                        TestSource.sine(440, 0.3));
    }

    /** Runs {@code out} for 4 s of stream, the second title coming at 1.5 s, then stops it. */
    private static void run(HlsOutput out) throws Exception {
        TestContext ctx = TestContext.standard();
        out.prepare(ctx);
        out.start();
        Source music = out.inputs().getFirst();
        music.insertMetadata(Map.of("title", "First Song", "artist", "Band A"));
        for (int i = 0; i < 200; i++) {
            if (i == CHANGE_FRAME)
                music.insertMetadata(Map.of("title", "Second Song", "artist", "Band B"));
            for (Source s : List.of(out, music)) s.beforeTick();
            out.tick();
            out.afterTick();
            ctx.tick();
        }
        out.stop();
    }

    /** A listed segment: its file and where it starts, in seconds, by the EXTINFs before it. */
    record Segment(Path file, double start, double duration) {
        /** The title playing at {@code seconds}. */
        static String titleAt(double seconds) {
            return seconds < CHANGE ? "First Song" : "Second Song";
        }

        boolean holdsTheChange() {
            return start < CHANGE && CHANGE < start + duration;
        }
    }

    private static List<Segment> segments(Path playlist) throws IOException {
        List<Segment> list = new ArrayList<>();
        Matcher m =
                Pattern.compile("#EXTINF:([0-9.]+),\n(\\S+)\n").matcher(Files.readString(playlist));
        double start = 0;
        while (m.find()) {
            double d = Double.parseDouble(m.group(1));
            list.add(new Segment(playlist.resolveSibling(m.group(2)), start, d));
            start += d;
        }
        assertEquals(4, list.size(), "4 s of segments of 1 s, the last one cut at the stop");
        return list;
    }

    // ---- MPEG-TS ----

    @Test
    void mpegTsSegmentsHaveATimedId3StreamWithTheTitleAtTheirHeadAndAtTheChange() throws Exception {
        run(output(dir, "aac", Map.of()));
        List<Segment> segments = segments(dir.resolve("lo.m3u8"));
        // The TS clock's origin: a segment's first packet is at its start (the first segment's
        // first, the encoder's priming, before it).
        Segment second = segments.get(1);
        double origin = id3Packets(second.file()).getFirst().seconds() - second.start();
        boolean sawChange = false;
        for (Segment s : segments) {
            String streams = ffprobe("-show_streams", s.file());
            assertTrue(
                    streams.contains("codec_name=timed_id3") && streams.contains("codec_type=data"),
                    s.file() + ": " + streams);
            List<Id3Packet> packets = id3Packets(s.file());
            Id3Packet head = packets.getFirst();
            assertEquals(Segment.titleAt(s.start()), head.frames().get("TIT2"), s.toString());
            assertEquals(
                    Segment.titleAt(s.start()).startsWith("First") ? "Band A" : "Band B",
                    head.frames().get("TPE1"));
            assertEquals(s.start(), head.seconds() - origin, 0.03, "at the segment's head");
            if (s.holdsTheChange()) {
                sawChange = true;
                assertEquals(2, packets.size(), s + ": " + packets);
                Id3Packet change = packets.get(1);
                assertEquals("Second Song", change.frames().get("TIT2"));
                assertEquals("Band B", change.frames().get("TPE1"));
                assertEquals(CHANGE, change.seconds() - origin, 0.001, "at the change's sample");
            } else {
                assertEquals(1, packets.size(), s + ": " + packets);
            }
        }
        assertTrue(sawChange);
        assertApplesDescriptors(Files.readAllBytes(segments.getFirst().file()));
    }

    @Test
    void withoutId3TheSegmentsHaveNoDataStream() throws Exception {
        run(output(dir, "aac", Map.of("id3", false)));
        for (Segment s : segments(dir.resolve("lo.m3u8"))) {
            String streams = ffprobe("-show_streams", s.file());
            assertFalse(streams.contains("codec_type=data"), streams);
            assertTrue(streams.contains("codec_name=aac"), streams);
        }
    }

    /** One packet of the timed_id3 stream as ffprobe shows it: its time and its tag's frames. */
    record Id3Packet(double seconds, Map<String, String> frames) {}

    private static List<Id3Packet> id3Packets(Path ts) throws IOException {
        String out = ffprobe("-select_streams d -show_packets -show_data", ts);
        List<Id3Packet> packets = new ArrayList<>();
        Pattern hex = Pattern.compile("^[0-9a-f]{8}: (.*?)  ");
        for (String packet : out.split("\\[/PACKET]")) {
            Matcher t = Pattern.compile("pts_time=([0-9.]+)").matcher(packet);
            if (!t.find()) continue;
            StringBuilder bytes = new StringBuilder();
            for (String line : packet.split("\n")) {
                Matcher h = hex.matcher(line + "  ");
                if (h.find()) bytes.append(h.group(1).replace(" ", ""));
            }
            byte[] data = HexFormat.of().parseHex(bytes);
            if (data.length > 5
                    && !new String(data, 0, 3, StandardCharsets.US_ASCII).equals("ID3")) {
                // FFmpeg 5's demuxer takes the first 5 bytes of any stream_type 0x15 PES for the
                // metadata AU cell header of ISO/IEC 13818-1 carriage (stream_id 0xFC), which
                // Apple's carriage (0xBD, the tag alone) has not: they are the tag's "ID3" and
                // version, which the raw PES shows (assertApplesDescriptors).
                byte[] whole = new byte[data.length + 5];
                System.arraycopy(new byte[] {'I', 'D', '3', 4, 0}, 0, whole, 0, 5);
                System.arraycopy(data, 0, whole, 5, data.length);
                data = whole;
            }
            packets.add(new Id3Packet(Double.parseDouble(t.group(1)), id3Frames(data)));
        }
        assertFalse(packets.isEmpty(), ts + ": no timed_id3 packet: " + out);
        return packets;
    }

    /**
     * The PMT and the ID3 PES of the first segment, byte by byte, as "Timed Metadata for HTTP Live
     * Streaming" lays them out.
     */
    private static void assertApplesDescriptors(byte[] ts) {
        int pmtPid = -1;
        int id3Pid = -1;
        boolean pointer = false;
        boolean pes = false;
        for (int p = 0; p + 188 <= ts.length; p += 188) {
            assertEquals(0x47, ts[p] & 0xff, "sync at " + p);
            boolean start = (ts[p + 1] & 0x40) != 0;
            int pid = (ts[p + 1] & 0x1f) << 8 | ts[p + 2] & 0xff;
            int payload = p + 4 + ((ts[p + 3] & 0x20) != 0 ? 1 + (ts[p + 4] & 0xff) : 0);
            if (!start) continue;
            if (pid == 0 && pmtPid < 0) {
                int s = payload + 1 + (ts[payload] & 0xff);
                pmtPid = (ts[s + 10] & 0x1f) << 8 | ts[s + 11] & 0xff;
            } else if (pid == pmtPid && !pointer) {
                int s = payload + 1 + (ts[payload] & 0xff);
                assertEquals(0x02, ts[s], "a PMT");
                int length = (ts[s + 1] & 0x0f) << 8 | ts[s + 2] & 0xff;
                assertEquals(
                        0,
                        TsMetadataPointer.crc32(ByteBuffer.wrap(ts), s, s + 3 + length),
                        "the section's CRC holds");
                int info = (ts[s + 10] & 0x0f) << 8 | ts[s + 11] & 0xff;
                int d = s + 12;
                assertEquals(0x25, ts[d], "metadata_pointer_descriptor first in the program's");
                assertEquals(15, ts[d + 1]);
                assertEquals(0xffff, (ts[d + 2] & 0xff) << 8 | ts[d + 3] & 0xff);
                assertEquals("ID3 ", new String(ts, d + 4, 4, StandardCharsets.US_ASCII));
                assertEquals(0xff, ts[d + 8] & 0xff);
                assertEquals("ID3 ", new String(ts, d + 9, 4, StandardCharsets.US_ASCII));
                assertEquals(0, ts[d + 13], "metadata_service_id");
                assertEquals(0x1f, ts[d + 14] & 0xff, "carried in this transport stream");
                assertEquals(
                        (ts[s + 3] & 0xff) << 8 | ts[s + 4] & 0xff,
                        (ts[d + 15] & 0xff) << 8 | ts[d + 16] & 0xff,
                        "program_number");
                int es = s + 12 + info;
                int end = s + 3 + length - 4;
                while (es < end) {
                    int type = ts[es] & 0xff;
                    int esPid = (ts[es + 1] & 0x1f) << 8 | ts[es + 2] & 0xff;
                    int esInfo = (ts[es + 3] & 0x0f) << 8 | ts[es + 4] & 0xff;
                    if (type == 0x15) {
                        id3Pid = esPid;
                        assertEquals(0x26, ts[es + 5], "metadata_descriptor");
                        assertEquals(
                                "ID3 ", new String(ts, es + 5 + 4, 4, StandardCharsets.US_ASCII));
                    }
                    es += 5 + esInfo;
                }
                assertTrue(id3Pid > 0, "a stream of type 0x15, metadata in PES");
                pointer = true;
            } else if (pid == id3Pid && !pes) {
                assertEquals(0, ts[payload] | ts[payload + 1]);
                assertEquals(1, ts[payload + 2]);
                assertEquals(0xbd, ts[payload + 3] & 0xff, "PES private stream 1");
                assertTrue((ts[payload + 6] & 0x04) != 0, "data_alignment_indicator");
                assertTrue((ts[payload + 7] & 0x80) != 0, "a PTS");
                int header = payload + 9 + (ts[payload + 8] & 0xff);
                assertEquals("ID3", new String(ts, header, 3, StandardCharsets.US_ASCII));
                pes = true;
            }
        }
        assertTrue(pointer && pes, "a PMT and an ID3 PES");
    }

    // ---- fragmented MP4 ----

    @Test
    void fragmentedMp4SegmentsHaveAnAomId3EmsgBeforeTheirFragment() throws Exception {
        run(output(dir, "opus", Map.of()));
        List<Segment> segments = segments(dir.resolve("lo.m3u8"));
        String playlist = Files.readString(dir.resolve("lo.m3u8"));
        Matcher map = Pattern.compile("#EXT-X-MAP:URI=\"(\\S+)\"").matcher(playlist);
        assertTrue(map.find(), playlist);
        long trackTimescale = mdhdTimescale(Files.readAllBytes(dir.resolve(map.group(1))));
        double origin = Double.NaN;
        long changeId = -1;
        for (Segment s : segments) {
            byte[] b = Files.readAllBytes(s.file());
            List<EventMessage> emsgs = new ArrayList<>();
            List<String> order = new ArrayList<>();
            double fragment = Double.NaN;
            for (int at = 0; at + 8 <= b.length; ) {
                int size = ByteBuffer.wrap(b, at, 4).getInt();
                String type = new String(b, at + 4, 4, StandardCharsets.US_ASCII);
                order.add(type);
                if (type.equals("emsg")) emsgs.add(EventMessage.read(b, at, size));
                if (type.equals("moof")) fragment = tfdt(b, at, size) / (double) trackTimescale;
                at += size;
            }
            assertEquals("moof", order.get(emsgs.size()), s + ": the emsg boxes first " + order);
            assertEquals("mdat", order.getLast(), s + ": " + order);
            if (Double.isNaN(origin)) origin = fragment - s.start();
            EventMessage head = emsgs.getFirst();
            assertEquals(Emsg.ID3_SCHEME, head.scheme());
            assertEquals("", head.value());
            assertEquals(0xffffffffL, head.duration(), "until the next title");
            assertEquals(Segment.titleAt(s.start()), head.frames().get("TIT2"), s.toString());
            assertEquals(fragment, head.seconds(), 0.03, s + ": at the fragment's start");
            if (s.holdsTheChange()) {
                assertEquals(2, emsgs.size(), s.toString());
                EventMessage change = emsgs.get(1);
                assertEquals("Second Song", change.frames().get("TIT2"));
                assertEquals("Band B", change.frames().get("TPE1"));
                assertEquals(CHANGE, change.seconds() - origin, 0.03, "at the change");
                changeId = change.id();
            } else {
                assertEquals(1, emsgs.size(), s.toString());
                if (changeId >= 0)
                    assertEquals(changeId, head.id(), "a repetition keeps its change's id");
            }
        }
        assertTrue(changeId >= 0, "a segment holds the change");
    }

    /** An emsg box of version 1 as read from a segment. */
    record EventMessage(
            String scheme,
            String value,
            long duration,
            long id,
            double seconds,
            Map<String, String> frames) {
        static EventMessage read(byte[] b, int at, int size) {
            ByteBuffer box = ByteBuffer.wrap(b, at, size);
            box.position(at + 8);
            assertEquals(1, box.get(), "version 1");
            box.position(box.position() + 3);
            long timescale = box.getInt() & 0xffffffffL;
            long time = box.getLong();
            long duration = box.getInt() & 0xffffffffL;
            long id = box.getInt() & 0xffffffffL;
            String scheme = cString(box);
            String value = cString(box);
            byte[] message = new byte[at + size - box.position()];
            box.get(message);
            return new EventMessage(
                    scheme, value, duration, id, time / (double) timescale, id3Frames(message));
        }

        private static String cString(ByteBuffer b) {
            int from = b.position();
            while (b.get() != 0) {}
            return new String(b.array(), from, b.position() - from - 1, StandardCharsets.US_ASCII);
        }
    }

    /** The media timescale of the init section's (first) track. */
    private static long mdhdTimescale(byte[] init) {
        int at = find(init, "mdhd");
        int version = init[at + 4];
        return ByteBuffer.wrap(init, at + (version == 1 ? 24 : 16), 4).getInt() & 0xffffffffL;
    }

    /** The base media decode time of the fragment's (first) track. */
    private static long tfdt(byte[] b, int moof, int size) {
        int at = find(b, "tfdt", moof, moof + size);
        return b[at + 4] == 1
                ? ByteBuffer.wrap(b, at + 8, 8).getLong()
                : ByteBuffer.wrap(b, at + 8, 4).getInt() & 0xffffffffL;
    }

    private static int find(byte[] b, String type) {
        return find(b, type, 0, b.length);
    }

    /** Where box {@code type}'s type field is, searching the bytes (boxes nest). */
    private static int find(byte[] b, String type, int from, int to) {
        byte[] t = type.getBytes(StandardCharsets.US_ASCII);
        for (int i = from; i + 4 <= to; i++) {
            if (b[i] == t[0] && b[i + 1] == t[1] && b[i + 2] == t[2] && b[i + 3] == t[3]) return i;
        }
        throw new AssertionError("no " + type);
    }

    // ---- packed audio ----

    @ParameterizedTest
    @CsvSource({"aac, aac, 0xfff0", "mp3, mp3, 0xffe0"})
    void packedAudioSegmentsBeginWithAnId3TagOfTheirTimestampAndTitle(
            String encoder, String extension, String sync) throws Exception {
        run(output(dir, encoder, Map.of("packedAudio", true)));
        List<Segment> segments = segments(dir.resolve("lo.m3u8"));
        for (Segment s : segments) {
            assertTrue(s.file().toString().endsWith("." + extension), s.toString());
            byte[] b = Files.readAllBytes(s.file());
            assertEquals("ID3", new String(b, 0, 3, StandardCharsets.US_ASCII), s.toString());
            int tagEnd = 10 + syncsafe(b, 6);
            Map<String, String> frames = id3Frames(java.util.Arrays.copyOf(b, tagEnd));
            long pts = Long.parseLong(frames.get("PRIV:" + Id3Tag.TRANSPORT_STREAM_TIMESTAMP));
            assertEquals(s.start() * 90_000, pts, 0.002 * 90_000 * (1 + segments.indexOf(s)));
            // The title playing at the segment's start; the change waits for the next head.
            assertEquals(Segment.titleAt(s.start()), frames.get("TIT2"), s.toString());
            int mask = Integer.decode(sync);
            assertEquals(
                    mask,
                    ((b[tagEnd] & 0xff) << 8 | b[tagEnd + 1] & 0xff) & mask,
                    s + ": the first frame straight after the tag");
            String text =
                    new String(
                            b,
                            tagEnd,
                            Math.min(b.length - tagEnd, 1000),
                            StandardCharsets.ISO_8859_1);
            assertFalse(text.contains("Xing") || text.contains("Info"), "no LAME header frame");
            assertFalse(
                    new String(b, tagEnd, b.length - tagEnd, StandardCharsets.ISO_8859_1)
                            .contains("ID3\u0004\u0000"),
                    "one tag, at the head");
            String format = ffprobe("-show_format -show_streams", s.file());
            assertTrue(format.contains("codec_name=" + encoder), s + ": " + format);
        }
    }

    // ---- reading ID3 ----

    /**
     * The frames of an ID3v2.4 tag: text frames by id (their UTF-8 text), PRIV frames as {@code
     * PRIV:owner} with the 8-byte number they hold.
     */
    static Map<String, String> id3Frames(byte[] tag) {
        assertEquals("ID3", new String(tag, 0, 3, StandardCharsets.US_ASCII));
        assertEquals(4, tag[3], "ID3v2.4");
        int end = 10 + syncsafe(tag, 6);
        assertEquals(tag.length, end, "the tag's size is what it holds");
        Map<String, String> frames = new LinkedHashMap<>();
        for (int at = 10; at < end; ) {
            String id = new String(tag, at, 4, StandardCharsets.US_ASCII);
            int size = syncsafe(tag, at + 4);
            int data = at + 10;
            if (id.equals("PRIV")) {
                int zero = data;
                while (tag[zero] != 0) zero++;
                String owner = new String(tag, data, zero - data, StandardCharsets.ISO_8859_1);
                frames.put(
                        "PRIV:" + owner,
                        Long.toString(ByteBuffer.wrap(tag, zero + 1, 8).getLong()));
            } else {
                assertEquals(3, tag[data], id + " in UTF-8");
                frames.put(id, new String(tag, data + 1, size - 1, StandardCharsets.UTF_8));
            }
            at = data + size;
        }
        return frames;
    }

    private static int syncsafe(byte[] b, int at) {
        return (b[at] & 0x7f) << 21
                | (b[at + 1] & 0x7f) << 14
                | (b[at + 2] & 0x7f) << 7
                | b[at + 3] & 0x7f;
    }

    private static String ffprobe(String args, Path file) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ffprobe", "-v", "error"));
        cmd.addAll(List.of(args.split(" ")));
        cmd.add(file.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0)
                throw new IOException(cmd + ": " + out);
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
