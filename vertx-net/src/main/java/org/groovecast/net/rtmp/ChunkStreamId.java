package org.groovecast.net.rtmp;

/**
 * The chunk stream ids this end sends on, server and push client alike (nginx-rtmp's and FFmpeg's
 * choice): one per kind of message, so that each kind's headers compress against its own previous
 * message and a large video frame never sits in the header state an audio frame is compared with.
 */
final class ChunkStreamId {
    /** Protocol control and user control messages: the specification reserves 2 for them. */
    static final int CONTROL = 2;

    /** Commands and their answers on message stream 0 and on the media stream. */
    static final int COMMAND = 3;

    static final int AUDIO = 4;
    static final int DATA = 5;
    static final int VIDEO = 6;

    private ChunkStreamId() {}

    /**
     * Where a message of the stream goes: audio and video on their own, anything else with the
     * data.
     */
    static int of(int messageType) {
        return messageType == MessageType.AUDIO
                ? AUDIO
                : messageType == MessageType.VIDEO ? VIDEO : DATA;
    }
}
