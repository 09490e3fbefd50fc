package org.groovecast.net;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The packages of the network layer depend one way: the root's wiring (Network and the script
 * operators) on the protocols, the protocols on the utilities, never back. A cycle means a package
 * can be neither understood nor changed without the others in it.
 */
class PackageCyclesTest {
    /**
     * One slice per package, the root org.groovecast.net included: a pattern such as
     * "org.groovecast.net.(**)" would leave the root out, and it is the root that the cycles went through.
     */
    private static final SliceAssignment EACH_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            return c.getPackageName().equals("org.groovecast.net") || c.getPackageName().startsWith("org.groovecast.net.")
                    ? SliceIdentifier.of(c.getPackageName()) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "each package of org.groovecast.net";
        }
    };

    @Test
    void packagesAreFreeOfCycles() {
        // The importer logs every class it reads at DEBUG, a thousand lines in the build's output (the
        // tests have no logback configuration, so DEBUG is on); restored for the tests that follow.
        Logger archUnit = (Logger) LoggerFactory.getLogger("com.tngtech.archunit");
        Level before = archUnit.getLevel();
        archUnit.setLevel(Level.INFO);
        JavaClasses classes;
        try {
            classes = new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("org.groovecast.net");
        } finally {
            archUnit.setLevel(before);
        }
        slices().assignedFrom(EACH_PACKAGE).should().beFreeOfCycles().check(classes);
    }
}
