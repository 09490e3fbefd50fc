package org.groovecast.net.leaks;

import org.spockframework.runtime.extension.IGlobalExtension;
import org.spockframework.runtime.model.SpecInfo;

/**
 * Fails a Spock spec whose run left a Netty leak: Spock's global extensions are found through
 * META-INF/services, the JUnit extension's twin for the Spock engine.
 */
public final class LeakCheckSpockExtension implements IGlobalExtension {
    @Override
    public void visitSpec(SpecInfo spec) {
        String name = spec.getReflection().getName();
        spec.addInterceptor(
                invocation -> {
                    try {
                        invocation.proceed();
                    } catch (Throwable failure) {
                        try {
                            LeakCheck.afterTests(name);
                        } catch (AssertionError leaks) {
                            failure.addSuppressed(leaks);
                        }
                        throw failure;
                    }
                    LeakCheck.afterTests(name);
                });
    }
}
