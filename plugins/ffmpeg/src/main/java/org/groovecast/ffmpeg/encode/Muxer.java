package org.groovecast.ffmpeg.encode;

import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_TIMED_ID3;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_ref;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_rescale_ts;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_parameters_copy;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_parameters_from_context;
import static org.bytedeco.ffmpeg.global.avformat.AVFMT_GLOBALHEADER;
import static org.bytedeco.ffmpeg.global.avformat.AVFMT_NOFILE;
import static org.bytedeco.ffmpeg.global.avformat.AVIO_FLAG_WRITE;
import static org.bytedeco.ffmpeg.global.avformat.av_guess_format;
import static org.bytedeco.ffmpeg.global.avformat.av_interleaved_write_frame;
import static org.bytedeco.ffmpeg.global.avformat.av_write_frame;
import static org.bytedeco.ffmpeg.global.avformat.av_write_trailer;
import static org.bytedeco.ffmpeg.global.avformat.avformat_alloc_output_context2;
import static org.bytedeco.ffmpeg.global.avformat.avformat_free_context;
import static org.bytedeco.ffmpeg.global.avformat.avformat_new_stream;
import static org.bytedeco.ffmpeg.global.avformat.avformat_write_header;
import static org.bytedeco.ffmpeg.global.avformat.avio_alloc_context;
import static org.bytedeco.ffmpeg.global.avformat.avio_closep;
import static org.bytedeco.ffmpeg.global.avformat.avio_context_free;
import static org.bytedeco.ffmpeg.global.avformat.avio_flush;
import static org.bytedeco.ffmpeg.global.avformat.avio_open2;
import static org.bytedeco.ffmpeg.global.avutil.AVMEDIA_TYPE_DATA;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_free;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_set;
import static org.bytedeco.ffmpeg.global.avutil.av_free;
import static org.bytedeco.ffmpeg.global.avutil.av_malloc;

import java.io.IOException;
import java.nio.channels.WritableByteChannel;
import java.util.List;
import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVIOContext;
import org.bytedeco.ffmpeg.avformat.AVOutputFormat;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avformat.Read_packet_Pointer_BytePointer_int;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.javacpp.BytePointer;
import org.groovecast.ffmpeg.shared.Av;
import org.groovecast.ffmpeg.shared.Interrupter;

/**
 * An FFmpeg muxer (mp3, adts, ogg, flac, mpegts, matroska...) writing encoded streams (audio, and
 * video if there is one) into a Java channel. Packets are referenced, not consumed, so one packet
 * can go to several muxers.
 */
public final class Muxer implements AutoCloseable {
    private static final int IO_BUFFER = 64 * 1024;

    private AVFormatContext format;
    private AVIOContext io;
    private ChannelIo channelIo;
    private AVStream[] streams;

    /** Each stream's time base, taken once after the header: read for every packet written. */
    private AVRational[] streamTimeBases;

    private AVPacket scratch;
    private boolean headerWritten;

    /**
     * Whether {@link #io} was opened by FFmpeg on a URL (closed with avio_closep) rather than made
     * over a channel.
     */
    private boolean urlIo;

    /** The options given that neither the protocol nor the muxer took. */
    private List<String> unusedOptions = List.of();

    /**
     * Muxes to a URL through FFmpeg's own protocols (srt, udp, rtp, icecast, a file), its streams
     * described by {@code params} with timestamps in {@code timeBases}; {@code options} go to the
     * protocol and then to the muxer, as ffmpeg's do; every blocking call is bounded by {@code
     * interrupter}. Blocking: connects and writes the header.
     */
    public Muxer(
            String formatName,
            Map<String, String> options,
            List<AVCodecParameters> params,
            List<AVRational> timeBases,
            String url,
            Interrupter interrupter)
            throws IOException {
        Av.init();
        boolean ok = false;
        AVDictionary dict = new AVDictionary(null);
        try {
            format = new AVFormatContext(null);
            Av.check(
                    avformat_alloc_output_context2(format, (AVOutputFormat) null, formatName, url),
                    "unknown format '" + formatName + "'");
            interrupter.attach(format);
            streams = new AVStream[params.size()];
            for (int i = 0; i < streams.length; i++) {
                streams[i] = avformat_new_stream(format, (AVCodec) null);
                Av.check(
                        avcodec_parameters_copy(streams[i].codecpar(), params.get(i)),
                        "bad codec parameters");
                streams[i].time_base(timeBases.get(i));
            }
            for (Map.Entry<String, String> o : options.entrySet())
                av_dict_set(dict, o.getKey(), o.getValue(), 0);
            if ((format.oformat().flags() & AVFMT_NOFILE) == 0) {
                AVIOContext pb = new AVIOContext(null);
                Av.check(
                        avio_open2(pb, url, AVIO_FLAG_WRITE, format.interrupt_callback(), dict),
                        "cannot open");
                io = pb;
                urlIo = true;
                format.pb(pb);
            }
            Av.check(
                    avformat_write_header(format, dict),
                    "cannot start the " + formatName + " stream");
            headerWritten = true;
            streamTimeBases = new AVRational[streams.length];
            for (int i = 0; i < streams.length; i++) streamTimeBases[i] = streams[i].time_base();
            unusedOptions = Av.keys(dict);
            scratch = av_packet_alloc();
            ok = true;
        } finally {
            av_dict_free(dict);
            if (!ok) close();
        }
    }

    /** The options given to a URL muxer that nobody took (misspelt, or for another protocol). */
    public List<String> unusedOptions() {
        return unusedOptions;
    }

    /** One stream, from {@code codec}. */
    Muxer(
            String formatName,
            Map<String, String> options,
            AVCodecContext codec,
            WritableByteChannel out)
            throws IOException {
        this(formatName, options, List.of(codec), out);
    }

    /** One stream per codec, in order: packets name their stream by its index here. */
    public Muxer(
            String formatName,
            Map<String, String> options,
            List<AVCodecContext> codecs,
            WritableByteChannel out)
            throws IOException {
        this(formatName, options, codecs, out, Map.of());
    }

    /**
     * The same, the stream tagged with {@code tags} (title, artist...) where its format has a place
     * for them (Ogg's comment header, MP4's and Matroska's tags).
     */
    Muxer(
            String formatName,
            Map<String, String> options,
            List<AVCodecContext> codecs,
            WritableByteChannel out,
            Map<String, String> tags)
            throws IOException {
        this(formatName, options, codecs, out, tags, false);
    }

    /**
     * One stream per codec, then, with {@code timedId3}, a data stream of ID3 tags (FFmpeg's
     * timed_id3, which its MPEG-TS muxer carries as HLS's timed metadata: stream type 0x15, PES
     * private stream 1 and a metadata descriptor), its index {@code codecs.size()}, its packets'
     * timestamps those of the stream they annotate.
     */
    public static Muxer withTimedId3(
            String formatName, List<AVCodecContext> codecs, WritableByteChannel out)
            throws IOException {
        return new Muxer(formatName, Map.of(), codecs, out, Map.of(), true);
    }

    private Muxer(
            String formatName,
            Map<String, String> options,
            List<AVCodecContext> codecs,
            WritableByteChannel out,
            Map<String, String> tags,
            boolean timedId3)
            throws IOException {
        Av.init();
        boolean ok = false;
        AVDictionary dict = new AVDictionary(null);
        try {
            format = new AVFormatContext(null);
            Av.check(
                    avformat_alloc_output_context2(format, (AVOutputFormat) null, formatName, null),
                    "unknown format '" + formatName + "'");
            streams = new AVStream[codecs.size() + (timedId3 ? 1 : 0)];
            for (int i = 0; i < codecs.size(); i++) {
                AVCodecContext codec = codecs.get(i);
                streams[i] = avformat_new_stream(format, (AVCodec) null);
                Av.check(
                        avcodec_parameters_from_context(streams[i].codecpar(), codec),
                        "bad codec parameters");
                streams[i].time_base(codec.time_base());
                if (!tags.isEmpty()) streams[i].metadata(dictionary(tags));
            }
            if (timedId3) {
                AVStream data = avformat_new_stream(format, (AVCodec) null);
                data.codecpar().codec_type(AVMEDIA_TYPE_DATA);
                data.codecpar().codec_id(AV_CODEC_ID_TIMED_ID3);
                data.time_base(codecs.getFirst().time_base());
                streams[codecs.size()] = data;
            }
            if (!tags.isEmpty()) format.metadata(dictionary(tags));
            channelIo = new ChannelIo(out);
            BytePointer buffer = new BytePointer(av_malloc(IO_BUFFER));
            io =
                    avio_alloc_context(
                            buffer,
                            IO_BUFFER,
                            1,
                            channelIo.opaque(),
                            (Read_packet_Pointer_BytePointer_int) null,
                            ChannelIo.WRITE,
                            channelIo.seekable() ? ChannelIo.SEEK : null);
            format.pb(io);
            format.flags(format.flags() | AVFormatContext.AVFMT_FLAG_CUSTOM_IO);
            for (Map.Entry<String, String> o : options.entrySet())
                av_dict_set(dict, o.getKey(), o.getValue(), 0);
            Av.check(
                    avformat_write_header(format, dict),
                    "cannot start the " + formatName + " stream");
            headerWritten = true;
            streamTimeBases = new AVRational[streams.length];
            for (int i = 0; i < streams.length; i++) streamTimeBases[i] = streams[i].time_base();
            scratch = av_packet_alloc();
            ok = true;
        } finally {
            av_dict_free(dict);
            if (!ok) close();
        }
    }

    /** A new dictionary of {@code tags}, for the format context to own and free. */
    private static AVDictionary dictionary(Map<String, String> tags) {
        AVDictionary d = new AVDictionary(null);
        for (Map.Entry<String, String> t : tags.entrySet())
            av_dict_set(d, t.getKey(), t.getValue(), 0);
        return d;
    }

    /** Whether streams muxed as {@code formatName} want the codec's global header (ogg, mp4). */
    public static boolean wantsGlobalHeader(String formatName) {
        AVOutputFormat f = av_guess_format(formatName, null, null);
        if (f == null || f.isNull())
            throw new IllegalArgumentException("unknown format '" + formatName + "'");
        return (f.flags() & AVFMT_GLOBALHEADER) != 0;
    }

    /**
     * Writes a reference to {@code packet} of the first stream, whose timestamps are in {@code
     * timeBase}.
     */
    void write(AVPacket packet, AVRational timeBase) throws IOException {
        write(packet, timeBase, 0);
    }

    /**
     * Writes a reference to {@code packet} of stream {@code index}, whose timestamps are in {@code
     * timeBase}.
     */
    public void write(AVPacket packet, AVRational timeBase, int index) throws IOException {
        Av.check(av_packet_ref(scratch, packet), "cannot reference a packet");
        scratch.stream_index(index);
        av_packet_rescale_ts(scratch, timeBase, streamTimeBases[index]);
        int r = av_interleaved_write_frame(format, scratch);
        if (channelIo != null && channelIo.failure() != null) throw channelIo.failure();
        Av.check(r, "cannot write a packet");
    }

    /** Hands what the I/O buffer holds to the channel. */
    public void flush() throws IOException {
        avio_flush(io);
        if (channelIo != null && channelIo.failure() != null) throw channelIo.failure();
    }

    /**
     * Ends a fragment of a fragmented MP4 muxed with {@code movflags=frag_custom}: what is queued
     * for interleaving and the fragment built so far (moof and mdat) go to the channel now.
     */
    public void flushFragment() throws IOException {
        int r = av_interleaved_write_frame(format, (AVPacket) null);
        if (channelIo.failure() != null) throw channelIo.failure();
        Av.check(r, "cannot flush the interleaving queue");
        r = av_write_frame(format, (AVPacket) null);
        if (channelIo.failure() != null) throw channelIo.failure();
        Av.check(r, "cannot end a fragment");
        flush();
    }

    /** Writes the trailer and flushes; the channel stays open. */
    public void finish() throws IOException {
        if (headerWritten) {
            headerWritten = false;
            Av.check(av_write_trailer(format), "cannot finish the stream");
            if (io != null) avio_flush(io);
            if (channelIo != null && channelIo.failure() != null) throw channelIo.failure();
        }
    }

    @Override
    public void close() {
        if (scratch != null) av_packet_free(scratch);
        if (io != null && urlIo) {
            avio_closep(io);
        } else if (io != null) {
            av_free(io.buffer());
            avio_context_free(io);
        }
        if (format != null && !format.isNull()) avformat_free_context(format);
        if (channelIo != null) channelIo.close();
        scratch = null;
        io = null;
        format = null;
        channelIo = null;
    }
}
