package org.groovecast.ffmpeg.encode;

import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_open2;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_receive_packet;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EAGAIN;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EOF;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_free;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_set;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.groovecast.ffmpeg.shared.Av;

/** What the audio and video encoders do alike: open with the script's options, hand out packets. */
final class Codecs {
    private Codecs() {}

    /**
     * Opens {@code codec} with every script option; an option the codec did not take is an {@link
     * IllegalArgumentException} naming it, so a misspelling is a script error, not ignored.
     */
    static void open(
            AVCodecContext codec, AVCodec enc, Map<String, String> options, String codecName)
            throws IOException {
        AVDictionary dict = new AVDictionary(null);
        try {
            for (Map.Entry<String, String> o : options.entrySet())
                av_dict_set(dict, o.getKey(), o.getValue(), 0);
            Av.check(avcodec_open2(codec, enc, dict), "cannot open encoder " + codecName);
            List<String> unknown = Av.keys(dict);
            if (!unknown.isEmpty()) {
                throw new IllegalArgumentException(
                        "unknown option"
                                + (unknown.size() > 1 ? "s " : " ")
                                + String.join(", ", unknown)
                                + " for codec "
                                + codecName);
            }
        } finally {
            av_dict_free(dict);
        }
    }

    /**
     * Passes every packet the codec has ready to {@code sink}, each valid only during the call.
     * {@code timeBase} is the codec's, taken once when it opened: JavaCPP makes a new wrapper at
     * each {@code codec.time_base()}, and this runs for every packet.
     */
    static void drain(
            AVCodecContext codec,
            AVRational timeBase,
            AVPacket packet,
            AudioEncoder.PacketSink sink)
            throws IOException {
        while (true) {
            int r = avcodec_receive_packet(codec, packet);
            if (r == AVERROR_EAGAIN() || r == AVERROR_EOF) return;
            Av.check(r, "encoding failed");
            try {
                sink.accept(packet, timeBase);
            } finally {
                av_packet_unref(packet);
            }
        }
    }
}
