package org.groovecast.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.groovecast.liquidsoap.parser.ParsedScript;
import org.groovecast.liquidsoap.parser.Scripts;
import org.groovecast.liquidsoap.syntax.Arg;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.ListElement;
import org.groovecast.liquidsoap.syntax.Statement;
import org.groovecast.liquidsoap.syntax.SyntaxError;
import org.groovecast.liquidsoap.types.TypeChecker;
import org.groovecast.liquidsoap.types.TypeError;

/**
 * The type-checking parts of {@link LiquidsoapConformance}: (1) Liquidsoap's standard library
 * ({@code stdlib.liq} and its includes) checked against the builtin table, going on after a
 * statement that fails, with the files that check; (3) each case of {@code
 * tests/language/type_errors.liq} accepted or refused as Liquidsoap does, in the scope the library
 * leaves.
 */
final class LiquidsoapTypeConformance {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Path checkout;
    private final boolean verbose;
    private final LiquidsoapBuiltinTable table;
    private final TypeChecker checker;
    private TypeChecker.Checked library;

    LiquidsoapTypeConformance(Path checkout, boolean verbose) throws IOException {
        this.checkout = checkout;
        this.verbose = verbose;
        this.table = LiquidsoapBuiltinTable.load();
        this.checker = TypeChecker.of(table);
    }

    /**
     * Step (1): the library checked, as Liquidsoap loads it: stdlib.liq with its includes, then
     * extra/deprecations.liq in what they define; prints its rows.
     */
    void library() throws IOException {
        Path stdlib = checkout.resolve("src/libs/stdlib.liq");
        Path deprecations = checkout.resolve("src/libs/extra/deprecations.liq");
        ParsedScript script;
        ParsedScript deprecated;
        try {
            script = Scripts.parse(stdlib);
            deprecated =
                    java.nio.file.Files.exists(deprecations) ? Scripts.parse(deprecations) : null;
        } catch (SyntaxError e) {
            row("type-check", "not done: " + e.getMessage());
            return;
        }
        long start = cpu();
        TypeChecker.Report report = checker.checkEach(script, null);
        List<TypeError> errors = new ArrayList<>(report.errors());
        library = report.checked();
        int files = script.files().size();
        if (deprecated != null) {
            TypeChecker.Report more = checker.checkEach(deprecated, library);
            errors.addAll(more.errors());
            library = more.checked();
            files += deprecated.files().size();
        }
        long cpuNs = cpu() - start;
        report = new TypeChecker.Report(errors, library);
        Map<Path, Integer> errorsByFile = new TreeMap<>();
        for (TypeError e : report.errors()) {
            errorsByFile.merge(Path.of(e.span().file()), 1, Integer::sum);
        }
        int clean = files - errorsByFile.size();
        row(
                "type-checked, with deprecations.liq",
                String.format(
                        Locale.ROOT,
                        "%d / %d files check (%.1f %%), %d statements refused",
                        clean,
                        files,
                        100.0 * clean / files,
                        report.errors().size()));
        row(
                "builtin table",
                String.format(
                        "%d OCaml builtins (%d of them typed 'a), %d more not there taken as 'a",
                        table.size(), table.typedAnything(), table.placeholders().size()));
        row("first check", String.format(Locale.ROOT, "%.0f ms CPU (cold)", cpuNs / 1e6));
        for (TypeError e : report.errors()) {
            if (verbose || report.errors().size() <= 40) {
                System.out.printf("  %s%n", shorten(e.getMessage()));
            }
        }
        if (!verbose && report.errors().size() > 40) {
            System.out.println("  (--verbose lists the refused statements)");
        }
        if (verbose) System.out.println("  typed 'a: " + table.placeholders());
    }

    /** A case of type_errors.liq: the script and whether Liquidsoap accepts it. */
    record Case(String section, String text, boolean correct) {}

    /** Step (3): the type_errors cases; prints their rows. */
    void typeErrors() throws IOException {
        Path file = checkout.resolve("tests/language/type_errors.liq");
        List<Case> cases;
        try {
            cases = cases(Scripts.parse(file));
        } catch (SyntaxError e) {
            row("cases agreeing", "not done: " + e.getMessage());
            return;
        }
        Map<String, int[]> bySection = new LinkedHashMap<>();
        int agree = 0;
        List<String> disagreements = new ArrayList<>();
        for (Case c : cases) {
            String outcome = outcome(c.text());
            boolean accepted = outcome == null;
            boolean agrees = accepted == c.correct();
            if (agrees) agree++;
            int[] counts = bySection.computeIfAbsent(c.section(), k -> new int[2]);
            counts[0] += agrees ? 1 : 0;
            counts[1]++;
            if (!agrees || verbose) {
                disagreements.add(
                        String.format(
                                "%s %s %s: %s",
                                agrees ? "  ok " : "  NO ",
                                c.correct() ? "correct  " : "incorrect",
                                oneLine(c.text()),
                                accepted ? "accepted" : "refused: " + outcome));
            }
        }
        row(
                "cases agreeing",
                String.format(
                        Locale.ROOT,
                        "%d / %d (%.1f %%)",
                        agree,
                        cases.size(),
                        cases.isEmpty() ? 0 : 100.0 * agree / cases.size()));
        for (var e : bySection.entrySet()) {
            row("  " + e.getKey(), e.getValue()[0] + " / " + e.getValue()[1]);
        }
        disagreements.forEach(System.out::println);
    }

    /**
     * Step (3) again through the real front end: each case checked as a station's script is, by
     * {@code LiquidsoapFrontEnd} against Groovecast's own library and the shipped plugins'
     * operators; a refusal for a name Groovecast does not have is counted apart.
     */
    void typeErrorsThroughTheFrontEnd() throws IOException {
        Path file = checkout.resolve("tests/language/type_errors.liq");
        List<Case> cases;
        try {
            cases = cases(Scripts.parse(file));
        } catch (SyntaxError e) {
            row("cases agreeing", "not done: " + e.getMessage());
            return;
        }
        int agree = 0;
        int missing = 0;
        int missingAgreeing = 0;
        List<String> lines = new ArrayList<>();
        try (LiquidsoapStationCheck station = new LiquidsoapStationCheck()) {
            for (Case c : cases) {
                String refusal = station.refusal("case.liq", c.text());
                boolean agrees = (refusal == null) == c.correct();
                boolean unknown =
                        refusal != null
                                && (refusal.contains("unknown function")
                                        || refusal.contains("unknown variable")
                                        || refusal.contains("Undefined variable"));
                if (agrees) agree++;
                if (unknown) {
                    missing++;
                    if (agrees) missingAgreeing++;
                }
                if (!agrees || verbose) {
                    lines.add(
                            String.format(
                                    "%s %s %s: %s",
                                    agrees ? "  ok " : "  NO ",
                                    c.correct() ? "correct  " : "incorrect",
                                    oneLine(c.text()),
                                    refusal == null ? "accepted" : "refused: " + shorten(refusal)));
                }
            }
        }
        row(
                "cases agreeing (the front end)",
                String.format(
                        Locale.ROOT,
                        "%d / %d (%.1f %%)",
                        agree,
                        cases.size(),
                        cases.isEmpty() ? 0 : 100.0 * agree / cases.size()));
        row(
                "  refused for a name Groovecast lacks",
                String.format(
                        "%d (%d of them incorrect cases, so agreeing)", missing, missingAgreeing));
        lines.forEach(System.out::println);
    }

    /** Null when the case is accepted, else why it is refused. */
    private String outcome(String text) {
        try {
            ParsedScript s = Scripts.parse("case.liq", text, checkout, List.of());
            checker.check(s, library);
            return null;
        } catch (SyntaxError | TypeError e) {
            return shorten(e.getMessage());
        }
    }

    /**
     * The calls {@code correct('...')} and {@code incorrect('...')} of the file, in order, under
     * the last {@code section("...")}; a template {@code "%#{format}mono)"} applied to a list is
     * expanded for each of the list's strings, as the file's {@code list.iter} does.
     */
    static List<Case> cases(ParsedScript script) {
        List<Case> out = new ArrayList<>();
        Map<String, List<String>> lists = new LinkedHashMap<>();
        collectLists(script.program(), lists);
        walk(script.program(), new String[] {""}, out, lists);
        return out;
    }

    private static void collectLists(Expr e, Map<String, List<String>> lists) {
        Walk.each(
                e,
                s -> {
                    if (s instanceof Statement.Let l
                            && l.pattern() instanceof org.groovecast.liquidsoap.syntax.Pattern.Var v
                            && l.value() instanceof Expr.ListLit list) {
                        List<String> strings = new ArrayList<>();
                        for (ListElement el : list.elements()) {
                            if (el instanceof ListElement.Item i
                                    && i.value() instanceof Expr.StringLit str) {
                                strings.add(str.text());
                            }
                        }
                        lists.put(v.name(), strings);
                    }
                });
    }

    private static void walk(
            Expr program, String[] section, List<Case> out, Map<String, List<String>> lists) {
        Walk.each(
                program,
                s -> {
                    if (!(s instanceof Expr.Call call)
                            || !(call.function() instanceof Expr.Var f)
                            || call.args().size() != 1
                            || !(call.args().getFirst() instanceof Arg.Positional arg)) {
                        return;
                    }
                    switch (f.name()) {
                        case "section" -> {
                            if (arg.value() instanceof Expr.StringLit str) {
                                section[0] = str.text().trim();
                            }
                        }
                        case "correct", "incorrect" -> {
                            boolean correct = f.name().equals("correct");
                            for (String text : texts(arg.value(), lists)) {
                                out.add(new Case(section[0], text, correct));
                            }
                        }
                        default -> {}
                    }
                });
    }

    /** A case's text: a string, or a template over a list of strings. */
    private static List<String> texts(Expr e, Map<String, List<String>> lists) {
        if (e instanceof Expr.StringLit s) return List.of(s.text());
        if (e instanceof Expr.InterpolatedString i) {
            for (List<String> values : lists.values()) {
                List<String> out = new ArrayList<>();
                for (String value : values) {
                    StringBuilder b = new StringBuilder();
                    for (Expr part : i.parts()) {
                        b.append(part instanceof Expr.StringLit s ? s.text() : value);
                    }
                    out.add(b.toString());
                }
                if (!out.isEmpty()) return out;
            }
        }
        return List.of();
    }

    private String shorten(String message) {
        String prefix = checkout.resolve("src/libs") + "/";
        message = message.replace(prefix, "");
        return message.length() > 220 ? message.substring(0, 220) + "..." : message;
    }

    private static String oneLine(String text) {
        String s = text.replaceAll("\\s+", " ").trim();
        return s.length() > 70 ? s.substring(0, 70) + "..." : s;
    }

    private static void row(String what, String value) {
        System.out.printf("  %-36s %s%n", what, value);
    }

    private static long cpu() {
        return THREADS.getCurrentThreadCpuTime();
    }
}
