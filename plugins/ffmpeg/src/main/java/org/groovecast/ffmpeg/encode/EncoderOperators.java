package org.groovecast.ffmpeg.encode;

import static org.groovecast.api.ValueType.ENCODER;
import static org.groovecast.api.ValueType.INTEGER;
import static org.groovecast.api.ValueType.MAP;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.SOURCE;
import static org.groovecast.api.ValueType.STRING;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Arguments;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.pf4j.Extension;
import org.slf4j.LoggerFactory;

/** FFmpeg encoders: {@code ffmpeg(...)} with any option passed through, and the usual sugar. */
@Extension
public final class EncoderOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                OperatorSpec.named("ffmpeg")
                        .doc(
                                "Any FFmpeg muxer, audio codec and optional video codec: ffmpeg(format: 'mpegts', "
                                        + "audio: [codec: 'aac', b: '128k'], video: [codec: 'libx264', preset: 'ultrafast', g: 50]).")
                        .requiredNamed(
                                "format",
                                STRING,
                                "the muxer: mp3, adts, ogg, flac, mpegts, matroska...")
                        .requiredNamed(
                                "audio",
                                MAP,
                                "codec: and any codec option (b:, compression_level:...); threads: (0 = auto)")
                        .named(
                                "video",
                                MAP,
                                null,
                                "codec: and any video codec option; threads: (0 = auto). "
                                        + "Pictures come from the source; black until it has some")
                        .named("options", MAP, Map.of(), "muxer options")
                        .returns(ENCODER)
                        .create(EncoderOperators::ffmpeg),
                sugar("mp3", "MP3 through LAME.", "mp3", "libmp3lame", 128),
                sugar("aac", "AAC (FFmpeg's encoder) in ADTS.", "adts", "aac", 96),
                sugar("opus", "Opus in Ogg (48 kHz).", "ogg", "libopus", 64),
                OperatorSpec.named("vorbis")
                        .doc(
                                "Vorbis in Ogg: libvorbis (the system's libvorbisenc) at quality: (-0.1 to 1.0) "
                                        + "or, with bitrate:, at that nominal rate; FFmpeg's experimental native "
                                        + "encoder, with one warning, where libvorbisenc is not installed.")
                        .named(
                                "quality",
                                NUMBER,
                                0.3,
                                "VBR quality, -0.1 to 1.0 (0.3: about 112 kbit/s)")
                        .named(
                                "bitrate",
                                INTEGER,
                                0,
                                "kbit/s, nominal (managed); 0: quality: decides")
                        .returns(ENCODER)
                        .create(EncoderOperators::vorbis),
                OperatorSpec.named("copy")
                        .doc(
                                "Muxes the packets of a shared encode (ffmpeg.encode.audio) without encoding again.")
                        .named(
                                "format",
                                STRING,
                                null,
                                "the container; by default the codec's usual one (adts for aac, mp3...)")
                        .returns(ENCODER)
                        .create(a -> new CopyEncoder(a.string("format"))),
                OperatorSpec.named("ffmpeg.encode.audio")
                        .doc(
                                "Encodes once; outputs then mux the packets with copy(): output.file(copy(), 'a.aac', e).")
                        .positional(
                                "encoder", ENCODER, "an FFmpeg encoder such as aac(bitrate: 48)")
                        .positional("source", SOURCE, "the source to encode")
                        .create(
                                a -> {
                                    if (!(a.encoder("encoder") instanceof FfmpegEncoder f)) {
                                        throw new ScriptException(
                                                "ffmpeg.encode.audio() needs an FFmpeg encoder such as aac(), got "
                                                        + a.encoder("encoder").name()
                                                        + "()");
                                    }
                                    return new EncodeSource(f, a.source("source"));
                                }),
                OperatorSpec.named("flac")
                        .doc("Lossless FLAC.")
                        .named("compression", INTEGER, 5, "compression level, 0 to 12")
                        .returns(ENCODER)
                        .create(
                                a ->
                                        encoder(
                                                "flac",
                                                "flac",
                                                "flac",
                                                Map.of(
                                                        "compression_level",
                                                        String.valueOf(a.integer("compression"))),
                                                0)));
    }

    private static OperatorSpec sugar(
            String name, String doc, String format, String codec, int bitrate) {
        return OperatorSpec.named(name)
                .doc(doc)
                .named("bitrate", INTEGER, bitrate, "kbit/s")
                .named("threads", INTEGER, 0, "encoder threads; 0 lets FFmpeg decide")
                .returns(ENCODER)
                .create(
                        a ->
                                encoder(
                                        name,
                                        format,
                                        codec,
                                        Map.of("b", a.integer("bitrate") + "k"),
                                        a.integer("threads")));
    }

    private static FfmpegEncoder ffmpeg(Arguments a) {
        Map<String, String> audio = strings(a.map("audio"));
        String codec = audio.remove("codec");
        if (codec == null)
            throw new ScriptException(
                    "ffmpeg(): audio: needs a codec:, e.g. audio: [codec: 'aac']");
        if (FdkAacFallback.needed(codec) && FdkAac.system() == null) {
            FdkAacFallback.Substitute lc = FdkAacFallback.substitute(audio);
            codec = lc.codec();
            audio = new LinkedHashMap<>(lc.options());
            LoggerFactory.getLogger(EncoderOperators.class).warn("ffmpeg(): {}", lc.warning());
        }
        int threads = threads(audio.remove("threads"));
        FfmpegEncoder.Codec video = null;
        if (a.value("video") != null) {
            Map<String, String> v = strings(a.map("video"));
            String name = v.remove("codec");
            if (name == null)
                throw new ScriptException(
                        "ffmpeg(): video: needs a codec:, e.g. video: [codec: 'libx264']");
            video = new FfmpegEncoder.Codec(name, v, threads(v.remove("threads")));
        }
        return validated(
                "ffmpeg",
                new FfmpegEncoder(
                        "ffmpeg",
                        a.string("format"),
                        codec,
                        audio,
                        strings(a.map("options")),
                        threads,
                        video));
    }

    /** {@code vorbis(quality:, bitrate:)} as libvorbis's options (FFmpeg's names and scales). */
    private static FfmpegEncoder vorbis(Arguments a) {
        int kbps = a.integer("bitrate");
        double quality = a.number("quality");
        if (kbps < 0 || kbps > 500)
            throw new ScriptException("vorbis(): bitrate: from 8 to 500 kbit/s, or 0, not " + kbps);
        if (!(quality >= -0.1 && quality <= 1.0))
            throw new ScriptException("vorbis(): quality: from -0.1 to 1.0, not " + quality);
        if (kbps > 0 && a.given("quality"))
            throw new ScriptException("vorbis(): give quality: or bitrate:, not both");
        Map<String, String> options =
                kbps > 0
                        ? Map.of("b", kbps + "k")
                        : Map.of("q", String.valueOf((float) (quality * 10)));
        return encoder("vorbis", "ogg", VorbisAudioEncoder.CODEC, options, 0);
    }

    private static int threads(String t) {
        if (t == null) return 0;
        try {
            return Integer.parseInt(t);
        } catch (NumberFormatException e) {
            throw new ScriptException("ffmpeg(): threads must be a whole number, got " + t);
        }
    }

    private static FfmpegEncoder encoder(
            String name, String format, String codec, Map<String, String> options, int threads) {
        return validated(name, new FfmpegEncoder(name, format, codec, options, Map.of(), threads));
    }

    private static FfmpegEncoder validated(String name, FfmpegEncoder e) {
        try {
            return e.validate();
        } catch (IllegalArgumentException bad) {
            throw new ScriptException(name + "(): " + bad.getMessage());
        }
    }

    private static Map<String, String> strings(Map<?, ?> m) {
        Map<String, String> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
        return out;
    }
}
