package org.groovecast.ffmpeg;

import java.io.IOException;
import java.nio.file.Path;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;

/**
 * How a rendition's packets become segment files, for one run of its encoder (until the source
 * drops, a reload, or a write fails): MPEG-TS files, or fragmented MP4 after an init section.
 */
interface HlsSegments extends AutoCloseable {
    /** The segment files' extension, without the dot. */
    String extension();

    /** Starts the segment file {@code file}. */
    void begin(Path file) throws IOException;

    /** Writes a packet of stream {@code stream} into the segment begun last. */
    void write(AVPacket packet, AVRational timeBase, int stream) throws IOException;

    /** Ends the segment begun last: its file is complete on disk. */
    void end() throws IOException;

    /** The file name of the init section that this run's segments need (EXT-X-MAP), or null. */
    String map();

    /** Frees the muxer; a segment not ended is left as it is, for the caller to delete. */
    @Override
    void close();
}
