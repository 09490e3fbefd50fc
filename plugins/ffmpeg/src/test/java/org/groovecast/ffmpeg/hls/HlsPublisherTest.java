package org.groovecast.ffmpeg.hls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The origin URL a script may give, and what a playlist names (what must be on the origin before
 * it).
 */
class HlsPublisherTest {
    @Test
    void anOriginIsAnHttpDirectoryUrl() {
        assertEquals(
                "http://origin/live/radio/",
                HlsPublisher.origin("http://origin/live/radio").toString());
        assertEquals(
                "https://cdn.example.org:8443/in/",
                HlsPublisher.origin("https://cdn.example.org:8443/in/").toString());
        assertEquals("http://o/", HlsPublisher.origin("http://o").toString());
        assertNull(HlsPublisher.origin("ftp://origin/live/"));
        assertNull(HlsPublisher.origin("http:///live/"));
        assertNull(
                HlsPublisher.origin("http://origin/live/?token=x"),
                "a query would land after each file name");
        assertNull(HlsPublisher.origin("http://origin/live/#x"));
        assertNull(HlsPublisher.origin("http://origin/a b/"));
        assertNull(HlsPublisher.origin(null));
    }

    @Test
    void headersTheHttpClientRefusesAreNamedBeforeTheStationStarts() {
        assertNull(
                HlsPublisher.headerProblem(
                        Map.of("Authorization", "Bearer t0ken", "X-Ingest", "a")));
        for (String restricted :
                List.of("Host", "Connection", "Content-Length", "Expect", "Upgrade")) {
            String problem = HlsPublisher.headerProblem(Map.of(restricted, "x"));
            assertTrue(
                    problem != null && problem.startsWith("header \"" + restricted + "\""),
                    restricted + ": " + problem);
        }
        String crlf = HlsPublisher.headerProblem(Map.of("Authorization", "Bearer a\r\nHost: evil"));
        assertTrue(crlf != null && crlf.startsWith("header \"Authorization\""), crlf);
    }

    @Test
    void aPlaylistNamesItsWindowsSegmentsAndTheirInitSectionsOnce() {
        HlsPlaylist p = new HlsPlaylist(2, 2);
        p.add("a_0.m4s", 2, false, "a_init_0.mp4");
        p.add("a_1.m4s", 2, false, "a_init_0.mp4");
        assertEquals(List.of("a_0.m4s", "a_init_0.mp4", "a_1.m4s"), p.files());
        p.add("a_2.m4s", 2, true, "a_init_2.mp4");
        assertEquals(List.of("a_1.m4s", "a_init_0.mp4", "a_2.m4s", "a_init_2.mp4"), p.files());
    }
}
