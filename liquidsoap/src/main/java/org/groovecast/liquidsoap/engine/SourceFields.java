package org.groovecast.liquidsoap.engine;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.DoubleSupplier;
import org.groovecast.api.Metadata;
import org.groovecast.api.Registration;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;
import org.groovecast.host.clock.Clock;
import org.groovecast.host.script.ClosureFunction;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Env;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Hooks;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;

/**
 * The fields of the engine's values as Liquidsoap scripts call them: a source's methods ({@code
 * s.skip()}, {@code s.on_metadata(f)}, {@code s.id()}, {@code s.is_ready()}...), and the methods an
 * operator declares on what it returns ({@code q.push(r)} on a request queue), found by the naming
 * rule ({@code flush_and_skip} is {@code flushAndSkip}).
 */
final class SourceFields implements Hooks {
    private static final Set<String> SOURCE_METHODS =
            Set.of(
                    "id",
                    "is_ready",
                    "is_active",
                    "is_up",
                    "fallible",
                    "skip",
                    "on_metadata",
                    "on_track",
                    "on_position",
                    "on_frame",
                    "on_shutdown",
                    "on_wake_up",
                    "last_metadata",
                    "remaining",
                    "elapsed",
                    "insert_metadata",
                    "self_sync");

    /**
     * The methods every source has, in Liquidsoap's type syntax, as this class implements them
     * (Liquidsoap's own signatures: a callback's {@code synchronous} is required, {@code fallible}
     * is a value); what registers a callback answers a value with {@code release()}.
     */
    static final String METHODS_TYPE =
            "id : () -> string, is_ready : () -> bool, is_active : () -> bool, is_up : () -> bool,"
                    + " fallible : bool, self_sync : () -> bool, skip : () -> unit, last_metadata"
                    + " : () -> [(string * string)]?, remaining : () -> float, elapsed : () ->"
                    + " float, insert_metadata : (?new_track : bool, [(string * string)]) -> unit,"
                    + " on_metadata : (synchronous : bool, ([(string * string)]) -> unit) ->"
                    + " {release : () -> unit}, on_track : (synchronous : bool, ([(string *"
                    + " string)]) -> unit) -> {release : () -> unit}, on_position :"
                    + " (synchronous : bool, ?remaining : bool, ?allow_partial : bool, position :"
                    + " {float}, (float, [(string * string)]) -> unit) -> {release : () ->"
                    + " unit}, on_frame : (?before : bool, synchronous : bool, () -> unit) ->"
                    + " {release : () -> unit}, on_shutdown : (synchronous : bool, () ->"
                    + " unit) -> unit, on_wake_up : (synchronous : bool, () -> unit) -> unit";

    private final EngineValues values;
    private final DoubleSupplier samplerate;
    private final Encoders encoders;

    SourceFields(EngineValues values, DoubleSupplier samplerate, Encoders encoders) {
        this.values = values;
        this.samplerate = samplerate;
        this.encoders = encoders;
    }

    @Override
    public boolean encoderAvailable(String name) {
        return encoders.available(name);
    }

    /**
     * A time predicate's time: on a clock (a {@code switch} predicate, a frame callback) the
     * station's time, as the engine's own time conditions read it (its zone, {@code
     * clock.startTime}); elsewhere the wall clock's. A compound predicate ({@code { (1w or 5w) and
     * 6h-10h }}, as AzuraCast writes its schedules) would otherwise read the wall clock while the
     * plain {@code { 6h-10h }} beside it reads the station's.
     */
    @Override
    public ZonedDateTime now() {
        Clock clock = Clock.ticking();
        return clock != null ? clock.now() : ZonedDateTime.now();
    }

    @Override
    public Object field(Object value, String name) {
        if (value instanceof Source s) {
            Object f = sourceMethod(s, name);
            if (f != Env.MISSING) return f;
            Object c = ConnectionCallbacks.method(s, name, this::userFunction);
            if (c != null) return c;
        }
        return isEngineObject(value) ? declaredMethod(value, name) : Env.MISSING;
    }

    /**
     * Whether the methods of {@code value} are fields: an object of the engine or a plugin (a
     * queue, a request), not a value of the language itself (a number, a string, a tuple, a
     * record), whose Java methods a script must not see ({@code {...x}} spreads only x's fields).
     */
    private static boolean isEngineObject(Object value) {
        String c = value.getClass().getName();
        return !c.startsWith("java.") && !c.startsWith("org.groovecast.liquidsoap.");
    }

    @Override
    public Set<String> fieldNames(Object value) {
        Set<String> out = new TreeSet<>();
        if (value instanceof Source) out.addAll(SOURCE_METHODS);
        if (!isEngineObject(value)) return out;
        for (Method m : value.getClass().getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) continue;
            if (m.getDeclaringClass() != Object.class
                    && !m.getDeclaringClass().isAssignableFrom(Source.class)) {
                out.add(OperatorNames.toLiquidsoap(m.getName()));
            }
        }
        return out;
    }

    /** Calls the method {@code name} of {@code s}. */
    Object call(Source s, String name, org.groovecast.liquidsoap.eval.Call call) {
        Object f = sourceMethod(s, name);
        if (!(f instanceof Fn fn)) throw Errors.invalid("a source has no method " + name);
        return fn.apply(call);
    }

    private Object sourceMethod(Source s, String name) {
        return switch (name) {
            case "id" -> fn("source.id", 0, a -> s.id());
            case "is_ready" -> fn("source.is_ready", 0, a -> s.isReady());
            case "is_active" -> fn("source.is_active", 0, a -> s.isActive());
            case "is_up" -> fn("source.is_up", 0, a -> true);
            case "fallible" -> s.isFallible();
            case "self_sync" -> fn("source.self_sync", 0, a -> false);
            case "skip" ->
                    fn(
                            "source.skip",
                            0,
                            a -> {
                                s.skip();
                                return Tuple.UNIT;
                            });
            case "last_metadata" ->
                    fn(
                            "source.last_metadata",
                            0,
                            a -> {
                                Metadata m = s.lastMetadata();
                                return m == null ? null : EngineValues.pairs(m);
                            });
            case "remaining" ->
                    fn(
                            "source.remaining",
                            0,
                            a -> {
                                long r = s.remaining();
                                return r < 0 ? -1.0 : r / samplerate.getAsDouble();
                            });
            case "elapsed" ->
                    fn("source.elapsed", 0, a -> s.trackPosition() / samplerate.getAsDouble());
            case "insert_metadata" ->
                    Builtin.of(
                            "source.insert_metadata",
                            List.of(
                                    new Parameter("new_track", true, false),
                                    Parameter.positional()),
                            a -> {
                                s.insertMetadata(EngineValues.metadata(a.get(1)));
                                return Tuple.UNIT;
                            });
            case "on_metadata", "on_track" ->
                    Builtin.of(
                            "source." + name,
                            List.of(
                                    new Parameter("synchronous", true, true),
                                    Parameter.positional()),
                            a -> {
                                UserFunction f = userFunction(a.fn(1));
                                java.util.function.Consumer<Metadata> handler =
                                        a.bool(0) ? f::call : new OffClock(f);
                                Registration r =
                                        name.equals("on_track")
                                                ? s.onTrack(handler)
                                                : s.onMetadata(handler);
                                return registration(r);
                            });
            case "on_position" ->
                    Builtin.of(
                            "source.on_position",
                            List.of(
                                    new Parameter("synchronous", true, true),
                                    new Parameter("remaining", true, false),
                                    new Parameter("allow_partial", true, true),
                                    new Parameter("position", false, null),
                                    Parameter.positional()),
                            a -> {
                                UserFunction f = userFunction(a.fn(4));
                                double position = ((Number) Values.base(a.getter(3))).doubleValue();
                                // Liquidsoap's callback gets the track's position and its metadata
                                return registration(
                                        s.onPosition(
                                                position,
                                                a.bool(1),
                                                m ->
                                                        f.call(
                                                                s.trackPosition()
                                                                        / samplerate.getAsDouble(),
                                                                m)));
                            });
            case "on_frame" ->
                    Builtin.of(
                            "source.on_frame",
                            List.of(
                                    new Parameter("before", true, true),
                                    new Parameter("synchronous", true, true),
                                    Parameter.positional()),
                            a -> {
                                UserFunction f = userFunction(a.fn(2));
                                return registration(s.onFrame(a.bool(0), () -> f.call()));
                            });
            case "on_shutdown", "on_wake_up" ->
                    Builtin.of(
                            "source." + name,
                            List.of(
                                    new Parameter("synchronous", true, true),
                                    Parameter.positional()),
                            a -> Tuple.UNIT);
            default -> Env.MISSING;
        };
    }

    /**
     * The script's function as the engine's own API calls it, failures logged once at its place.
     */
    private UserFunction userFunction(Fn f) {
        return ClosureFunction.of(values.closure(f));
    }

    private static Object registration(Registration r) {
        return Rec.with(
                Tuple.UNIT,
                "release",
                Builtin.of(
                        "release",
                        List.of(),
                        a -> {
                            r.release();
                            return Tuple.UNIT;
                        }));
    }

    private static Builtin fn(String name, int arity, Builtin.Body body) {
        List<Parameter> params = new ArrayList<>();
        for (int i = 0; i < arity; i++) params.add(Parameter.positional());
        return Builtin.of(name, params, body);
    }

    /**
     * A public method of an engine object by the naming rule ({@code q.push(uri)}, {@code
     * q.flush_and_skip()}), or one of its getters ({@code r.status} for {@code getStatus()}).
     */
    private Object declaredMethod(Object value, String name) {
        String camel = OperatorNames.toGroovecast(name);
        if (value instanceof org.groovecast.api.Queued && name.equals("push")) {
            return Builtin.of(
                    "queue.push",
                    List.of(Parameter.positional()),
                    a -> {
                        Object r = Values.base(a.get(0));
                        String uri = r instanceof LiqRequest q ? q.uri() : String.valueOf(r);
                        return invoke(value, "push", new Object[] {uri});
                    });
        }
        List<Method> candidates = new ArrayList<>();
        for (Method m : value.getClass().getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.getDeclaringClass() == Object.class)
                continue;
            if (m.getName().equals(camel)) candidates.add(m);
        }
        if (!candidates.isEmpty()) {
            int max = candidates.stream().mapToInt(Method::getParameterCount).max().orElse(0);
            List<Parameter> params = new ArrayList<>();
            int min = candidates.stream().mapToInt(Method::getParameterCount).min().orElse(0);
            for (int i = 0; i < max; i++) params.add(new Parameter("", i >= min, null));
            return Builtin.of(
                    name,
                    params,
                    a -> {
                        List<Object> args = new ArrayList<>();
                        for (int i = 0; i < a.size(); i++) if (a.given(i)) args.add(a.get(i));
                        return invoke(value, camel, args.toArray());
                    });
        }
        String getter = "get" + Character.toUpperCase(camel.charAt(0)) + camel.substring(1);
        try {
            Method m = value.getClass().getMethod(getter);
            return EngineValues.toLiquidsoap(m.invoke(value));
        } catch (NoSuchMethodException e) {
            return Env.MISSING;
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw Errors.invalid(name + ": " + e.getCause());
        }
    }

    private Object invoke(Object target, String method, Object[] args) {
        for (Method m : target.getClass().getMethods()) {
            if (!m.getName().equals(method) || m.getParameterCount() != args.length) continue;
            Object[] converted = new Object[args.length];
            boolean fits = true;
            Class<?>[] types = m.getParameterTypes();
            for (int i = 0; i < args.length && fits; i++) {
                converted[i] = convert(args[i], types[i]);
                fits = converted[i] != NO_FIT;
            }
            if (!fits) continue;
            try {
                m.setAccessible(true);
                return EngineValues.toLiquidsoap(unit(m.invoke(target, converted), m));
            } catch (IllegalAccessException e) {
                throw Errors.invalid(method + ": " + e.getMessage());
            } catch (InvocationTargetException e) {
                Throwable c = e.getCause();
                throw Errors.invalid(
                        method + ": " + (c.getMessage() == null ? c.toString() : c.getMessage()));
            }
        }
        throw Errors.invalid(method + " does not take these arguments");
    }

    private static Object unit(Object r, Method m) {
        return m.getReturnType() == void.class ? Tuple.UNIT : r;
    }

    private static final Object NO_FIT = new Object();

    private Object convert(Object v, Class<?> type) {
        Object b = Values.base(v);
        if (type == int.class || type == Integer.class)
            return b instanceof Number n ? n.intValue() : NO_FIT;
        if (type == long.class || type == Long.class)
            return b instanceof Number n ? n.longValue() : NO_FIT;
        if (type == double.class || type == Double.class)
            return b instanceof Number n ? n.doubleValue() : NO_FIT;
        if (type == boolean.class || type == Boolean.class)
            return b instanceof Boolean x ? x : NO_FIT;
        if (type == String.class)
            return b instanceof String s ? s : b instanceof LiqRequest r ? r.uri() : NO_FIT;
        if (type == Map.class) return values.map(v);
        Object e = values.toEngine(v);
        return e == null || type.isInstance(e) ? e : NO_FIT;
    }
}
