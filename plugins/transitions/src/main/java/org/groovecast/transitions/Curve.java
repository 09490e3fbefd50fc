package org.groovecast.transitions;

import java.util.Locale;

/**
 * The shape of a fade: gain as a function of progress {@code x} in [0, 1], 0 at the silent end and
 * 1 at full level. {@code lin} is straight, {@code sin} eases in and out, {@code log} rises fast
 * then slowly, {@code exp} slowly then fast.
 */
enum Curve {
    LIN {
        @Override
        double gain(double x) {
            return x;
        }
    },
    SIN {
        @Override
        double gain(double x) {
            return (1 - Math.cos(Math.PI * x)) / 2;
        }
    },
    LOG {
        @Override
        double gain(double x) {
            return Math.log10(1 + 9 * x);
        }
    },
    EXP {
        @Override
        double gain(double x) {
            return (Math.pow(10, x) - 1) / 9;
        }
    };

    abstract double gain(double x);

    /**
     * The curve a script names ({@code 'lin'}, {@code 'sin'}, {@code 'log'}, {@code 'exp'}), or
     * null.
     */
    static Curve named(String name) {
        if (name == null) return null;
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "lin", "linear" -> LIN;
            case "sin", "sine" -> SIN;
            case "log" -> LOG;
            case "exp" -> EXP;
            default -> null;
        };
    }
}
