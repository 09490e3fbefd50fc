import java.util.Locale;

/** One row of the soak's CSV: the station and its peers at one moment. */
record Sample(double t, double rssMb, double heapAfterGcMb, long gcMillis, int threads, int fds, double registrations, double cpuPct,
              double listeners, int steadyConnected, double steadyMinKbps, int icecastConnected, long churnConnects,
              long churnUnexpected, int djOnAir, int reloads, long errors, long warnings, int rtmpOk, int hlsFiles,
              long hlsSequence) {

    static final String HEADER = "t_s,rss_mb,heap_after_gc_mb,gc_ms,threads,fds,registrations,cpu_pct,listeners,"
            + "steady_connected,steady_min_kbps,icecast_connected,churn_connects,churn_unexpected,dj_on_air,reloads,"
            + "errors,warnings,rtmp_ok,hls_files,hls_sequence";

    String csv() {
        return String.format(Locale.ROOT, "%.1f,%.1f,%.2f,%d,%d,%d,%.0f,%.1f,%.0f,%d,%.1f,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d",
                t, rssMb, heapAfterGcMb, gcMillis, threads, fds, registrations, cpuPct, listeners, steadyConnected, steadyMinKbps,
                icecastConnected, churnConnects, churnUnexpected, djOnAir, reloads, errors, warnings, rtmpOk, hlsFiles,
                hlsSequence);
    }

    String line() {
        return String.format(Locale.ROOT, "t=%4.0fs  rss %.0f MB  heap %.1f MB (gc %d ms)  threads %d  fds %d  callbacks %.0f  cpu %.1f %%"
                        + "  listeners %.0f  steady %d  icecast %d  dj %s  reloads %d  errors %d  warnings %d  rtmp ok %d",
                t, rssMb, heapAfterGcMb, gcMillis, threads, fds, registrations, cpuPct, listeners, steadyConnected, icecastConnected,
                djOnAir == 1 ? "on" : "off", reloads, errors, warnings, rtmpOk);
    }
}
