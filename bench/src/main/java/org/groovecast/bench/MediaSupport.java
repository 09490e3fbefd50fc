package org.groovecast.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.groovecast.host.plugin.OperatorPlugins;

/**
 * What the media benchmarks share: test media made with the ffmpeg CLI, the ffmpeg plugin, memory
 * and child-process probes.
 */
final class MediaSupport {
    private MediaSupport() {}

    /**
     * The default directory for generated media, kept between runs (it is only made when missing).
     */
    static final String DEFAULT_MEDIA = "/tmp/groovecast-bench-media";

    /** Loads the plugins and checks that the ffmpeg plugin is among them. */
    static OperatorPlugins loadPlugins(Path dir) {
        if (!Files.isRegularFile(dir.resolve("ffmpeg.zip"))) {
            throw new IllegalStateException(
                    "no ffmpeg.zip in "
                            + dir.toAbsolutePath()
                            + "; build first: mvn -o install -DskipTests (the bench module's package phase copies it)");
        }
        OperatorPlugins plugins = BenchSupport.loadPlugins(dir);
        if (plugins.functions().owner("single") == null) {
            throw new IllegalStateException(
                    "the ffmpeg plugin did not load from " + dir.toAbsolutePath());
        }
        return plugins;
    }

    /**
     * The directory of the bench's station scripts: -Dgroovecast.bench.scripts, else bench/scripts
     * or scripts.
     */
    static Path scriptsDir() {
        String prop = System.getProperty("groovecast.bench.scripts");
        if (prop != null && !prop.isBlank()) return Path.of(prop);
        Path inRepo = Path.of("bench", "scripts");
        return Files.isDirectory(inRepo) ? inRepo : Path.of("scripts");
    }

    // ---------------------------------------------------------------- ffmpeg CLI

    /**
     * Runs a command to its end, output to a log file next to nothing; throws with the tail of the
     * output on failure.
     */
    static String run(List<String> command, long timeoutSeconds) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            StringBuilder out = new StringBuilder();
            try (BufferedReader r =
                    new BufferedReader(
                            new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) out.append(line).append('\n');
            }
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(
                        "timed out after " + timeoutSeconds + " s: " + String.join(" ", command));
            }
            if (p.exitValue() != 0) {
                String text = out.toString();
                throw new IllegalStateException(
                        "exit "
                                + p.exitValue()
                                + ": "
                                + String.join(" ", command)
                                + "\n"
                                + text.substring(Math.max(0, text.length() - 2000)));
            }
            return out.toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * A 60 s stereo mp3 (128k CBR, 44.1 kHz) of a 440 Hz tone mixed with pink noise, so the
     * encoders see a signal with some content rather than a pure tone. Made once.
     */
    static Path musicFile(Path mediaDir) throws IOException {
        Path f = mediaDir.resolve("in.mp3");
        if (Files.isRegularFile(f) && Files.size(f) > 100_000) return f;
        Files.createDirectories(mediaDir);
        Path tmp = mediaDir.resolve("in.tmp.mp3");
        run(
                List.of(
                        "ffmpeg",
                        "-hide_banner",
                        "-loglevel",
                        "error",
                        "-y",
                        "-f",
                        "lavfi",
                        "-i",
                        "sine=frequency=440:duration=60:sample_rate=44100",
                        "-f",
                        "lavfi",
                        "-i",
                        "anoisesrc=color=pink:amplitude=0.2:duration=60:sample_rate=44100",
                        "-filter_complex",
                        "[0:a][1:a]amix=inputs=2:duration=shortest,aformat=channel_layouts=stereo",
                        "-ar",
                        "44100",
                        "-c:a",
                        "libmp3lame",
                        "-b:a",
                        "128k",
                        tmp.toString()),
                120);
        Files.move(tmp, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return f;
    }

    /**
     * {@code count} short files in {@code dir}: half 1.5 s mp3 (128k, 44.1 kHz), half 1.5 s ADTS
     * AAC (96k, 48 kHz, so they go through the resampler), cut by ffmpeg's segment muxer from one
     * long tone (two ffmpeg runs in all). Made once; returned sorted, mp3 and aac alternating.
     */
    static List<Path> shortFiles(Path dir, int count) throws IOException {
        Path mp3Dir = dir.resolve("mp3");
        Path aacDir = dir.resolve("aac");
        int mp3s = (count + 1) / 2;
        int aacs = count / 2;
        if (countFiles(mp3Dir, ".mp3") < mp3s)
            makeSegments(mp3Dir, mp3s, 440, 44100, "mp3", "libmp3lame", "128k");
        if (countFiles(aacDir, ".aac") < aacs)
            makeSegments(aacDir, aacs, 660, 48000, "aac", "aac", "96k");
        List<Path> mp3 = listFiles(mp3Dir, ".mp3");
        List<Path> aac = listFiles(aacDir, ".aac");
        if (mp3.size() < mp3s || aac.size() < aacs) {
            throw new IllegalStateException(
                    "ffmpeg made "
                            + mp3.size()
                            + " mp3 and "
                            + aac.size()
                            + " aac files, wanted "
                            + mp3s
                            + " and "
                            + aacs);
        }
        List<Path> out = new ArrayList<>(count);
        for (int i = 0; out.size() < count; i++) {
            if (i < mp3s) out.add(mp3.get(i));
            if (out.size() < count && i < aacs) out.add(aac.get(i));
        }
        return out;
    }

    private static void makeSegments(
            Path dir, int count, int freq, int rate, String ext, String codec, String bitrate)
            throws IOException {
        deleteTree(dir);
        Files.createDirectories(dir);
        // One extra segment of margin: the last one may come out short.
        double seconds = (count + 1) * 1.5;
        run(
                List.of(
                        "ffmpeg",
                        "-hide_banner",
                        "-loglevel",
                        "error",
                        "-y",
                        "-f",
                        "lavfi",
                        "-i",
                        "sine=frequency=" + freq + ":duration=" + seconds + ":sample_rate=" + rate,
                        "-ac",
                        "2",
                        "-c:a",
                        codec,
                        "-b:a",
                        bitrate,
                        "-f",
                        "segment",
                        "-segment_time",
                        "1.5",
                        "-reset_timestamps",
                        "1",
                        "-segment_format",
                        ext.equals("aac") ? "adts" : "mp3",
                        dir.resolve("t%05d." + ext).toString()),
                600);
    }

    static int countFiles(Path dir, String suffix) throws IOException {
        return Files.isDirectory(dir) ? listFiles(dir, suffix).size() : 0;
    }

    static List<Path> listFiles(Path dir, String suffix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        Files.walkFileTree(
                dir,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                            throws IOException {
                        Files.deleteIfExists(file);
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(Path d, IOException exc)
                            throws IOException {
                        Files.deleteIfExists(d);
                        return FileVisitResult.CONTINUE;
                    }
                });
    }

    /** Total size of the files under a directory, in bytes (0 if it does not exist). */
    static long treeSize(Path dir) throws IOException {
        if (!Files.exists(dir)) return 0;
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile)
                    .mapToLong(
                            p -> {
                                try {
                                    return Files.size(p);
                                } catch (IOException e) {
                                    return 0;
                                }
                            })
                    .sum();
        }
    }

    /**
     * CPU seconds per second of audio from {@code ffmpeg -benchmark} (its own getrusage: "bench:
     * utime=…s stime=…s").
     */
    static double ffmpegCpuPerAudioSecond(List<String> args, double audioSeconds) {
        List<String> cmd =
                new ArrayList<>(List.of("ffmpeg", "-hide_banner", "-nostats", "-benchmark"));
        cmd.addAll(args);
        String out = run(cmd, 600);
        Matcher m = Pattern.compile("bench: utime=([0-9.]+)s stime=([0-9.]+)s").matcher(out);
        if (!m.find())
            throw new IllegalStateException("no 'bench:' line from ffmpeg -benchmark:\n" + out);
        return (Double.parseDouble(m.group(1)) + Double.parseDouble(m.group(2))) / audioSeconds;
    }

    // ---------------------------------------------------------------- memory

    /** A value of /proc/self/status in kB ("VmRSS", "VmHWM"...), or -1. */
    static long statusKb(String field) {
        return statusKb(Path.of("/proc/self/status"), field);
    }

    static long statusKb(Path statusFile, String field) {
        try {
            for (String line : Files.readAllLines(statusFile)) {
                if (line.startsWith(field + ":")) {
                    return Long.parseLong(
                            line.substring(field.length() + 1).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        return -1;
    }

    /** Heap used after a full collection (two System.gc() with a pause between), in bytes. */
    static long heapAfterGc() throws InterruptedException {
        System.gc();
        Thread.sleep(100);
        System.gc();
        Thread.sleep(100);
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Threads of this process, JVM threads included (/proc/self/task). */
    static int nativeThreads() {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/task"))) {
            return (int) s.count();
        } catch (IOException e) {
            return -1;
        }
    }

    /** Open file descriptors of this process. */
    static int openFds() {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return (int) s.count();
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * utime + stime of another process from /proc/PID/stat, in nanoseconds (10 ms steps), or -1.
     */
    static long processCpuNanos(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
