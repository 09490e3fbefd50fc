package org.groovecast.host.cli;

import org.groovecast.api.ApiVersion;
import picocli.CommandLine.IVersionProvider;

/** The engine version from the jar manifest, with the plugin API version. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        return new String[] {
            "groovecast " + (v != null ? v : "development build"),
            "plugin API " + ApiVersion.CURRENT + ", Java " + Runtime.version()
        };
    }
}
