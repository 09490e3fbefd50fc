package org.groovecast.net.rtmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a stream hands a late player, and that every reference it takes is given back. */
class RtmpStreamTest {
    /** Records what it gets, as "type:first byte"; holds no references. */
    static final class Recorder implements RtmpSubscriber {
        final List<String> got = new ArrayList<>();
        boolean ended;

        /** How many messages had come when a session began, each time one did. */
        final List<Integer> began = new ArrayList<>();

        @Override
        public void published() {
            began.add(got.size());
        }

        @Override
        public void deliver(RtmpMessage m) {
            got.add(
                    m.type
                            + ":"
                            + Integer.toHexString(m.payload.getByte(0) & 0xFF)
                            + (m.keyframe ? "K" : ""));
        }

        @Override
        public void unpublished() {
            ended = true;
        }
    }

    static RtmpMessage msg(int type, int... bytes) {
        ByteBuf b = Unpooled.buffer();
        for (int x : bytes) b.writeByte(x);
        return new RtmpMessage(type, 0, b);
    }

    @Test
    void flagsOfLegacyAndEnhancedVideoAndOfAac() {
        assertTrue(
                msg(9, 0x17, 0x00).sequenceHeader); // AVC keyframe, AVCDecoderConfigurationRecord
        assertTrue(msg(9, 0x17, 0x01).keyframe);
        assertFalse(msg(9, 0x27, 0x01).keyframe); // inter frame
        assertTrue(
                msg(9, 0x90, 'h', 'v', 'c', '1')
                        .sequenceHeader); // Enhanced RTMP: key + SequenceStart
        assertTrue(msg(9, 0x91, 'h', 'v', 'c', '1').keyframe); // key, CodedFrames
        assertFalse(msg(9, 0x91, 'h', 'v', 'c', '1').sequenceHeader);
        assertFalse(msg(9, 0xA1, 'h', 'v', 'c', '1').keyframe);
        assertTrue(msg(8, 0xAF, 0x00).sequenceHeader); // AAC AudioSpecificConfig
        assertFalse(msg(8, 0xAF, 0x01).sequenceHeader);
    }

    @Test
    void aLatePlayerGetsMetadataHeadersAndTheGopFromItsKeyframe() {
        RtmpStream s = new RtmpStream("live/x", ImmediateEventExecutor.INSTANCE);
        List<RtmpMessage> sent = new ArrayList<>();
        RtmpMessage meta = msg(18, 0x02);
        RtmpMessage avc = msg(9, 0x17, 0x00);
        RtmpMessage aac = msg(8, 0xAF, 0x00);
        RtmpMessage[] media = {
            msg(9, 0x27, 1),
            msg(8, 0xAF, 1),
            msg(9, 0x17, 1),
            msg(9, 0x27, 1),
            msg(8, 0xAF, 1),
            msg(9, 0x17, 1),
            msg(8, 0xAF, 1),
            msg(9, 0x27, 1)
        };
        s.publish(meta, true);
        s.publish(avc, false);
        s.publish(aac, false);
        for (RtmpMessage m : media) {
            sent.add(m);
            s.publish(m, false);
        }
        Recorder late = new Recorder();
        s.subscribe(late);
        assertEquals(List.of("18:2", "9:17K", "8:af", "9:17K", "8:af", "9:27"), late.got);
        s.end();
        assertTrue(late.ended);
        for (RtmpMessage m : sent)
            assertEquals(0, m.payload.refCnt(), "every media reference released");
        for (RtmpMessage m : List.of(meta, avc, aac))
            assertEquals(0, m.payload.refCnt(), "cached headers released");
    }

    @Test
    void subscribersHearTheEndAndALateOneAfterTheEndToo() {
        RtmpStream s = new RtmpStream("live/x", ImmediateEventExecutor.INSTANCE);
        Recorder on = new Recorder();
        s.subscribe(on);
        s.publish(msg(9, 0x17, 1), false);
        s.end();
        Recorder after = new Recorder();
        s.subscribe(after);
        assertTrue(on.ended);
        assertTrue(after.ended);
        assertEquals(List.of("9:17K"), on.got);
    }

    @Test
    void aSubscriberHearsTheSessionBeginBeforeItsFirstMessage() {
        RtmpStream s = new RtmpStream("live/x", ImmediateEventExecutor.INSTANCE);
        s.publish(msg(9, 0x17, 0x00), false);
        s.publish(msg(9, 0x17, 1), false);
        Recorder late = new Recorder();
        s.subscribe(late);
        assertEquals(List.of(0), late.began);
        assertEquals(List.of("9:17K", "9:17K"), late.got);
        s.end();
    }

    @Test
    void playersCountPlayingConnectionsNotTheScriptsInputs() {
        RtmpStream s = new RtmpStream("live/x", ImmediateEventExecutor.INSTANCE);
        s.subscribe(new Recorder()); // an input.rtmp
        RtmpPlayer a = new RtmpPlayer(null, null, 1, RtmpServer.Limits.DEFAULT);
        RtmpPlayer b = new RtmpPlayer(null, null, 1, RtmpServer.Limits.DEFAULT);
        s.subscribe(a);
        s.subscribe(b);
        assertEquals(3, s.subscribers());
        assertEquals(2, s.players());
        s.unsubscribe(a);
        assertEquals(1, s.players());
    }
}
