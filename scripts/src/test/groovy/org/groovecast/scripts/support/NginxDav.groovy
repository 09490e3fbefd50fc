package org.groovecast.scripts.support

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * A private nginx as an HLS origin for a test: the WebDAV module takes PUT and DELETE under
 * {@code /live/} into {@link #root}, and serves the files back by GET, on a random port of
 * 127.0.0.1; one process (no master), its config and files in a temporary directory. While
 * {@link #failing} it answers every request with 500 (the tests run as root, whom an unwritable
 * directory would not stop).
 */
final class NginxDav {
    final int port
    final Path dir
    /** What {@code http://127.0.0.1:port/} serves: {@code /live/x} is {@code root/live/x}. */
    final Path root
    private Process process

    NginxDav(int port = Net.freePort()) {
        this.port = port
        this.dir = Files.createTempDirectory('groovecast-dav-')
        this.root = Files.createDirectories(dir.resolve('www'))
        Files.createDirectories(dir.resolve('tmp'))
    }

    /** The origin's URL of a path under {@code /live/}. */
    String url(String path = '') {
        "http://127.0.0.1:${port}/live/${path}"
    }

    /** The origin's directory of a path under {@code /live/}. */
    Path live(String path = '') {
        root.resolve('live').resolve(path)
    }

    /** The location block docs/guide/scaling-out.md shows, word for word. */
    static String location(Path root) {
        """\
            location /live/ {
              root ${root};
              dav_methods PUT DELETE;
              create_full_put_path on;
              dav_access user:rw group:r all:r;
            }""".stripIndent()
    }

    NginxDav start() {
        Path conf = writeConfig()
        process = new ProcessBuilder('nginx', '-c', conf.toString(), '-p', dir.toString(), '-e', 'error.log')
                .redirectErrorStream(true).redirectOutput(dir.resolve('out.txt').toFile()).start()
        assert Net.await(10) { listening() }: "nginx did not start: ${Files.readString(dir.resolve('out.txt'))}"
        this
    }

    private Path writeConfig() {
        Path conf = dir.resolve('nginx.conf')
        Files.writeString(conf, """\
            master_process off;
            daemon off;
            pid nginx.pid;
            error_log error.log;
            events { worker_connections 256; }
            http {
              log_format dav '\$connection \$request_method \$uri \$status \$http_authorization';
              access_log access.log dav;
              client_body_temp_path ${dir.resolve('tmp')};
              proxy_temp_path ${dir.resolve('tmp')};
              fastcgi_temp_path ${dir.resolve('tmp')};
              uwsgi_temp_path ${dir.resolve('tmp')};
              scgi_temp_path ${dir.resolve('tmp')};
              types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; video/mp4 mp4 m4s; }
              server {
                listen 127.0.0.1:${port};
                if (-f ${dir.resolve('failing')}) { return 500; }
${location(root).readLines().collect { '                ' + it }.join('\n')}
              }
            }""".stripIndent())
        conf
    }

    /** Stops the process; the files stay (see {@link #delete}). */
    void stop() {
        if (process?.isAlive()) {
            process.destroy()
            process.waitFor(10, TimeUnit.SECONDS)
        }
        assert Net.await(10) { !listening() }
    }

    void delete() {
        stop()
        dir.toFile().deleteDir()
    }

    /**
     * The requests served so far, from the access log: [connection: 3, method: 'PUT', uri: '/live/x',
     * status: 201, authorization: 'Bearer x'] (the connection is nginx's serial number for it).
     */
    List<Map> requests() {
        Path log = dir.resolve('access.log')
        if (!Files.exists(log)) return []
        Files.readAllLines(log).findAll { !it.isBlank() }.collect { line ->
            String[] f = line.split(' ', 5)
            [connection: f[0] as long, method: f[1], uri: f[2], status: f[3] as int, authorization: f[4]]
        }
    }

    /** From now on every request is answered 500, or no longer ({@code false}): a flag file the config tests for. */
    void failing(boolean on) {
        if (on) Files.writeString(dir.resolve('failing'), '')
        else Files.deleteIfExists(dir.resolve('failing'))
    }

    private boolean listening() {
        try {
            new Socket('127.0.0.1', port).close()
            true
        } catch (IOException ignored) {
            false
        }
    }
}
