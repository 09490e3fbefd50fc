package org.groovecast.net.harbor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.groovecast.net.harbor.files.StaticFile;

/**
 * The HLS clients of the harbor's static folders ({@code harbor.http.static} serving an {@code
 * output.file.hls} directory) as listener sessions: a client (address, agent, folder) that asks for
 * a playlist begins one, each of its requests for a file of that folder continues it and adds the
 * file's bytes, and it ends once two target durations pass without a request (the playlist's {@code
 * #EXT-X-TARGETDURATION}; a player asks for the playlist once per target duration). Files served to
 * no HLS client (a folder without playlists) begin nothing.
 */
final class HlsClients {
    /** The part of a playlist read for its target duration: the tag comes near the top. */
    private static final int HEAD = 4096;

    private static final String TARGET = "#EXT-X-TARGETDURATION:";

    private HlsClients() {}

    /** {@code file} of the static folder {@code folder} was served to {@code c}'s request. */
    static void served(HarborConnection c, String folder, StaticFile file) {
        String name = file.path().getFileName().toString();
        boolean playlist = name.regionMatches(true, name.length() - 5, ".m3u8", 0, 5);
        long bytes = c.head().method().equals("HEAD") ? 0 : file.size();
        long idle = playlist ? 2 * targetNanos(file) : 0;
        c.server().sessions().hlsRequest(c.address(), c.head(), folder, playlist, bytes, idle);
    }

    /**
     * The playlist's target duration in nanoseconds, from its kept bytes when the directory keeps
     * it (a playlist is small); 0 when it has none (a master playlist).
     */
    static long targetNanos(StaticFile playlist) {
        if (playlist.body() == null) return targetNanos(playlist.path());
        int n = (int) Math.min(HEAD, playlist.size());
        return targetNanos(
                playlist.body()
                        .toString(playlist.body().readerIndex(), n, StandardCharsets.ISO_8859_1));
    }

    /** The same read from the file. */
    static long targetNanos(Path playlist) {
        byte[] head;
        try (InputStream in = Files.newInputStream(playlist)) {
            head = in.readNBytes(HEAD);
        } catch (IOException e) {
            return 0;
        }
        return targetNanos(new String(head, StandardCharsets.ISO_8859_1));
    }

    private static long targetNanos(String text) {
        int at = text.indexOf(TARGET);
        if (at < 0) return 0;
        int from = at + TARGET.length();
        int to = from;
        while (to < text.length() && Character.isDigit(text.charAt(to))) to++;
        if (to == from || to - from > 6) return 0;
        return Long.parseLong(text, from, to, 10) * 1_000_000_000L;
    }
}
