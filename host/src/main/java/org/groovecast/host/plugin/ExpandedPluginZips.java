package org.groovecast.host.plugin;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.pf4j.util.FileUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the directories PF4J expands plugin zips into in step with the zips' content.
 *
 * <p>PF4J expands {@code x.zip} into {@code x/} only when the zip is newer than the directory. Our
 * build is reproducible, so every zip carries the same fixed date: an upgraded plugin zip (a new
 * tarball unpacked over an install, a package upgrade) is older than the directory the previous
 * start expanded, and PF4J would keep running the old code. Here the expansion is keyed on what the
 * zip holds (its central directory: each entry's name, CRC and size, read without inflating
 * anything), recorded in a marker file inside the directory.
 */
final class ExpandedPluginZips {
    private static final Logger log = LoggerFactory.getLogger(ExpandedPluginZips.class);
    static final String MARKER = ".groovecast-zip-content";
    static final String LOCK = ".groovecast-expand.lock";

    private ExpandedPluginZips() {}

    /**
     * Expands afresh every zip in {@code dir} whose directory holds another content, or none.
     * Stations started at once from one install would otherwise expand over each other's files: one
     * process at a time holds a lock beside the zips (one thread at a time within a process, since
     * a JVM's file locks are its own).
     */
    static synchronized void refresh(Path dir) {
        List<Path> zips;
        try (Stream<Path> entries = Files.list(dir)) {
            zips = entries.filter(p -> p.getFileName().toString().endsWith(".zip")).toList();
        } catch (IOException e) {
            return; // OperatorPlugins reports an unreadable directory
        }
        if (zips.isEmpty()) return;
        try (FileChannel lock =
                FileChannel.open(
                        dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            lock.lock(); // released when the channel closes
            for (Path zip : zips) refreshOne(zip);
        } catch (IOException e) {
            // A read-only install: nothing can be expanded or rewritten, so nothing can race.
            for (Path zip : zips) refreshOne(zip);
        }
    }

    private static void refreshOne(Path zip) {
        String content;
        try {
            content = contentOf(zip);
        } catch (IOException e) {
            return; // not a readable zip: PF4J skips it and OperatorPlugins names it
        }
        String name = zip.getFileName().toString();
        Path expanded = zip.resolveSibling(name.substring(0, name.length() - ".zip".length()));
        Path marker = expanded.resolve(MARKER);
        try {
            if (Files.isDirectory(expanded)) {
                if (Files.isRegularFile(marker)
                        && Files.readString(marker, StandardCharsets.UTF_8).equals(content)) return;
                log.info("plugin {} changed since it was expanded: expanding it again", name);
                deleteTree(expanded);
            }
            FileUtils.expandIfZip(zip);
            Files.writeString(marker, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            log.warn("cannot expand plugin {} into {}: {}", name, expanded, e.getMessage());
        }
    }

    /** A digest of every entry's name, CRC and size, from the central directory alone. */
    static String contentOf(Path zip) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
        try (ZipFile z = new ZipFile(zip.toFile())) {
            var entries = z.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                digest.update(
                        (e.getName() + '\0' + e.getCrc() + '\0' + e.getSize() + '\n')
                                .getBytes(StandardCharsets.UTF_8));
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
