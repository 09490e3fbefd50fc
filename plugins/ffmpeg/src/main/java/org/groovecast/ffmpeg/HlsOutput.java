package org.groovecast.ffmpeg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Frame;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.VideoFormat;

/**
 * {@code output.file.hls(dir, [name: encoder, ...], s)}: one MPEG-TS rendition per encoder, each
 * with its media playlist, and a master playlist {@code stream.m3u8} naming them all.
 */
final class HlsOutput extends Output {
    private final Path dir;
    private final Map<String, Object> renditions;
    private final double segmentDuration;
    private final int segments;
    private final List<HlsVariant> variants = new ArrayList<>();
    private boolean masterWritten;
    private VideoFormat video;
    private boolean playing;

    /** @param renditions name to an {@link FfmpegEncoder} (encoded here) or an {@link EncodeSource} (copied) */
    HlsOutput(Path dir, Map<String, Object> renditions, Source source, double segmentDuration, int segments,
              boolean fallible) {
        super("output.file.hls", source, fallible);
        this.dir = dir;
        this.renditions = renditions;
        this.segmentDuration = segmentDuration;
        this.segments = segments;
    }

    @Override
    protected void prepareOutput(StreamContext context) {
        video = context.video();
        renditions.forEach((name, r) -> variants.add(r instanceof EncodeSource shared
                ? new HlsVariant(name, shared.encoding(), shared, dir, context.format(), context.video(), segmentDuration, segments)
                : new HlsVariant(name, (FfmpegEncoder) r, null, dir, context.format(), context.video(), segmentDuration, segments)));
    }

    @Override
    public String endpoint() {
        return dir.toAbsolutePath().normalize().toString();
    }

    /** A reload: renditions of the same name go on with the previous output's segment numbers. */
    @Override
    protected void adopt(Source previous) {
        HlsOutput p = (HlsOutput) previous;
        for (HlsVariant v : variants) {
            for (HlsVariant old : p.variants) {
                if (!old.name().equals(v.name())) continue;
                try {
                    v.continueFrom(old);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException("output.file.hls " + dir + ": " + e.getMessage(), e);
                }
            }
        }
    }

    @Override
    protected void open() throws IOException {
        Files.createDirectories(dir);
    }

    @Override
    protected void send(Frame frame) throws IOException {
        if (frame.position() > 0) {
            for (HlsVariant v : variants) v.encode(frame);
            if (!masterWritten && variants.stream().allMatch(HlsVariant::described)) writeMaster();
            playing = true;
        }
        if (playing && frame.position() < frame.size()) {
            for (HlsVariant v : variants) v.interrupt();
            playing = false;
        }
    }

    private void writeMaster() throws IOException {
        StringBuilder m = new StringBuilder("#EXTM3U\n#EXT-X-VERSION:3\n");
        for (HlsVariant v : variants) {
            m.append("#EXT-X-STREAM-INF:BANDWIDTH=").append(v.bandwidth())
                    .append(",CODECS=\"").append(v.codecs()).append('"')
                    .append(v.encoding().video() == null ? "" : ",RESOLUTION=" + video.width() + "x" + video.height())
                    .append('\n')
                    .append(v.name()).append(".m3u8\n");
        }
        Hls.writeAtomically(dir.resolve("stream.m3u8"), m.toString());
        masterWritten = true;
    }

    @Override
    protected void close() throws IOException {
        IOException first = null;
        if (!masterWritten && playing) writeMaster();
        for (HlsVariant v : variants) {
            try {
                v.close();
            } catch (IOException e) {
                if (first == null) first = e;
            }
        }
        if (first != null) throw first;
    }
}
