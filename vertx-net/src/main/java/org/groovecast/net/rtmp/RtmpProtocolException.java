package org.groovecast.net.rtmp;

/**
 * A peer broke the RTMP protocol (a bad handshake, an impossible chunk, a malformed AMF value): the
 * session it came on closes, with this message in the log; other sessions never notice.
 */
public final class RtmpProtocolException extends RuntimeException {
    public RtmpProtocolException(String reason) {
        super(reason, null, false, false); // no stack trace: a peer's mistake, not ours
    }
}
