package org.groovecast.net.harbor.http;

import java.nio.file.Path;
import java.util.Locale;

/** Content types of files served by {@code harbor.http.static}, by extension. */
public final class MimeTypes {
    private MimeTypes() {}

    public static String of(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        String ext = name.substring(name.lastIndexOf('.') + 1);
        return switch (ext) {
            case "html", "htm" -> "text/html; charset=utf-8";
            case "txt" -> "text/plain; charset=utf-8";
            case "css" -> "text/css";
            case "js" -> "text/javascript";
            case "json" -> "application/json";
            case "m3u8" -> "application/vnd.apple.mpegurl";
            case "ts" -> "video/mp2t";
            case "mp3" -> "audio/mpeg";
            case "aac" -> "audio/aac";
            case "ogg", "opus" -> "audio/ogg";
            case "png" -> "image/png";
            case "jpg", "jpeg" -> "image/jpeg";
            case "svg" -> "image/svg+xml";
            default -> "application/octet-stream";
        };
    }
}
