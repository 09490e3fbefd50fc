package org.groovecast.ffmpeg.hls;

import java.io.IOException;
import java.nio.file.Path;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;

/**
 * How a rendition's packets become segment files, for one run of its encoder (until the source
 * drops, a reload, or a write fails): MPEG-TS files, fragmented MP4 after an init section, or
 * packed audio. Each carries the title as HLS's timed metadata (ID3) in its own way.
 */
interface HlsSegments extends AutoCloseable {
    /** The segment files' extension, without the dot. */
    String extension();

    /**
     * Starts the segment file {@code file}, whose first packet starts at stream sample {@code at};
     * {@code current} is the title playing there, carried at the segment's head so that a player
     * joining mid-track shows it (null: no title yet, or none wanted).
     */
    void begin(Path file, long at, Id3Cue current) throws IOException;

    /** A new title from {@code cue.at()} on, within the segment begun last, after its head. */
    void cue(Id3Cue cue) throws IOException;

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
