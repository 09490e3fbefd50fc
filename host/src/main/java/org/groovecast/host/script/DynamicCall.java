package org.groovecast.host.script;

import groovy.lang.MissingMethodException;
import groovy.lang.MissingPropertyException;
import org.codehaus.groovy.runtime.InvokerHelper;
import org.codehaus.groovy.runtime.InvokerInvocationException;
import org.codehaus.groovy.runtime.metaclass.MissingMethodExceptionNoStack;
import org.codehaus.groovy.runtime.metaclass.MissingPropertyExceptionNoStack;

/**
 * A method called at run time on a value of unknown type, for the script's compiled code ({@link
 * DynamicOperators}, {@link IndexedValue}). Groovy's meta classes report a missing method or
 * property with an exception that carries no stack trace, for speed; made here again with one, it
 * names the script line that asked ({@code radio.groovy:7: ...}) instead of none.
 */
final class DynamicCall {
    private DynamicCall() {}

    static Object invoke(Object self, String method, Object arguments) {
        try {
            return InvokerHelper.invokeMethod(self, method, arguments);
        } catch (InvokerInvocationException e) {
            // Groovy's library method it chose failed inside (getAt of a property by name).
            throw withStack(e.getCause() instanceof RuntimeException r ? r : e);
        } catch (RuntimeException e) {
            throw withStack(e);
        }
    }

    private static RuntimeException withStack(RuntimeException e) {
        if (e instanceof MissingMethodExceptionNoStack m)
            return new MissingMethodException(
                    m.getMethod(), m.getType(), m.getArguments(), m.isStatic());
        if (e instanceof MissingPropertyExceptionNoStack p)
            return new MissingPropertyException(p.getProperty(), p.getType());
        return e;
    }
}
