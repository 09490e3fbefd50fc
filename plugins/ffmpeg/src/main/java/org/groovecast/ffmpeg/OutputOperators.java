package org.groovecast.ffmpeg;

import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.INTEGER;
import static org.groovecast.api.ValueType.MAP;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.OUTPUT;
import static org.groovecast.api.ValueType.SOURCE;
import static org.groovecast.api.ValueType.STRING;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Arguments;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.pf4j.Extension;

/** Outputs that need FFmpeg's muxers: HLS. */
@Extension
public final class OutputOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(OperatorSpec.named("output.file.hls")
                .doc("HLS: output.file.hls('/var/www/hls', [aac: aac(bitrate: 96), mp3: mp3()], s).")
                .named("segmentDuration", NUMBER, 2.0, "seconds per segment")
                .named("segments", INTEGER, 5, "segments kept in each playlist")
                .named("fallible", BOOLEAN, false, "accept a source that may become unavailable (gaps become discontinuities)")
                .positional("dir", STRING, "the directory to write")
                .positional("encoders", MAP, "rendition name to FFmpeg encoder")
                .positional("source", SOURCE, "the source")
                .returns(OUTPUT)
                .create(OutputOperators::hls));
    }

    private static HlsOutput hls(Arguments a) {
        Map<String, FfmpegEncoder> encoders = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : a.map("encoders").entrySet()) {
            if (!(e.getValue() instanceof FfmpegEncoder f)) {
                throw new ScriptException("output.file.hls(): rendition " + e.getKey() + " needs an FFmpeg encoder such as aac(), got "
                        + e.getValue());
            }
            String name = String.valueOf(e.getKey());
            if (!name.matches("[A-Za-z0-9_-]+")) {
                throw new ScriptException("output.file.hls(): rendition names become file names; '" + name + "' is not one");
            }
            encoders.put(name, f);
        }
        if (encoders.isEmpty()) throw new ScriptException("output.file.hls() needs at least one [name: encoder]");
        double seg = a.number("segmentDuration");
        if (seg <= 0) throw new ScriptException("output.file.hls(): segmentDuration must be positive, got " + seg);
        return new HlsOutput(Path.of(a.string("dir")), encoders, a.source("source"), seg, Math.max(1, a.integer("segments")),
                a.bool("fallible"));
    }
}
