package org.groovecast.scripts.support

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * A private nginx with the RTMP module for a test: one process (no master, so SIGSTOP stops all of
 * it), its own config on a random port of 127.0.0.1 with a {@code live} application, in a
 * temporary directory; started and stopped by the test.
 */
final class NginxRtmp {
    final int port
    final Path dir
    /** The directives of its {@code live} application: an edge adds a {@code pull} (see RtmpEdgeSpec). */
    String application = 'live on;'
    private Process process

    NginxRtmp(int port = Net.freePort()) {
        this.port = port
        this.dir = Files.createTempDirectory('groovecast-nginx-')
    }

    NginxRtmp start() {
        Path conf = dir.resolve('nginx.conf')
        Files.writeString(conf, """\
            load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
            master_process off;
            daemon off;
            pid nginx.pid;
            error_log error.log;
            events { worker_connections 256; }
            rtmp {
              server {
                listen 127.0.0.1:${port};
                chunk_size 4096;
                application live { ${application} }
              }
            }""".stripIndent())
        process = new ProcessBuilder('nginx', '-c', conf.toString(), '-p', dir.toString(), '-e', 'error.log')
                .redirectErrorStream(true).redirectOutput(dir.resolve('out.txt').toFile()).start()
        assert Net.await(10) { listening() }: "nginx did not start: ${Files.readString(dir.resolve('out.txt'))}"
        this
    }

    long pid() {
        process.pid()
    }

    /** SIGSTOP: the process is frozen, its sockets stay open and stop being read. */
    void freeze() {
        signal('STOP')
    }

    void thaw() {
        signal('CONT')
    }

    private void signal(String name) {
        assert ['kill', "-${name}", pid().toString()].execute().waitFor() == 0
    }

    void stop() {
        if (process?.isAlive()) {
            thaw()
            process.destroy()
            process.waitFor(10, TimeUnit.SECONDS)
        }
        dir.toFile().deleteDir()
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
