package org.groovecast.net.leaks;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a JUnit 5 test class whose run left a Netty leak. Registered for every test class by
 * META-INF/services and junit.jupiter.extensions.autodetection.enabled (root pom).
 */
public final class LeakCheckExtension implements AfterAllCallback {
    @Override
    public void afterAll(ExtensionContext context) {
        LeakCheck.afterTests(context.getRequiredTestClass().getName());
    }
}
