package org.groovecast.host.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipFile;

/**
 * What a plugin file or directory says about itself, read without loading it: its id and version
 * from a jar's manifest ({@code Plugin-Id}) or a zip's or directory's {@code plugin.properties}, as
 * PF4J reads them.
 */
record PluginArchive(Path path, String id, String version) {
    /** Reads {@code path}; throws an IOException saying why it is not a plugin. */
    static PluginArchive read(Path path) throws IOException {
        String name = path.getFileName().toString();
        if (Files.isDirectory(path)) {
            Path props = path.resolve("plugin.properties");
            if (!Files.isRegularFile(props))
                throw new IOException(path + " has no plugin.properties");
            try (InputStream in = Files.newInputStream(props)) {
                return fromProperties(path, in);
            }
        }
        if (name.endsWith(".jar")) {
            try (JarFile jar = new JarFile(path.toFile())) {
                Manifest m = jar.getManifest();
                String id = m == null ? null : m.getMainAttributes().getValue("Plugin-Id");
                if (id == null || id.isBlank())
                    throw new IOException(path + " has no Plugin-Id in its manifest");
                return new PluginArchive(
                        path,
                        id.trim(),
                        String.valueOf(m.getMainAttributes().getValue("Plugin-Version")).trim());
            } catch (java.util.zip.ZipException e) {
                throw new IOException(path + " is not a readable jar (" + e.getMessage() + ")");
            }
        }
        if (name.endsWith(".zip")) {
            try (ZipFile zip = new ZipFile(path.toFile())) {
                var entry = zip.getEntry("plugin.properties");
                if (entry == null) throw new IOException(path + " has no plugin.properties");
                try (InputStream in = zip.getInputStream(entry)) {
                    return fromProperties(path, in);
                }
            } catch (java.util.zip.ZipException e) {
                throw new IOException(path + " is not a readable zip (" + e.getMessage() + ")");
            }
        }
        throw new IOException(path + " is not a plugin: expected a .jar, a .zip or a directory");
    }

    private static PluginArchive fromProperties(Path path, InputStream in) throws IOException {
        Properties p = new Properties();
        p.load(in);
        String id = p.getProperty("plugin.id");
        if (id == null || id.isBlank())
            throw new IOException(path + " has no plugin.id in its plugin.properties");
        return new PluginArchive(
                path, id.trim(), String.valueOf(p.getProperty("plugin.version")).trim());
    }
}
