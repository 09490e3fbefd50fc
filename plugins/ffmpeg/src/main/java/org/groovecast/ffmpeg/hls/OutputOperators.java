package org.groovecast.ffmpeg.hls;

import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.FUNCTION;
import static org.groovecast.api.ValueType.INTEGER;
import static org.groovecast.api.ValueType.MAP;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.OUTPUT;
import static org.groovecast.api.ValueType.SOURCE;
import static org.groovecast.api.ValueType.STRING;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Arguments;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.ffmpeg.encode.EncodeSource;
import org.groovecast.ffmpeg.encode.FfmpegEncoder;
import org.pf4j.Extension;

/** Outputs that need FFmpeg's muxers: HLS. */
@Extension
public final class OutputOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                OperatorSpec.named("output.file.hls")
                        .doc(
                                "HLS: output.file.hls('/var/www/hls', [aac: aac(bitrate: 96), mp3: mp3()], s).")
                        .named("segmentDuration", NUMBER, 2.0, "seconds per segment")
                        .named("segments", INTEGER, 5, "segments kept in each playlist")
                        .named(
                                "segmentsOverhead",
                                INTEGER,
                                null,
                                "segments kept on disk after they left the playlist (default: as many as it lists)")
                        .named("playlist", STRING, "stream.m3u8", "the master playlist's file name")
                        .named(
                                "segmentName",
                                FUNCTION,
                                null,
                                "names each segment: { m -> \"${m.streamName}_${m.position}.${m.extname}\" }, "
                                        + "m also has duration (s) and ticks (samples)")
                        .named(
                                "tempDir",
                                STRING,
                                null,
                                "where segments are written before they are named and moved into dir")
                        .named(
                                "persistAt",
                                STRING,
                                null,
                                "a file (relative: in dir) where the playlists' state is saved at stop and "
                                        + "read back at start, so the media sequence goes on")
                        .named(
                                "fallible",
                                BOOLEAN,
                                false,
                                "accept a source that may become unavailable (gaps become discontinuities)")
                        .named(
                                "packedAudio",
                                BOOLEAN,
                                false,
                                "AAC and MP3 renditions as packed audio segments (.aac, .mp3) with an ID3 "
                                        + "head, rather than MPEG-TS")
                        .named(
                                "id3",
                                BOOLEAN,
                                true,
                                "the title and artist in every segment as timed metadata (ID3): a "
                                        + "timed_id3 stream in MPEG-TS, emsg boxes in fragmented MP4, the head "
                                        + "tag of packed audio")
                        .named(
                                "publish",
                                STRING,
                                null,
                                "an HTTP origin to PUT the segments and playlists to and DELETE expired "
                                        + "segments from, as CDNs' HLS ingest: 'http://origin/live/'")
                        .named(
                                "publishHeaders",
                                MAP,
                                Map.of(),
                                "headers for the origin's requests: [Authorization: 'Bearer ...']")
                        .positional("dir", STRING, "the directory to write")
                        .positional(
                                "renditions",
                                MAP,
                                "name to an FFmpeg encoder, or to a shared encode (ffmpeg.encode.audio) to copy")
                        .positional(
                                "source",
                                SOURCE,
                                null,
                                "the source to encode; may be left out when every rendition is a shared encode")
                        .returns(OUTPUT)
                        .create(OutputOperators::hls));
    }

    private static HlsOutput hls(Arguments a) {
        Map<String, Object> renditions = new LinkedHashMap<>();
        List<Source> inputs = new ArrayList<>();
        Source source = a.value("source") == null ? null : a.source("source");
        if (source != null) inputs.add(source);
        for (Map.Entry<?, ?> e : a.map("renditions").entrySet()) {
            String name = String.valueOf(e.getKey());
            if (!name.matches("[A-Za-z0-9_-]+")) {
                throw new ScriptException(
                        "output.file.hls(): rendition names become file names; '"
                                + name
                                + "' is not one");
            }
            if (e.getValue() instanceof EncodeSource shared) {
                if (!inputs.contains(shared)) inputs.add(shared);
            } else if (!(e.getValue() instanceof FfmpegEncoder)) {
                throw new ScriptException(
                        "output.file.hls(): rendition "
                                + name
                                + " needs an FFmpeg encoder such as aac() or a shared encode, got "
                                + e.getValue());
            } else if (source == null) {
                throw new ScriptException(
                        "output.file.hls(): rendition " + name + " encodes, so a source is needed");
            }
            renditions.put(name, e.getValue());
        }
        if (renditions.isEmpty())
            throw new ScriptException("output.file.hls() needs at least one [name: encoder]");
        double seg = a.number("segmentDuration");
        if (seg <= 0)
            throw new ScriptException(
                    "output.file.hls(): segmentDuration must be positive, got " + seg);
        Source input = inputs.size() == 1 ? inputs.getFirst() : new Gather(inputs);
        String publish = (String) a.value("publish");
        URI origin = HlsPublisher.origin(publish);
        if (publish != null && origin == null) {
            throw new ScriptException(
                    "output.file.hls(): publish must be an http:// or https:// URL of a directory "
                            + "(without ?query or #fragment), got \""
                            + publish
                            + "\"");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        a.map("publishHeaders")
                .forEach((k, v) -> headers.put(String.valueOf(k), String.valueOf(v)));
        String problem = HlsPublisher.headerProblem(headers);
        if (problem != null)
            throw new ScriptException("output.file.hls(): publishHeaders: " + problem);
        Path dir = Path.of(a.string("dir"));
        String playlist = a.string("playlist");
        if (!HlsNames.isFileName(playlist) || renditions.containsKey(stripM3u8(playlist))) {
            throw new ScriptException(
                    "output.file.hls(): playlist must be a file name in dir, other than a "
                            + "rendition's playlist, got \""
                            + playlist
                            + "\"");
        }
        Integer overhead =
                a.value("segmentsOverhead") == null ? null : a.integer("segmentsOverhead");
        if (overhead != null && overhead < 0)
            throw new ScriptException(
                    "output.file.hls(): segmentsOverhead must not be negative, got " + overhead);
        Path temp = a.value("tempDir") == null ? null : Path.of(a.string("tempDir"));
        Path persistAt = a.value("persistAt") == null ? null : dir.resolve(a.string("persistAt"));
        HlsFiles files =
                new HlsFiles(
                        playlist,
                        new HlsNames(
                                dir,
                                a.value("segmentName") == null ? null : a.function("segmentName"),
                                temp),
                        overhead,
                        persistAt);
        return new HlsOutput(
                dir,
                renditions,
                input,
                seg,
                Math.max(1, a.integer("segments")),
                a.bool("fallible"),
                origin,
                headers,
                files,
                a.bool("packedAudio"),
                a.bool("id3"));
    }

    private static String stripM3u8(String playlist) {
        return playlist.endsWith(".m3u8")
                ? playlist.substring(0, playlist.length() - ".m3u8".length())
                : playlist;
    }
}
