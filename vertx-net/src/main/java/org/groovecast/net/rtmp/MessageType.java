package org.groovecast.net.rtmp;

/**
 * The RTMP message type ids, named in this one place: the server, the push client and the chunk
 * codec all compare against these, so a number in a switch never has to be looked up in the
 * specification again. The media and data ones are also {@link RtmpMessage}'s, whose public
 * constants are these.
 */
final class MessageType {
    /**
     * Not an RTMP message: {@link RtmpPlayer}'s queue notices carry it, so no type test mistakes
     * them for media.
     */
    static final int NONE = 0;

    // Protocol control, on chunk stream 2 and message stream 0.
    /** Set Chunk Size: 4 bytes, the sender's chunk size from its next message on. */
    static final int SET_CHUNK_SIZE = 1;

    /** Abort: 4 bytes, a chunk stream whose partial message is dropped. */
    static final int ABORT = 2;

    /** Acknowledgement: 4 bytes, the bytes received so far, once per window the peer asked for. */
    static final int ACKNOWLEDGEMENT = 3;

    /** User Control: a 2-byte event and its data (StreamBegin, StreamEOF, PingRequest...). */
    static final int USER_CONTROL = 4;

    /** Window Acknowledgement Size: 4 bytes, how often the receiver is to acknowledge. */
    static final int WINDOW_ACKNOWLEDGEMENT_SIZE = 5;

    /** Set Peer Bandwidth: the window and a limit type. */
    static final int SET_PEER_BANDWIDTH = 6;

    // The stream's content.
    static final int AUDIO = 8;
    static final int VIDEO = 9;

    /** A data message in AMF3: a leading byte, then (as every encoder sends it) AMF0. */
    static final int DATA_AMF3 = 15;

    static final int SHARED_OBJECT_AMF3 = 16;

    /** A command in AMF3: like {@link #COMMAND_AMF0} after a leading byte. */
    static final int COMMAND_AMF3 = 17;

    /**
     * A data message in AMF0: metadata ({@code @setDataFrame}, {@code onMetaData}) and the like.
     */
    static final int DATA_AMF0 = 18;

    static final int SHARED_OBJECT_AMF0 = 19;

    /** A command in AMF0: {@code connect}, {@code publish}, {@code _result}, {@code onStatus}... */
    static final int COMMAND_AMF0 = 20;

    /** Several audio, video and data messages in one; received and ignored, never sent. */
    static final int AGGREGATE = 22;

    private MessageType() {}
}
