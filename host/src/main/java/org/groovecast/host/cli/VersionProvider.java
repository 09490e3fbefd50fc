package org.groovecast.host.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.groovecast.api.ApiVersion;
import picocli.CommandLine.IVersionProvider;

/**
 * The engine version from the jar manifest, with the plugin API version and the Java runtime: its
 * vendor and version, and whether it is the one bundled with the distribution ({@code runtime/}
 * beside {@code bin/}) or the machine's.
 */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        String home = System.getProperty("groovecast.home");
        return new String[] {
            "groovecast " + (v != null ? v : "development build"),
            "plugin API " + ApiVersion.CURRENT + ", Java " + Runtime.version(),
            runtime(
                    System.getProperty("java.vendor"),
                    System.getProperty("java.runtime.version"),
                    Path.of(System.getProperty("java.home")),
                    home != null ? Path.of(home) : null)
        };
    }

    /**
     * {@code runtime: VENDOR VERSION, bundled|system (JAVA_HOME)}: bundled when {@code javaHome} is
     * {@code runtime/} of the distribution at {@code home} (null when not run from one).
     */
    static String runtime(String vendor, String version, Path javaHome, Path home) {
        boolean bundled = home != null && same(javaHome, home.resolve("runtime"));
        return "runtime: "
                + vendor
                + " "
                + version
                + ", "
                + (bundled ? "bundled" : "system")
                + " ("
                + javaHome
                + ")";
    }

    private static boolean same(Path a, Path b) {
        try {
            return a.toRealPath().equals(b.toRealPath());
        } catch (IOException e) {
            return false; // a runtime/ that does not exist is not the one running
        }
    }
}
