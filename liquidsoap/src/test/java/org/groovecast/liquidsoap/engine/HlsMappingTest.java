package org.groovecast.liquidsoap.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.host.script.ScriptError;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Values;
import org.junit.jupiter.api.Test;

/**
 * output.file.hls as AzuraCast calls it: segment_name, persist_at, temp_dir, playlist and
 * segments_overhead reach the engine; the segment function gets Liquidsoap 2.4's record.
 */
class HlsMappingTest {
    private static final String AZURACAST_SHAPE =
            """
            def hls_segment_name(seg_meta) =
                seg_timestamp = int_of_float(time())
                seg_duration = 4
                "#{seg_meta.stream_name}_#{seg_duration}_#{seg_timestamp}_#{seg_meta.position}.#{seg_meta.extname}"
            end
            radio = sine()
            hls_streams = [("aac_lofi", %ffmpeg(format="mpegts", %audio(codec="aac", b="64k")))]
            output.file.hls(playlist="live.m3u8",
                segment_duration=4.0,
                segments=5,
                segments_overhead=2,
                segment_name=hls_segment_name,
                persist_at="/tmp/hls-mapping-test/hls.config",
                temp_dir="/tmp/hls-mapping-test/tmp",
                "/tmp/hls-mapping-test/hls",
                hls_streams,
                radio
            )
            """;

    private static void load(String text) {
        new LiquidsoapFrontEnd()
                .load(
                        "station.liq",
                        text,
                        ShippedStation.functions(),
                        RepositoryScriptsTest.NO_SETTINGS);
    }

    @Test
    void azuraCastsHlsBlockLoads() {
        load(AZURACAST_SHAPE);
    }

    @Test
    void aSegmentNameOfAnotherTypeIsRefusedAtItsLine() {
        String m =
                assertThrows(
                                ScriptError.class,
                                () ->
                                        load(
                                                "output.file.hls(segment_name=fun (m) -> m.position,"
                                                        + " \"/tmp/x\", [(\"a\", %mp3)], sine())"))
                        .getMessage();
        assertTrue(m.startsWith("station.liq:1:"), m);
    }

    @Test
    void theSegmentFunctionGetsLiquidsoapsRecord() {
        Mapping hls =
                Mappings.standard(new EngineValues("x.liq", new Encoders(null)))
                        .forEngine("output.file.hls");
        Map<String, Object> seen = new LinkedHashMap<>();
        Fn script =
                Builtin.of(
                        "segment_name",
                        List.of(Parameter.positional()),
                        a -> {
                            seen.putAll(((Rec) a.get(0)).fields());
                            return "x.ts";
                        });
        Map<String, Object> engine = new LinkedHashMap<>();
        engine.put("position", 3L);
        engine.put("extname", "ts");
        engine.put("duration", 2.0);
        engine.put("ticks", 88200L);
        engine.put("streamName", "aac_lofi");
        Object answer =
                hls.functions
                        .get("segment_name")
                        .apply(script)
                        .call(EngineValues.toLiquidsoap(engine));
        assertEquals("x.ts", Values.base(answer));
        assertEquals(
                Map.of(
                        "position",
                        3L,
                        "extname",
                        "ts",
                        "duration",
                        2.0,
                        "ticks",
                        88200L,
                        "stream_name",
                        "aac_lofi"),
                seen);
    }
}
