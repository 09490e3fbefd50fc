package org.groovecast.net.harbor;

import org.groovecast.net.admission.AdmittedClients;
import org.groovecast.net.admission.MountAdmission;
import org.groovecast.net.harbor.files.StaticFiles;
import org.groovecast.net.harbor.http.HttpReply;

/**
 * A served directory's admission rules ({@code harbor.http.static(..., deny:, admit:,
 * maxListeners:, maxListenerDuration:)}) applied to each request for its files, as HLS players
 * fetch playlists and segments: the deny list on every request; the cap, the time limit and the
 * admit function per client ({@link AdmittedClients}), so that a listener is asked about once (a
 * token link's query on the first playlist, not on every segment) and counted once. Refusals are
 * answered on the kept-alive connection.
 */
final class StaticAdmission {
    private StaticAdmission() {}

    /** Runs {@code serve} (maybe later, on the loop) if {@code files}' rules let the client in. */
    static void screen(HarborConnection c, StaticFiles files, String prefix, Runnable serve) {
        MountAdmission rules = files.admission();
        if (ListenerAdmission.denied(c, rules, prefix, true)) return;
        if (rules.maxListeners() == 0 && rules.maxDurationNanos() == 0 && rules.admit() == null) {
            serve.run();
            return;
        }
        AdmittedClients clients = files.clients();
        String key =
                AdmittedClients.key(c.address().getHostAddress(), c.head().header("user-agent"));
        long now = System.nanoTime();
        AdmittedClients.Client known = clients.find(key, now);
        if (known != null) {
            if (rules.maxDurationNanos() > 0 && now - known.start() > rules.maxDurationNanos()) {
                c.reply(HttpReply.text(403, "listening time is over"));
                return;
            }
            serve.run();
            return;
        }
        int max = rules.maxListeners();
        if (clients.full(now, max)) {
            ListenerAdmission.full(c, prefix, max, true);
            return;
        }
        Runnable in =
                () -> {
                    if (clients.start(key, System.nanoTime(), max) == null)
                        ListenerAdmission.full(c, prefix, max, true);
                    else serve.run();
                };
        if (rules.admit() == null) in.run();
        else ListenerAdmission.ask(c, rules.admit(), prefix, true, in);
    }
}
