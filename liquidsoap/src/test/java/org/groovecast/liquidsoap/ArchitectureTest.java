package org.groovecast.liquidsoap;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import org.groovecast.liquidsoap.prelude.Library;
import org.groovecast.liquidsoap.prelude.TypeCheck;

/**
 * The Liquidsoap front end's arrows: the language (lexer, parser, syntax, evaluator, prelude) knows
 * nothing of the engine, so it runs and is tested alone; only the engine package, the bridge, uses
 * host. Host never names this module (it finds it with ServiceLoader).
 */
@AnalyzeClasses(packages = "org.groovecast", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    @ArchTest
    static final ArchRule theLanguageKnowsNothingOfTheEngine =
            noClasses()
                    .that()
                    .resideInAnyPackage(
                            "org.groovecast.liquidsoap.lexer..",
                            "org.groovecast.liquidsoap.parser..",
                            "org.groovecast.liquidsoap.syntax..",
                            "org.groovecast.liquidsoap.eval..",
                            "org.groovecast.liquidsoap.prelude..",
                            "org.groovecast.liquidsoap.types..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(
                            "org.groovecast.host..",
                            "org.groovecast.api..",
                            "org.groovecast.net..",
                            "groovy..",
                            "org.codehaus.groovy..")
                    .because(
                            "the language runs without an engine: unit tests, the conformance bench");

    @ArchTest
    static final ArchRule theEngineDoesNotKnowTheLiquidsoapFrontEnd =
            noClasses()
                    .that()
                    .resideInAnyPackage(
                            "org.groovecast.host..", "org.groovecast.net..", "org.groovecast.api..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage("org.groovecast.liquidsoap..")
                    .because(
                            "host finds script front ends through ScriptFrontEnd and ServiceLoader");

    @ArchTest
    static final ArchRule onlyTheTypeCheckerKnowsTheTypeChecker =
            noClasses()
                    .that()
                    .resideOutsideOfPackage("org.groovecast.liquidsoap.types..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage("org.groovecast.liquidsoap.types..")
                    .because(
                            "the front end finds the type checker through the prelude's TypeCheck"
                                    + " hook and ServiceLoader, so the language runs without it");

    @ArchTest
    static final ArchRule theTypeCheckerReadsTheLanguageAndTheHookOnly =
            classes()
                    .that()
                    .resideInAPackage("org.groovecast.liquidsoap.types..")
                    .should()
                    .onlyDependOnClassesThat(
                            resideInAnyPackage(
                                            "org.groovecast.liquidsoap.types..",
                                            "org.groovecast.liquidsoap.syntax..",
                                            "org.groovecast.liquidsoap.parser..",
                                            "org.groovecast.liquidsoap.lexer..",
                                            "java..")
                                    .or(belongToAnyOf(TypeCheck.class, Library.class)))
                    .because(
                            "the type checker reads the syntax tree and the registry's (name,"
                                    + " type) pairs; the evaluator and the engine are not its"
                                    + " business");

    @ArchTest
    static final ArchRule noPackageCycles =
            slices().matching("org.groovecast.liquidsoap.(**)").should().beFreeOfCycles();
}
