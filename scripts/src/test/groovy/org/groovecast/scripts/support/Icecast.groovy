package org.groovecast.scripts.support

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * A private icecast2 server for a test: its own config (random port, 127.0.0.1 only, its own
 * passwords) in a temporary directory, started and stopped by the test.
 */
final class Icecast {
    static final String SOURCE_PASSWORD = 'srcpw'
    final int port
    final Path dir
    /** More of the listen socket's config (a {@code <shoutcast-mount>}), set before {@link #start}. */
    String listenExtra = ''
    /** More of {@code <authentication>} (a relay user), set before {@link #start}. */
    String authExtra = ''
    /** More top-level config ({@code <relay>}, {@code <master-server>}), set before {@link #start}. */
    String configExtra = ''
    /** More of {@code <paths>} (an {@code <ssl-certificate>}), set before {@link #start}. */
    String pathsExtra = ''
    /** The SSL listen socket's port, once {@link #withSsl} added one; status checks use the plain {@link #port}. */
    int sslPort
    private Process process

    /** In a directory of its own that the server's user can reach (test temp dirs are private to root). */
    Icecast(int port = Net.freePort()) {
        this.dir = Files.createTempDirectory('groovecast-icecast-')
        this.port = port
    }

    /** Adds an SSL listen socket on a port of its own, serving the certificate and key in {@code pem}. */
    Icecast withSsl(Path pem) {
        sslPort = Net.freePort()
        Path cert = Files.copy(pem, dir.resolve('server.pem'))
        configExtra += "<listen-socket><port>${sslPort}</port><bind-address>127.0.0.1</bind-address><ssl>1</ssl></listen-socket>"
        pathsExtra += "<ssl-certificate>${cert}</ssl-certificate>"
        this
    }

    Icecast start() {
        Path log = dir.resolve('log')
        Files.createDirectories(log)
        // icecast2 refuses to run as root unless it changes owner: let that user write its logs.
        ['chmod', '-R', '777', dir.toString()].execute().waitFor()
        boolean root = 'id -u'.execute().text.trim() == '0'
        Path conf = dir.resolve('icecast.xml')
        Files.writeString(conf, """\
            <icecast>
              <limits><sources>8</sources><clients>300</clients></limits>
              <authentication>
                <source-password>${SOURCE_PASSWORD}</source-password>
                <admin-user>admin</admin-user><admin-password>adminpw</admin-password>${authExtra}
              </authentication>
              <location>test</location><admin>test@localhost</admin>
              <hostname>127.0.0.1</hostname>
              <listen-socket><port>${port}</port><bind-address>127.0.0.1</bind-address>${listenExtra}</listen-socket>${configExtra}
              <paths><basedir>/usr/share/icecast2</basedir><logdir>${log}</logdir>
                <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot>${pathsExtra}</paths>
              <logging><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
              <security><chroot>0</chroot>${root ? '<changeowner><user>nobody</user><group>nogroup</group></changeowner>' : ''}</security>
            </icecast>""".stripIndent())
        process = new ProcessBuilder('icecast2', '-c', conf.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve('out.txt').toFile()).start()
        // icecast2 2.4.4 asked for anything in its first moments sometimes dies of a segmentation fault
        // (7 of 510 starts asked at once and every 50 ms; none of 450 first asked 0.3 or 0.5 s after the
        // start), and its first answers can be {"icestats":"server_start":...}, invalid JSON without
        // the server's own fields (StatusSpec parses the first answer): it is left alone for half a
        // second, then ready when those fields are in.
        Thread.sleep(500)
        if (!Net.await(10) { status()?.startsWith('{"icestats":{') }) {
            process.destroyForcibly()
            assert process.waitFor(10, TimeUnit.SECONDS)
            assert false: "icecast2 did not start (exit ${process.exitValue()}): ${Files.readString(dir.resolve('out.txt'))}"
        }
        this
    }

    /** Freezes the server (SIGSTOP): it keeps its connections and accepts new ones, but reads and answers nothing. */
    void pause() {
        assert ['kill', '-STOP', process.pid().toString()].execute().waitFor() == 0
    }

    /** Lets a paused server go on (SIGCONT). */
    void resume() {
        assert ['kill', '-CONT', process.pid().toString()].execute().waitFor() == 0
    }

    /** Stops the server as an operator would (SIGTERM): icecast2 takes about 1.5 s to close. */
    void stop() {
        resume()
        process?.destroy()
        process?.waitFor(10, TimeUnit.SECONDS)
        dir.toFile().deleteDir()
    }

    /**
     * Ends the server at once (SIGKILL), for a test's cleanup, where nothing is checked any more:
     * {@link #stop}'s 1.5 s, twenty times in the suite, were half a minute of waiting.
     */
    void kill() {
        process?.destroyForcibly()
        process?.waitFor(10, TimeUnit.SECONDS)
        dir.toFile().deleteDir()
    }

    /** status-json.xsl, or null while the server is not answering. */
    String status() {
        try {
            def c = new URL("http://127.0.0.1:${port}/status-json.xsl").openConnection()
            c.connectTimeout = 500
            c.readTimeout = 1000
            c.inputStream.text
        } catch (IOException ignored) {
            null
        }
    }

    boolean hasMount(String mount) {
        status()?.contains("\"listenurl\":\"http://127.0.0.1:${port}${mount}\"")
    }
}
