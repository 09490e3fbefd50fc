package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;

/**
 * One audio, video or data message of a published stream, received once and shared by every player
 * of the stream: each queue that holds it holds a reference to {@link #payload} (retain on offer,
 * release once written or dropped), so nothing is copied per player.
 */
public final class RtmpMessage {
    // The numbers live in MessageType with the control and command types; these name them for users
    // of a message.
    public static final int AUDIO = MessageType.AUDIO;
    public static final int VIDEO = MessageType.VIDEO;
    public static final int DATA = MessageType.DATA_AMF0;

    final int type;
    final long timestamp;
    final ByteBuf payload;

    /** A video keyframe (a player may start there), or a message that starts nothing. */
    final boolean keyframe;

    /** AVC/HEVC/AV1 decoder configuration or AAC AudioSpecificConfig: needed before any media. */
    final boolean sequenceHeader;

    RtmpMessage(int type, long timestamp, ByteBuf payload) {
        this.type = type;
        this.timestamp = timestamp;
        this.payload = payload;
        this.keyframe = type == VIDEO && isKeyframe(payload);
        this.sequenceHeader =
                type == VIDEO ? isVideoHeader(payload) : type == AUDIO && isAacHeader(payload);
    }

    public int type() {
        return type;
    }

    public long timestamp() {
        return timestamp;
    }

    /**
     * The message body, shared: read it with absolute indexes or a duplicate, never release it
     * here.
     */
    public ByteBuf payload() {
        return payload;
    }

    public boolean isKeyframe() {
        return keyframe;
    }

    public boolean isSequenceHeader() {
        return sequenceHeader;
    }

    /**
     * FLV video tag: frame type in the top nibble (1 = keyframe), also with Enhanced RTMP's
     * IsExHeader bit.
     */
    private static boolean isKeyframe(ByteBuf p) {
        if (!p.isReadable()) return false;
        return ((p.getByte(p.readerIndex()) >> 4) & 0x7) == 1;
    }

    private static boolean isVideoHeader(ByteBuf p) {
        if (p.readableBytes() < 2) return false;
        int b0 = p.getByte(p.readerIndex()) & 0xFF;
        if ((b0 & 0x80) != 0) return (b0 & 0x0F) == 0; // Enhanced RTMP: PacketTypeSequenceStart
        int codec = b0 & 0x0F;
        // AVC (7), and HEVC (12) as some encoders send it the legacy way: packet type 0 is the
        // config.
        return (codec == 7 || codec == 12) && p.getByte(p.readerIndex() + 1) == 0;
    }

    private static boolean isAacHeader(ByteBuf p) {
        if (p.readableBytes() < 2) return false;
        return ((p.getByte(p.readerIndex()) & 0xFF) >> 4) == 10
                && p.getByte(p.readerIndex() + 1) == 0;
    }
}
