package org.groovecast.api;

import java.util.List;
import org.pf4j.ExtensionPoint;

/**
 * The extension point of operator plugins: mark an implementation with PF4J's {@code @Extension}
 * and it contributes its operators to every station script.
 */
public interface OperatorProvider extends ExtensionPoint {
    /** The operators this provider declares, with their script names and parameters. */
    List<OperatorSpec> operators();
}
