package org.groovecast.ffmpeg.hls;

import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_AAC;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_AC3;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_ALAC;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_EAC3;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_FLAC;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_MP2;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_MP3;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_NONE;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_OPUS;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_VORBIS;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PROFILE_AAC_HE;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PROFILE_AAC_HE_V2;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PROFILE_AAC_LTP;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PROFILE_AAC_MAIN;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_find_encoder_by_name;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.javacpp.BytePointer;

/** HLS file conventions shared by the output and its variants. */
final class Hls {
    private Hls() {}

    /**
     * Writes {@code text} to a temporary file beside {@code target}, then renames it over: readers
     * never see half a playlist, and one that cannot be written (a full disk) leaves the last one
     * whole.
     */
    static void writeAtomically(Path target, String text) throws IOException {
        Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp");
        try {
            Files.writeString(tmp, text);
            Files.move(
                    tmp,
                    target,
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    /**
     * The playlist's target duration for segments of {@code segmentDuration} seconds: the whole
     * number of seconds at or above it. A segment runs over its grid by at most a packet (or a
     * video picture), far less than the half second the RFC 8216 §4.3.3.1 rounding leaves.
     */
    static int targetDuration(double segmentDuration) {
        return (int) Math.max(1, Math.ceil(segmentDuration - 1e-9));
    }

    /**
     * The codec an encoder name makes: FFmpeg's, or for the encoders the system's libraries serve
     * (which the bundled FFmpeg lacks: {@code libvorbis}, {@code libfdk_aac}) the codec they make;
     * {@code AV_CODEC_ID_NONE} for an unknown name.
     */
    static int codecId(String encoderName) {
        switch (encoderName) {
            case "libvorbis" -> {
                return AV_CODEC_ID_VORBIS;
            }
            case "libfdk_aac" -> {
                return AV_CODEC_ID_AAC;
            }
            default -> {
                AVCodec codec = avcodec_find_encoder_by_name(encoderName);
                return codec == null || codec.isNull() ? AV_CODEC_ID_NONE : codec.id();
            }
        }
    }

    /**
     * Whether a codec's segments are fragmented MP4 (with an init section) rather than MPEG-TS,
     * which carries AAC, MP3, MP2, AC-3 and E-AC-3 (RFC 8216 §3.2) and not FLAC, Vorbis or, in what
     * players read, Opus.
     */
    static boolean fragmented(int audioCodecId) {
        return audioCodecId != AV_CODEC_ID_AAC
                && audioCodecId != AV_CODEC_ID_MP3
                && audioCodecId != AV_CODEC_ID_MP2
                && audioCodecId != AV_CODEC_ID_AC3
                && audioCodecId != AV_CODEC_ID_EAC3;
    }

    /**
     * Whether a codec's frames can be segments of their own, packed audio (RFC 8216 §3.4): AAC in
     * ADTS and MP3 (AC-3 and E-AC-3 could, but stay MPEG-TS here).
     */
    static boolean packable(int audioCodecId) {
        return audioCodecId == AV_CODEC_ID_AAC || audioCodecId == AV_CODEC_ID_MP3;
    }

    /**
     * The RFC 6381 string of an H.264 stream ({@code avc1.42c01f} for constrained baseline 3.1),
     * read from the sequence parameter set in an Annex B keyframe; null if there is none.
     */
    static String avc(BytePointer data, int size) {
        for (int i = 0; i + 6 < size; i++) {
            if (data.get(i) == 0
                    && data.get(i + 1) == 0
                    && data.get(i + 2) == 1
                    && (data.get(i + 3) & 0x1f) == 7) {
                return String.format(
                        "avc1.%02x%02x%02x",
                        data.get(i + 4) & 0xff, data.get(i + 5) & 0xff, data.get(i + 6) & 0xff);
            }
        }
        return null;
    }

    /**
     * The CODECS string of an audio codec for the master playlist, as Apple's HLS authoring
     * specification lists them (MP3 as {@code mp4a.40.34}, not RFC 6381's {@code mp4a.6B}); null
     * for a codec without one, whose variant then states no CODECS rather than a wrong one. Vorbis
     * has no registered MP4 name: {@code vorbis}, the name browsers know it by, is given.
     */
    static String audioCodecs(int codecId, int profile) {
        if (codecId == AV_CODEC_ID_AAC) {
            if (profile == AV_PROFILE_AAC_HE) return "mp4a.40.5";
            if (profile == AV_PROFILE_AAC_HE_V2) return "mp4a.40.29";
            if (profile == AV_PROFILE_AAC_MAIN) return "mp4a.40.1";
            if (profile == AV_PROFILE_AAC_LTP) return "mp4a.40.4";
            return "mp4a.40.2"; // LC, also when the encoder states no profile
        }
        if (codecId == AV_CODEC_ID_MP3) return "mp4a.40.34";
        if (codecId == AV_CODEC_ID_MP2) return "mp4a.40.33";
        if (codecId == AV_CODEC_ID_AC3) return "ac-3";
        if (codecId == AV_CODEC_ID_EAC3) return "ec-3";
        if (codecId == AV_CODEC_ID_OPUS) return "Opus";
        if (codecId == AV_CODEC_ID_FLAC) return "fLaC";
        if (codecId == AV_CODEC_ID_ALAC) return "alac";
        if (codecId == AV_CODEC_ID_VORBIS) return "vorbis";
        return null;
    }
}
