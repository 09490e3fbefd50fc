package org.groovecast.ffmpeg.decode;

import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_move_ref;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_alloc_context3;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_find_decoder;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_flush_buffers;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_free_context;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_open2;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_parameters_to_context;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_receive_frame;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_send_packet;
import static org.bytedeco.ffmpeg.global.avformat.AVSEEK_FLAG_BACKWARD;
import static org.bytedeco.ffmpeg.global.avformat.AV_DISPOSITION_ATTACHED_PIC;
import static org.bytedeco.ffmpeg.global.avformat.av_find_best_stream;
import static org.bytedeco.ffmpeg.global.avformat.av_read_frame;
import static org.bytedeco.ffmpeg.global.avformat.av_seek_frame;
import static org.bytedeco.ffmpeg.global.avformat.avformat_alloc_context;
import static org.bytedeco.ffmpeg.global.avformat.avformat_close_input;
import static org.bytedeco.ffmpeg.global.avformat.avformat_find_stream_info;
import static org.bytedeco.ffmpeg.global.avformat.avformat_open_input;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EAGAIN;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EOF;
import static org.bytedeco.ffmpeg.global.avutil.AVMEDIA_TYPE_AUDIO;
import static org.bytedeco.ffmpeg.global.avutil.AVMEDIA_TYPE_VIDEO;
import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.bytedeco.ffmpeg.global.avutil.AV_SAMPLE_FMT_FLTP;
import static org.bytedeco.ffmpeg.global.avutil.AV_TIME_BASE;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_default;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_uninit;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_free;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_set;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_free;
import static org.bytedeco.ffmpeg.global.swresample.swr_alloc_set_opts2;
import static org.bytedeco.ffmpeg.global.swresample.swr_convert;
import static org.bytedeco.ffmpeg.global.swresample.swr_free;
import static org.bytedeco.ffmpeg.global.swresample.swr_init;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVInputFormat;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVChannelLayout;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.swresample.SwrContext;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.PointerPointer;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.VideoFormat;
import org.groovecast.ffmpeg.shared.Av;
import org.groovecast.ffmpeg.shared.Interrupter;

/**
 * One open media file: its audio demuxed, decoded and resampled to the clock's format (planar
 * float), and its video, if it has some, handed to a {@link VideoDecoder}. Opening probes the file
 * and may block, so it happens on the blocking pool; reading is a few decode calls per frame. The
 * demuxer reads ahead of the audio (keeping its packets) until the pictures due are decoded, since
 * a threaded video decoder returns pictures some frames after their packets. Every native object is
 * freed by {@link #close()}, never by GC.
 */
public final class MediaDecoder implements AutoCloseable {
    /**
     * Audio packets kept while reading ahead for video; a file interleaved worse than this loses
     * sync, not memory.
     */
    private static final int MAX_QUEUED = 1024;

    private final String path;
    private final AudioFormat target;
    private AVFormatContext format;
    private AVCodecContext codec;
    private SwrContext swr;
    private AVPacket packet;
    private AVFrame decoded;
    private PointerPointer<FloatPointer> outPlanes;
    private FloatPointer[] planes;
    private int planeCapacity;
    private final int streamIndex;
    private final Map<String, String> tags = new LinkedHashMap<>();
    private final double duration;
    // Resampled samples not yet handed to a frame: [pendingStart, pendingEnd) of each plane.
    private float[][] pending;
    private int pendingStart;
    private int pendingEnd;
    private boolean inputDone;
    private boolean demuxDone;
    private boolean aligned;
    private int audioTbNum;
    private int audioTbDen;
    private VideoDecoder video;
    private int videoIndex = -1;

    /** Audio packets read while looking for pictures, in order, and empty packets to reuse. */
    private final ArrayDeque<AVPacket> queued = new ArrayDeque<>();

    private final ArrayDeque<AVPacket> spare = new ArrayDeque<>();
    private boolean drained;
    private long position;
    private final StreamIo live;

    /**
     * The demuxer options the open left unused (misspelt, or for another protocol); empty for
     * files.
     */
    private List<String> unusedOptions = List.of();

    private MediaDecoder(
            String path, AudioFormat target, VideoFormat videoFormat, int scalingThreads)
            throws IOException {
        this(path, null, null, Map.of(), null, target, videoFormat, scalingThreads);
    }

    /**
     * @param live a format context already reading through custom I/O (a live stream), or null to
     *     open {@code path}
     * @param hint the container when known (live streams), or null to probe
     * @param options demuxer and protocol options for {@code avformat_open_input} ({@code icy:
     *     '1'})
     * @param interrupter what bounds the blocking calls on a network stream, or null
     */
    private MediaDecoder(
            String path,
            StreamIo live,
            AVInputFormat hint,
            Map<String, String> options,
            Interrupter interrupter,
            AudioFormat target,
            VideoFormat videoFormat,
            int scalingThreads)
            throws IOException {
        Av.init();
        this.path = path;
        this.target = target;
        this.live = live;
        boolean ok = false;
        AVDictionary dict = new AVDictionary(null);
        try {
            format = live != null ? live.context() : avformat_alloc_context();
            if (interrupter != null) interrupter.attach(format);
            for (Map.Entry<String, String> o : options.entrySet())
                av_dict_set(dict, o.getKey(), o.getValue(), 0);
            Av.check(
                    avformat_open_input(format, live != null ? "" : path, hint, dict),
                    "cannot open");
            if (!options.isEmpty()) unusedOptions = Av.keys(dict);
            Av.check(
                    avformat_find_stream_info(format, (PointerPointer<?>) null),
                    "cannot read stream info");
            streamIndex =
                    Av.check(
                            av_find_best_stream(
                                    format, AVMEDIA_TYPE_AUDIO, -1, -1, (AVCodec) null, 0),
                            "no audio stream");
            AVStream stream = format.streams(streamIndex);
            AVCodec decoder = avcodec_find_decoder(stream.codecpar().codec_id());
            if (decoder == null || decoder.isNull())
                throw new IOException("no decoder for its audio codec");
            codec = avcodec_alloc_context3(decoder);
            Av.check(
                    avcodec_parameters_to_context(codec, stream.codecpar()),
                    "bad codec parameters");
            codec.pkt_timebase(stream.time_base());
            audioTbNum = stream.time_base().num();
            audioTbDen = stream.time_base().den();
            codec.thread_count(0);
            Av.check(avcodec_open2(codec, decoder, (AVDictionary) null), "cannot open decoder");
            Av.copy(format.metadata(), tags);
            Av.copy(stream.metadata(), tags);
            long d = format.duration();
            duration = d == AV_NOPTS_VALUE || d <= 0 ? -1 : (double) d / AV_TIME_BASE;
            openResampler();
            if (videoFormat != null) openVideo(videoFormat, scalingThreads);
            packet = av_packet_alloc();
            decoded = av_frame_alloc();
            pending = new float[target.channels()][0];
            ok = true;
        } finally {
            av_dict_free(dict);
            if (!ok) close();
        }
    }

    /**
     * Opens a live stream read through {@code io}, its video scaled to {@code video} (null: audio
     * only); blocking until enough of it arrived to probe.
     */
    static MediaDecoder open(
            String name,
            StreamIo io,
            AVInputFormat hint,
            AudioFormat target,
            VideoFormat video,
            int scalingThreads)
            throws IOException {
        return new MediaDecoder(name, io, hint, Map.of(), null, target, video, scalingThreads);
    }

    /**
     * Opens a URL (any FFmpeg reads: http, https, hls, srt, rtmp, a file) with {@code options},
     * every blocking call bounded by {@code interrupter}; blocking until probed.
     */
    public static MediaDecoder openUrl(
            String url,
            AVInputFormat format,
            Map<String, String> options,
            Interrupter interrupter,
            AudioFormat target)
            throws IOException {
        return new MediaDecoder(url, null, format, options, interrupter, target, null, 1);
    }

    /** The options given to {@link #openUrl} that no demuxer or protocol took. */
    public List<String> unusedOptions() {
        return unusedOptions;
    }

    /**
     * The demuxer, for what a stream says as it plays (ICY titles, updated tags); on the decoding
     * thread only.
     */
    public AVFormatContext formatContext() {
        return format;
    }

    /** The audio stream being decoded. */
    public AVStream audioStream() {
        return format.streams(streamIndex);
    }

    /** Opens and probes {@code path} for its audio only; blocking. */
    public static MediaDecoder open(String path, AudioFormat target) throws IOException {
        return new MediaDecoder(path, target, null, 1);
    }

    /**
     * Opens and probes {@code path}, with its video scaled to {@code video} if it has a video
     * stream; blocking.
     */
    public static MediaDecoder open(
            String path, AudioFormat target, VideoFormat video, int scalingThreads)
            throws IOException {
        return new MediaDecoder(path, target, video, scalingThreads);
    }

    private void openVideo(VideoFormat videoFormat, int scalingThreads) throws IOException {
        int index =
                av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, streamIndex, (AVCodec) null, 0);
        if (index < 0) return;
        AVStream stream = format.streams(index);
        // Cover art in an mp3 or m4a is a one-picture "video" stream: not a video to play.
        if ((stream.disposition() & AV_DISPOSITION_ATTACHED_PIC) != 0) return;
        video = new VideoDecoder(stream, format.start_time(), videoFormat, target, scalingThreads);
        videoIndex = index;
    }

    /** Whether the file has a video stream being decoded. */
    boolean hasVideo() {
        return video != null;
    }

    private void openResampler() throws IOException {
        AVChannelLayout out = new AVChannelLayout();
        try {
            av_channel_layout_default(out, target.channels());
            SwrContext s = new SwrContext(null);
            Av.check(
                    swr_alloc_set_opts2(
                            s,
                            out,
                            AV_SAMPLE_FMT_FLTP,
                            target.sampleRate(),
                            codec.ch_layout(),
                            codec.sample_fmt(),
                            codec.sample_rate(),
                            0,
                            null),
                    "cannot set up resampling");
            swr = s;
            Av.check(swr_init(swr), "cannot start resampling");
        } finally {
            av_channel_layout_uninit(out);
            out.close();
        }
    }

    String path() {
        return path;
    }

    /** The file's tags (title, artist, album...), keys lower-cased. */
    public Map<String, String> tags() {
        return tags;
    }

    /** Duration in seconds, or -1 when the container does not say. */
    public double duration() {
        return duration;
    }

    /** Samples (per channel, at the target rate) delivered so far. */
    public long position() {
        return position;
    }

    /** Moves to {@code seconds} from the start (cue in); decoding resumes near there. */
    public void seek(double seconds) throws IOException {
        long ts = (long) (seconds * AV_TIME_BASE);
        Av.check(av_seek_frame(format, -1, ts, AVSEEK_FLAG_BACKWARD), "cannot seek");
        avcodec_flush_buffers(codec);
        if (video != null) video.flush();
        while (!queued.isEmpty()) recycle(queued.pollFirst());
        pendingStart = pendingEnd = 0;
        position = target.samples(seconds);
    }

    /**
     * Writes up to {@code max} samples into {@code frame} at its position and advances it, with the
     * pictures due in that stretch; returns how many samples. 0 means the file is over (or broken
     * past recovery): the track ends. {@code tick} is the clock's current tick: pictures handed out
     * in earlier ticks are reused.
     */
    public int read(Frame frame, int max, long tick) throws IOException {
        int at = frame.position();
        long from = position;
        int written = readAudio(frame, max);
        if (video != null) {
            readAhead(position);
            video.emit(frame, at, from, written, tick);
        }
        return written;
    }

    private int readAudio(Frame frame, int max) throws IOException {
        int want = Math.min(max, frame.free());
        int written = 0;
        while (written < want) {
            if (pendingStart == pendingEnd && !refill()) break;
            int n = Math.min(want - written, pendingEnd - pendingStart);
            int at = frame.position() + written;
            for (int c = 0; c < pending.length; c++)
                System.arraycopy(pending[c], pendingStart, frame.channel(c), at, n);
            pendingStart += n;
            written += n;
            position += n;
        }
        frame.advance(written);
        return written;
    }

    /** Decodes and resamples the next chunk into {@code pending}; false at the end. */
    private boolean refill() throws IOException {
        while (!drained) {
            int r = avcodec_receive_frame(codec, decoded);
            if (r >= 0) {
                if (!aligned
                        && video != null
                        && decoded.best_effort_timestamp() != AV_NOPTS_VALUE) {
                    aligned = true;
                    video.alignAudio(
                            decoded.best_effort_timestamp(), audioTbNum, audioTbDen, position);
                }
                convert(decoded.extended_data(), decoded.nb_samples());
                if (pendingEnd > 0) return true;
                continue;
            }
            if (r == AVERROR_EOF) {
                drained = true;
                convert(null, 0); // what the resampler still holds
                return pendingEnd > 0;
            }
            if (r != AVERROR_EAGAIN()) throw new IOException("decoding failed: " + Av.error(r));
            feed();
        }
        return false;
    }

    /**
     * Sends the next audio packet, or the end of input, to the decoder; decodes video packets met
     * on the way.
     */
    private void feed() throws IOException {
        while (!inputDone) {
            AVPacket q = queued.pollFirst();
            if (q != null) {
                avcodec_send_packet(codec, q);
                recycle(q);
                return;
            }
            if (demuxDone) {
                inputDone = true;
                avcodec_send_packet(codec, null);
                return;
            }
            if (!demux()) continue;
            try {
                // A damaged packet is refused and skipped, as players do; the next one may decode.
                avcodec_send_packet(codec, packet);
                return;
            } finally {
                av_packet_unref(packet);
            }
        }
    }

    /**
     * Reads one packet: video goes to the video decoder, audio stays in {@code packet} (returns
     * true). At the end of the file the video decoder is drained and {@code demuxDone} set.
     */
    private boolean demux() throws IOException {
        int r = av_read_frame(format, packet);
        if (r < 0) {
            demuxDone = true;
            if (video != null) video.drain();
            if (r != AVERROR_EOF) throw new IOException("read failed: " + Av.error(r));
            return false;
        }
        if (packet.stream_index() == streamIndex) return true;
        try {
            if (packet.stream_index() == videoIndex) video.decode(packet);
        } finally {
            av_packet_unref(packet);
        }
        return false;
    }

    /**
     * Demuxes ahead, keeping audio packets, until the pictures due before {@code until} are
     * decoded.
     */
    private void readAhead(long until) throws IOException {
        while (!demuxDone
                && !video.ended()
                && video.latest() < until
                && queued.size() < MAX_QUEUED) {
            if (!demux()) continue;
            AVPacket q = spare.isEmpty() ? av_packet_alloc() : spare.pollFirst();
            av_packet_move_ref(q, packet);
            queued.addLast(q);
        }
    }

    private void recycle(AVPacket p) {
        av_packet_unref(p);
        spare.addLast(p);
    }

    private void convert(PointerPointer<?> in, int inSamples) throws IOException {
        int capacity =
                (int) ((long) inSamples * target.sampleRate() / Math.max(1, codec.sample_rate()))
                        + 256;
        ensurePlanes(capacity);
        int got =
                Av.check(swr_convert(swr, outPlanes, capacity, in, inSamples), "resampling failed");
        if (pending[0].length < got) pending = new float[pending.length][Math.max(got, 4096)];
        for (int c = 0; c < pending.length; c++) planes[c].get(pending[c], 0, got);
        pendingStart = 0;
        pendingEnd = got;
    }

    private void ensurePlanes(int capacity) {
        if (planeCapacity >= capacity) return;
        freePlanes();
        int channels = target.channels();
        planes = new FloatPointer[channels];
        outPlanes = new PointerPointer<>(channels);
        for (int c = 0; c < channels; c++) {
            planes[c] = new FloatPointer(capacity);
            outPlanes.put(c, planes[c]);
        }
        planeCapacity = capacity;
    }

    private void freePlanes() {
        if (planes != null) for (FloatPointer p : planes) p.close();
        if (outPlanes != null) outPlanes.close();
        planes = null;
        outPlanes = null;
        planeCapacity = 0;
    }

    @Override
    public void close() {
        if (video != null) video.close();
        video = null;
        for (ArrayDeque<AVPacket> q : List.of(queued, spare)) {
            for (AVPacket p : q) av_packet_free(p);
            q.clear();
        }
        if (decoded != null) av_frame_free(decoded);
        if (packet != null) av_packet_free(packet);
        if (swr != null) swr_free(swr);
        if (codec != null) avcodec_free_context(codec);
        if (format != null && !format.isNull()) avformat_close_input(format);
        if (live != null) live.close(); // custom I/O is not freed by avformat_close_input
        freePlanes();
        decoded = null;
        packet = null;
        swr = null;
        codec = null;
        format = null;
    }
}
