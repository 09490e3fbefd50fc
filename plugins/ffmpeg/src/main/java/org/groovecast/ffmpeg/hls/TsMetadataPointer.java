package org.groovecast.ffmpeg.hls;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;

/**
 * Passes FFmpeg's MPEG-TS bytes on to a segment file, adding to each PMT the program-level
 * metadata_pointer_descriptor that Apple's "Timed Metadata for HTTP Live Streaming" asks for beside
 * the timed_id3 stream's metadata_descriptor. FFmpeg's muxer writes the stream (type 0x15, PES
 * private stream 1, the metadata_descriptor) but not this descriptor, and has no option for program
 * descriptors, so the PMT it wrote is rewritten here: 17 bytes inserted after the program's
 * descriptors, the section's lengths and CRC recomputed. A PMT that does not fit one packet with
 * them (never so for an HLS rendition's two or three streams), or that has one already, passes
 * unchanged.
 *
 * <p>Packets are rewritten in FFmpeg's buffer where they lie whole; a packet cut between two writes
 * waits in a buffer of its own for its rest, so nothing is allocated per write. It stands for a
 * file, as the channel under it did, so that FFmpeg buffers its writes as it did before (it flushes
 * after every packet into what it cannot seek); the MPEG-TS muxer never seeks, and a seek is
 * refused.
 */
final class TsMetadataPointer implements SeekableByteChannel {
    static final int PACKET = 188;
    private static final int PAT_PID = 0;
    private static final int METADATA_POINTER_TAG = 0x25;
    private static final int DESCRIPTOR = 17;

    private final ByteBuffer partial = ByteBuffer.allocate(PACKET);
    private FileChannel out;

    /** The PMT's PID, from the PAT; -1 until the PAT was read. */
    private int pmtPid = -1;

    /** Writes into {@code file} from now on: a new segment, whose muxer starts with a PAT. */
    void to(FileChannel file) {
        out = file;
        partial.clear();
        pmtPid = -1;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        int n = src.remaining();
        if (partial.position() > 0) {
            int take = Math.min(partial.remaining(), src.remaining());
            int limit = src.limit();
            src.limit(src.position() + take);
            partial.put(src);
            src.limit(limit);
            if (partial.hasRemaining()) return n;
            partial.flip();
            rewrite(partial, 0);
            drain(partial);
            partial.clear();
        }
        int whole = src.position() + src.remaining() / PACKET * PACKET;
        for (int at = src.position(); at < whole; at += PACKET) rewrite(src, at);
        int limit = src.limit();
        src.limit(whole);
        drain(src);
        src.limit(limit);
        partial.put(src);
        return n;
    }

    private void drain(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) out.write(b);
    }

    /** Reads the PAT, or rewrites the PMT, in the packet at {@code at} of {@code b}. */
    private void rewrite(ByteBuffer b, int at) {
        if (b.get(at) != 0x47 || (b.get(at + 1) & 0x40) == 0) return; // no section starts here
        int pid = (b.get(at + 1) & 0x1f) << 8 | b.get(at + 2) & 0xff;
        if (pid != PAT_PID && pid != pmtPid) return;
        int payload = at + 4;
        int control = b.get(at + 3) >> 4 & 0x3;
        if ((control & 0x1) == 0) return; // no payload
        if ((control & 0x2) != 0) payload += 1 + (b.get(at + 4) & 0xff); // adaptation field
        if (payload >= at + PACKET) return;
        int section = payload + 1 + (b.get(payload) & 0xff); // past the pointer field
        if (section + 12 > at + PACKET) return;
        int length = (b.get(section + 1) & 0x0f) << 8 | b.get(section + 2) & 0xff;
        int end = section + 3 + length; // past the CRC
        if (end > at + PACKET) return; // a section that goes on into the next packet
        if (pid == PAT_PID) {
            if (b.get(section) == 0x00 && length >= 13) {
                // the first program: its number, then its PMT's PID
                pmtPid = (b.get(section + 10) & 0x1f) << 8 | b.get(section + 11) & 0xff;
            }
            return;
        }
        if (b.get(section) != 0x02 || length < 13 || end + DESCRIPTOR > at + PACKET) return;
        int infoLength = (b.get(section + 10) & 0x0f) << 8 | b.get(section + 11) & 0xff;
        int info = section + 12;
        if (info + infoLength > end - 4) return;
        for (int d = info; d + 1 < info + infoLength; d += 2 + (b.get(d + 1) & 0xff))
            if ((b.get(d) & 0xff) == METADATA_POINTER_TAG) return;
        int insert = info + infoLength;
        // The elementary streams' loop moves up (the CRC is rewritten), the stuffing after shrinks.
        for (int i = end - 5; i >= insert; i--) b.put(i + DESCRIPTOR, b.get(i));
        int program = (b.get(section + 3) & 0xff) << 8 | b.get(section + 4) & 0xff;
        int q = insert;
        b.put(q++, (byte) METADATA_POINTER_TAG);
        b.put(q++, (byte) (DESCRIPTOR - 2));
        b.put(q++, (byte) 0xff); // metadata_application_format 0xFFFF: named by the identifier
        b.put(q++, (byte) 0xff);
        q = id3(b, q); // metadata_application_format_identifier
        b.put(q++, (byte) 0xff); // metadata_format 0xFF: named by the identifier
        q = id3(b, q); // metadata_format_identifier
        b.put(q++, (byte) 0); // metadata_service_id, as the stream's metadata_descriptor says
        // metadata_locator_record_flag 0, MPEG_carriage_flags 0 (this transport stream), reserved
        b.put(q++, (byte) 0x1f);
        b.put(q++, (byte) (program >> 8));
        b.put(q, (byte) program);
        length += DESCRIPTOR;
        infoLength += DESCRIPTOR;
        b.put(section + 1, (byte) (b.get(section + 1) & 0xf0 | length >> 8));
        b.put(section + 2, (byte) length);
        b.put(section + 10, (byte) (b.get(section + 10) & 0xf0 | infoLength >> 8));
        b.put(section + 11, (byte) infoLength);
        int crcAt = section + 3 + length - 4;
        int crc = crc32(b, section, crcAt);
        b.put(crcAt, (byte) (crc >>> 24));
        b.put(crcAt + 1, (byte) (crc >>> 16));
        b.put(crcAt + 2, (byte) (crc >>> 8));
        b.put(crcAt + 3, (byte) crc);
    }

    private static int id3(ByteBuffer b, int q) {
        b.put(q, (byte) 'I');
        b.put(q + 1, (byte) 'D');
        b.put(q + 2, (byte) '3');
        b.put(q + 3, (byte) ' ');
        return q + 4;
    }

    /**
     * MPEG-2's CRC-32 of bytes [from, to): polynomial 0x04C11DB7, most significant bit first, from
     * all ones, no final inversion; a section with its CRC appended sums to zero.
     */
    static int crc32(ByteBuffer b, int from, int to) {
        int crc = 0xffffffff;
        for (int i = from; i < to; i++) {
            crc ^= (b.get(i) & 0xff) << 24;
            for (int bit = 0; bit < 8; bit++) crc = crc < 0 ? crc << 1 ^ 0x04c11db7 : crc << 1;
        }
        return crc;
    }

    @Override
    public long position() throws IOException {
        return out.position() + partial.position();
    }

    @Override
    public SeekableByteChannel position(long to) throws IOException {
        if (to != position()) throw new IOException("MPEG-TS segments are written straight on");
        return this;
    }

    @Override
    public long size() throws IOException {
        return out.size() + partial.position();
    }

    @Override
    public SeekableByteChannel truncate(long size) throws IOException {
        throw new IOException("MPEG-TS segments are written straight on");
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        throw new IOException("write only");
    }

    @Override
    public boolean isOpen() {
        return out != null && out.isOpen();
    }

    @Override
    public void close() {
        out = null;
    }
}
