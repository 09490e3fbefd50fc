package org.groovecast.host;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The rules the module arrows follow, checked on every module's main classes (host's test classpath
 * has them all): the build fails where an arrow turns back, rather than a reviewer noticing it.
 */
@AnalyzeClasses(packages = "org.groovecast", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    /**
     * VertxInternals and its nested classes: the one place allowed to reach into Vert.x's
     * internals.
     */
    private static final DescribedPredicate<JavaClass> VERTX_INTERNALS =
            DescribedPredicate.describe(
                    "org.groovecast.net.runtime.VertxInternals",
                    c ->
                            c.getName().equals("org.groovecast.net.runtime.VertxInternals")
                                    || c.getName()
                                            .startsWith(
                                                    "org.groovecast.net.runtime.VertxInternals$"));

    /**
     * A Vert.x upgrade that moves its internal API breaks one class, whose comment says why it is
     * used.
     */
    @ArchTest
    static final ArchRule vertxInternalsOnlyInVertxInternals =
            noClasses()
                    .that(DescribedPredicate.not(VERTX_INTERNALS))
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage("io.vertx..impl..", "io.vertx.core.internal..")
                    .because(
                            "Vert.x's internal API is reached through org.groovecast.net.runtime.VertxInternals only");

    /** The plugin contract: what a third party compiles against carries nothing of the engine. */
    @ArchTest
    static final ArchRule apiDependsOnNothingOfOurs =
            classes()
                    .that()
                    .resideInAPackage("org.groovecast.api..")
                    .should()
                    .onlyDependOnClassesThat()
                    .resideInAnyPackage(
                            "org.groovecast.api..", "java..", "org.pf4j..", "org.slf4j..")
                    .because("api/ is the plugin contract: the JDK, PF4J and SLF4J only");

    /** Plugins and the network layer are used by the engine, never the other way round. */
    @ArchTest
    static final ArchRule pluginsAndNetworkDoNotDependOnHost =
            noClasses()
                    .that()
                    .resideInAnyPackage(
                            "org.groovecast.net..",
                            "org.groovecast.core..",
                            "org.groovecast.ffmpeg..",
                            "org.groovecast.dsp..",
                            "org.groovecast.transitions..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage("org.groovecast.host..")
                    .because(
                            "host/ depends on the plugins' contract and on vertx-net, not they on host/");

    /**
     * The engine reaches the script languages through one seam, {@code ScriptFrontEnd}: outside the
     * script package nothing names the Groovy compiler or its script base class, so a station (run,
     * check, reload, --watch) takes every front end alike. The Liquidsoap front end, in a module of
     * its own, depends on host and is found with ServiceLoader; host cannot name it (Maven refuses
     * the cycle).
     */
    @ArchTest
    static final ArchRule theEngineLoadsScriptsThroughTheFrontEndSeam =
            noClasses()
                    .that()
                    .resideOutsideOfPackage("org.groovecast.host.script..")
                    .should()
                    .dependOnClassesThat()
                    .haveFullyQualifiedName("org.groovecast.host.script.ScriptCompiler")
                    .orShould()
                    .dependOnClassesThat()
                    .haveFullyQualifiedName("org.groovecast.host.script.StationScript")
                    .because(
                            "Station loads scripts through ScriptFrontEnd, whatever their language");

    /**
     * No package cycles: each package of ours is a slice ("(**)" captures the whole package name),
     * so a package and its subpackage depending on each other is a cycle too.
     */
    @ArchTest
    static final ArchRule noPackageCycles =
            slices().matching("org.groovecast.(**)")
                    .should()
                    .beFreeOfCycles()
                    .because(
                            "a package that needs the one that needs it cannot be understood, tested or moved alone");
}
