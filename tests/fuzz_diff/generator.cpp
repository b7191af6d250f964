// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The generator builds each expression for a wanted type and value class, tracking a bound on the
// magnitude of every value (and, for floats, the power of two the value is a multiple of), so
// that no operation can overflow, divide by zero or produce a NaN:
// - int values stay within 2^30; an operand that could overflow is first taken `% 1024`; a
//   divisor is `(d & 7) + 1`, a shift amount `k & 7`.
// - "exact" floats are multiples of 2^-grain with bound * 2^grain <= 2^22, so +, -, *, floor,
//   round, comparisons, casts and gather indices are exact in IEEE single precision on every
//   backend and compared exactly; an operand that would leave the range is clamped or floored.
// - "approximate" floats come from division and transcendental built-ins with arguments kept in
//   their well-conditioned range, bounded by clamping; they only flow into continuous operations
//   and outputs (never into conditions, casts, gather indices or reductions), so a few ulps of
//   difference stay a few ulps and are compared within a tolerance (differential.hpp).
#include "generator.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace brook_fuzz {
namespace {

enum class Scalar { f, i };
enum class Cls { exact, approx }; // ints are always exact

struct Type {
    Scalar scalar = Scalar::f;
    int width = 1;
};

std::string type_name(Type t) {
    std::string name = t.scalar == Scalar::f ? "float" : "int";
    return t.width == 1 ? name : name + std::to_string(t.width);
}

// A value: its expression, type, class, magnitude bound and grain (a multiple of 2^-grain).
struct Val {
    Expr e;
    Type t;
    Cls cls = Cls::exact;
    double bound = 1;
    int grain = 0;
};

// A name the body can read: a parameter, local, loop counter.
struct Var {
    std::string name;
    Type t;
    Cls cls = Cls::exact;
    double bound = 1;
    int grain = 0;
};

// A gather parameter: its element type and rank.
struct Gather {
    std::string name;
    Type t;
    int rank = 1;
};

constexpr double int_limit = 1 << 30;
constexpr double exact_limit = 1 << 14;
constexpr double exact_mantissa = 1 << 22;
constexpr double approx_limit = 4096;
// What locals may hold; every assignment is coerced into this.
constexpr double int_local_bound = 65535;
constexpr double exact_local_bound = 256;
constexpr int exact_local_grain = 4;

// A helper kernel (callable from kernels) of exact values, with the bounds of its result.
struct Helper {
    std::string name;
    Type result;
    std::vector<Var> params;
    double bound = 1;
    int grain = 0;
};

class Rng {
public:
    explicit Rng(unsigned long long seed) : engine_(seed) {}
    int below(int n) { return static_cast<int>(engine_() % static_cast<unsigned long long>(n)); }
    int range(int lo, int hi) { return lo + below(hi - lo + 1); }
    bool chance(int percent) { return below(100) < percent; }
    template <typename T> const T& pick(const std::vector<T>& items) {
        return items[static_cast<std::size_t>(below(static_cast<int>(items.size())))];
    }

private:
    std::mt19937_64 engine_;
};

Expr leaf(std::string text) {
    return Expr{std::move(text), {}, {}};
}

// A literal of the type: ints in [-20, 20], floats multiples of 1/4 in [-8, 8].
std::string scalar_literal(Rng& rng, Scalar s) {
    if (s == Scalar::i) {
        return std::to_string(rng.range(-20, 20));
    }
    const int quarters = rng.range(-32, 32);
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", quarters / 4.0);
    return text;
}

std::string vector_of(Type t, const std::vector<std::string>& parts) {
    if (t.width == 1) {
        return parts[0];
    }
    std::string out = type_name(t) + "(";
    for (std::size_t i = 0; i < parts.size(); ++i) {
        out += (i ? ", " : "") + parts[i];
    }
    return out + ")";
}

std::string fallback_of(Type t) {
    return vector_of(t, std::vector<std::string>(static_cast<std::size_t>(t.width),
                                                 t.scalar == Scalar::i ? "1" : "1.0"));
}

Expr node(std::string pattern, std::vector<Expr> children, Type t) {
    return Expr{std::move(pattern), std::move(children), fallback_of(t)};
}

class Generator {
public:
    explicit Generator(unsigned long long seed) : rng_(seed) {}

    Program program(unsigned long long seed, int units) {
        Program p;
        p.seed = seed;
        for (int u = 0; u < units; ++u) {
            unit_ = u;
            const int kind = rng_.below(10);
            if (kind < 6) {
                p.units.push_back(map_unit());
            } else if (kind < 8) {
                p.units.push_back(reduce_unit());
            } else if (kind < 9) {
                p.units.push_back(vout_unit());
            } else {
                p.units.push_back(scatter_unit());
            }
        }
        return p;
    }

private:
    Rng rng_;
    int unit_ = 0;
    int names_ = 0;
    std::vector<Var> scope_;
    std::vector<Gather> gathers_;
    std::optional<Helper> helper_;
    int loop_depth_ = 0; // loops around the statement being generated (break, continue)
    int depth_budget_ = 0;

    std::string fresh(const std::string& stem) { return stem + std::to_string(names_++); }
    std::string prefix() const { return "u" + std::to_string(unit_) + "_"; }

    Type random_type() { return Type{rng_.chance(55) ? Scalar::f : Scalar::i, rng_.range(1, 4)}; }

    // ---- expressions ----

    Val literal(Type t) {
        std::vector<std::string> parts;
        for (int i = 0; i < t.width; ++i) {
            parts.push_back(scalar_literal(rng_, t.scalar));
        }
        std::string text = vector_of(t, parts);
        if (text[0] == '-') {
            text = "(" + text + ")";
        }
        return Val{leaf(text), t, Cls::exact, t.scalar == Scalar::i ? 20.0 : 8.0,
                   t.scalar == Scalar::i ? 0 : 2};
    }

    // A swizzle (or constructor from repeated scalars) turning a value of any width into `width`.
    Val fit_width(Val v, int width) {
        const char* names = rng_.chance(80) ? "xyzw" : "rgba";
        if (v.t.width == 1 && width > 1) {
            Type t{v.t.scalar, width};
            std::string pattern = type_name(t) + "($0";
            for (int i = 1; i < width; ++i) {
                pattern += ", $0";
            }
            v.e = node(pattern + ")", {v.e}, t);
            v.t = t;
            return v;
        }
        if (v.t.width == width && rng_.chance(70)) {
            return v;
        }
        std::string swizzle;
        for (int i = 0; i < width; ++i) {
            swizzle += names[rng_.below(v.t.width)];
        }
        v.t.width = width;
        v.e = node("$0." + swizzle, {v.e}, v.t);
        return v;
    }

    // Any value of the scalar kind whose class may stand where `cls` is wanted.
    std::vector<const Var*> readable(Scalar s, Cls cls) const {
        std::vector<const Var*> out;
        for (const Var& v : scope_) {
            if (v.t.scalar == s && (cls == Cls::approx || v.cls == Cls::exact)) {
                out.push_back(&v);
            }
        }
        return out;
    }

    Val gather_read(const Gather& g, int width) {
        Val index = gen(Type{rng_.chance(50) ? Scalar::f : Scalar::i, 1}, Cls::exact, 1);
        Val v;
        if (g.rank == 1) {
            v.e = node(g.name + "[$0]", {index.e}, g.t);
        } else if (rng_.chance(50)) {
            const Val row = gen(Type{index.t.scalar, 1}, Cls::exact, 1);
            v.e = node(g.name + "[$0][$1]", {row.e, index.e}, g.t);
        } else {
            const Val pos = gen(Type{index.t.scalar, 2}, Cls::exact, 1);
            v.e = node(g.name + "[$0]", {pos.e}, g.t);
        }
        v.t = g.t;
        v.bound = g.t.scalar == Scalar::i ? 1000 : 16;
        v.grain = g.t.scalar == Scalar::i ? 0 : 2;
        return fit_width(v, width);
    }

    Val leaf_value(Type t, Cls cls) {
        std::vector<const Gather*> gathers;
        for (const Gather& g : gathers_) {
            if (g.t.scalar == t.scalar) {
                gathers.push_back(&g);
            }
        }
        if (!gathers.empty() && depth_budget_ > 0 && rng_.chance(20)) {
            --depth_budget_;
            Val v = gather_read(*rng_.pick(gathers), t.width);
            ++depth_budget_;
            return v;
        }
        if (helper_ && helper_->result.scalar == t.scalar && depth_budget_ > 0 && rng_.chance(15)) {
            return fit_width(helper_call(), t.width);
        }
        const std::vector<const Var*> vars = readable(t.scalar, cls);
        if (vars.empty() || rng_.chance(15)) {
            return literal(t);
        }
        const Var& var = *rng_.pick(vars);
        return fit_width(Val{leaf(var.name), var.t, var.cls, var.bound, var.grain}, t.width);
    }

    Val helper_call() {
        --depth_budget_;
        std::string pattern = helper_->name + "(";
        std::vector<Expr> args;
        for (std::size_t i = 0; i < helper_->params.size(); ++i) {
            const Var& param = helper_->params[i];
            args.push_back(coerce_to(gen(param.t, Cls::exact, 1), param).e);
            pattern += (i ? ", $" : "$") + std::to_string(i);
        }
        ++depth_budget_;
        return Val{node(pattern + ")", args, helper_->result), helper_->result, Cls::exact,
                   helper_->bound, helper_->grain};
    }

    // A helper returning an exact value computed from its two parameters (no gathers, no
    // indexof: it sees only its parameters).
    Kernel make_helper(const std::string& name) {
        const std::vector<Var> saved_scope = scope_;
        const std::vector<Gather> saved_gathers = gathers_;
        gathers_.clear();
        scope_.clear();
        Helper helper{name, random_type(), {}, 1, 0};
        std::string head = "kernel " + type_name(helper.result) + " " + name + "(";
        for (int i = 0; i < 2; ++i) {
            const Type t = random_type();
            const bool is_int = t.scalar == Scalar::i;
            helper.params.push_back(Var{"p" + std::to_string(i), t, Cls::exact,
                                        is_int ? int_local_bound : exact_local_bound,
                                        is_int ? 0 : exact_local_grain});
            head += (i ? ", " : "") + type_name(t) + " p" + std::to_string(i);
        }
        scope_ = helper.params;
        const bool is_int = helper.result.scalar == Scalar::i;
        const Var result{"", helper.result, Cls::exact,
                         is_int ? int_local_bound : exact_local_bound,
                         is_int ? 0 : exact_local_grain};
        const Val v = coerce_to(gen(helper.result, Cls::exact, 3), result);
        helper.bound = v.bound;
        helper.grain = v.grain;
        scope_ = saved_scope;
        gathers_ = saved_gathers;
        helper_ = helper;
        return Kernel{head + ")", {Stmt{{"return $0;"}, {v.e}, {}, false}}};
    }

    // Wraps an int operand into (-1024, 1024).
    static Val int_wrap(Val v) {
        if (v.bound > 1023) {
            v.e = node("($0 % 1024)", {v.e}, v.t);
            v.bound = 1023;
        }
        return v;
    }
    // Clamps a float operand into [-limit, limit] (continuous, exact).
    static Val float_clamp(Val v, double limit) {
        if (v.bound > limit) {
            char text[64];
            std::snprintf(text, sizeof text, "clamp($0, -%.1f, %.1f)", limit, limit);
            v.e = node(text, {v.e}, v.t);
            v.bound = limit;
        }
        return v;
    }
    // Makes an exact float a whole number within [-32, 32], so products stay exact.
    static Val coarse(Val v) {
        v = float_clamp(v, 32);
        if (v.grain > 0) {
            v.e = node("floor($0)", {v.e}, v.t);
            v.grain = 0;
            v.bound = std::max(v.bound, 1.0);
        }
        return v;
    }
    static bool exact_fits(double bound, int grain) {
        return bound <= exact_limit && bound * std::ldexp(1.0, grain) <= exact_mantissa &&
               grain <= 8;
    }

    Val gen(Type t, Cls cls, int depth) {
        if (depth <= 0 || rng_.chance(25)) {
            return leaf_value(t, cls);
        }
        if (t.scalar == Scalar::i) { // at most 2^29, so that any sum of two stays within int
            const Val v = gen_int(t, depth);
            return v.bound > int_limit / 2 ? int_wrap(v) : v;
        }
        if (cls == Cls::approx && rng_.chance(60)) {
            return gen_approx(t, depth);
        }
        return gen_exact_float(t, cls, depth);
    }

    Val gen_int(Type t, int depth) {
        Val a = gen(t, Cls::exact, depth - 1);
        const int op = rng_.below(15);
        if (op < 6) {
            Val b = gen(t, Cls::exact, depth - 1);
            const char* ops[] = {"+", "-", "*", "&", "|", "^"};
            if (op == 2 && a.bound * b.bound > int_limit) {
                a = int_wrap(a);
                b = int_wrap(b);
            } else if (op < 2 && a.bound + b.bound > int_limit) {
                a = int_wrap(a);
                b = int_wrap(b);
            }
            double bound = op == 2 ? a.bound * b.bound : a.bound + b.bound;
            if (op >= 3) { // two's complement within [-2^k, 2^k - 1] stays there
                bound = std::exp2(std::ceil(std::log2(std::max(a.bound, b.bound) + 1)));
            }
            return Val{node("($0 " + std::string(ops[op]) + " $1)", {a.e, b.e}, t), t, Cls::exact,
                       bound, 0};
        }
        switch (op) {
        case 6: {
            const Val d = gen(t, Cls::exact, depth - 1);
            return Val{node("($0 / (($1 & 7) + 1))", {a.e, d.e}, t), t, Cls::exact, a.bound, 0};
        }
        case 7: {
            const Val d = gen(t, Cls::exact, depth - 1);
            return Val{node("($0 % (($1 & 7) + 1))", {a.e, d.e}, t), t, Cls::exact, 7, 0};
        }
        case 8: {
            a = int_wrap(a);
            const Val k = gen(t, Cls::exact, depth - 1);
            return Val{node("($0 << ($1 & 7))", {a.e, k.e}, t), t, Cls::exact, a.bound * 128, 0};
        }
        case 9: {
            const Val k = gen(t, Cls::exact, depth - 1);
            return Val{node("($0 >> ($1 & 15))", {a.e, k.e}, t), t, Cls::exact, a.bound, 0};
        }
        case 10:
            return Val{node(rng_.chance(50) ? "(-$0)" : "(~$0)", {a.e}, t), t, Cls::exact,
                       a.bound + 1, 0};
        case 11: {
            const Val b = gen(t, Cls::exact, depth - 1);
            return Val{node(rng_.chance(50) ? "min($0, $1)" : "max($0, $1)", {a.e, b.e}, t), t,
                       Cls::exact, std::max(a.bound, b.bound), 0};
        }
        case 12: {
            const Val b = gen(t, Cls::exact, depth - 1);
            const Expr c = condition(depth - 1);
            return Val{node("($0 ? $1 : $2)", {c, a.e, b.e}, t), t, Cls::exact,
                       std::max(a.bound, b.bound), 0};
        }
        case 13: {
            const Val f = gen(Type{Scalar::f, t.width}, Cls::exact, depth - 1);
            return Val{node("(" + type_name(t) + ")($0)", {f.e}, t), t, Cls::exact, f.bound, 0};
        }
        default:
            return Val{node("abs($0)", {a.e}, t), t, Cls::exact, a.bound, 0};
        }
    }

    Val gen_exact_float(Type t, Cls cls, int depth) {
        Val a = gen(t, cls, depth - 1);
        if (a.cls == Cls::approx) { // an approximate operand: only continuous operations
            Val b = gen(t, cls, depth - 1);
            a = float_clamp(a, 64);
            b = float_clamp(b, 64);
            const char* pattern = rng_.chance(50) ? "($0 + $1)" : "($0 * $1)";
            const double bound = pattern[4] == '+' ? a.bound + b.bound : a.bound * b.bound;
            return Val{node(pattern, {a.e, b.e}, t), t, Cls::approx, bound, 0};
        }
        const int op = rng_.below(13);
        switch (op) {
        case 0:
        case 1: {
            Val b = gen(t, Cls::exact, depth - 1);
            if (b.cls == Cls::approx ||
                !exact_fits(a.bound + b.bound, std::max(a.grain, b.grain))) {
                a = float_clamp(a, 64);
                b = float_clamp(b, 64);
            }
            return Val{node(op == 0 ? "($0 + $1)" : "($0 - $1)", {a.e, b.e}, t), t, Cls::exact,
                       a.bound + b.bound, std::max(a.grain, b.grain)};
        }
        case 2: {
            Val b = gen(t, Cls::exact, depth - 1);
            if (!exact_fits(a.bound * b.bound, a.grain + b.grain)) {
                a = coarse(a);
                b = coarse(b);
            }
            return Val{node("($0 * $1)", {a.e, b.e}, t), t, Cls::exact, a.bound * b.bound,
                       a.grain + b.grain};
        }
        case 3:
            if (a.grain < 6) {
                return Val{node("($0 * 0.25)", {a.e}, t), t, Cls::exact, a.bound / 4, a.grain + 2};
            }
            return a;
        case 4: {
            const char* fns[] = {"floor", "ceil", "round", "abs"};
            const int f = rng_.below(4);
            return Val{node(std::string(fns[f]) + "($0)", {a.e}, t), t, Cls::exact, a.bound + 1,
                       f == 3 ? a.grain : 0};
        }
        case 5:
            return Val{node("frac($0)", {a.e}, t), t, Cls::exact, 1, a.grain};
        case 6: {
            const Val b = gen(t, Cls::exact, depth - 1);
            return Val{node(rng_.chance(50) ? "min($0, $1)" : "max($0, $1)", {a.e, b.e}, t), t,
                       Cls::exact, std::max(a.bound, b.bound), std::max(a.grain, b.grain)};
        }
        case 7:
            return Val{node("fmod($0, 4.0)", {a.e}, t), t, Cls::exact, 4, a.grain};
        case 8: {
            const Val b = gen(t, Cls::exact, depth - 1);
            const Expr c = condition(depth - 1);
            return Val{node("($0 ? $1 : $2)", {c, a.e, b.e}, t), t, Cls::exact,
                       std::max(a.bound, b.bound), std::max(a.grain, b.grain)};
        }
        case 9: {
            Val i = int_wrap(gen(Type{Scalar::i, t.width}, Cls::exact, depth - 1));
            return Val{node("(" + type_name(t) + ")($0)", {i.e}, t), t, Cls::exact, i.bound, 0};
        }
        case 10:
            return Val{node("(-$0)", {a.e}, t), t, Cls::exact, a.bound, a.grain};
        case 11:
            return Val{node("clamp($0, -3.5, 6.25)", {a.e}, t), t, Cls::exact, 6.25,
                       std::max(a.grain, 2)};
        default:
            if (t.width > 1) { // a constructor from scalars
                std::string pattern = type_name(t) + "(";
                std::vector<Expr> parts;
                int grain = 0;
                double bound = 0;
                for (int i = 0; i < t.width; ++i) {
                    const Val s = gen(Type{Scalar::f, 1}, Cls::exact, depth - 1);
                    pattern += (i ? ", $" : "$") + std::to_string(i);
                    parts.push_back(s.e);
                    grain = std::max(grain, s.grain);
                    bound = std::max(bound, s.bound);
                }
                return Val{node(pattern + ")", parts, t), t, Cls::exact, bound, grain};
            }
            return Val{node("sign($0)", {a.e}, t), t, Cls::exact, 1, 0};
        }
    }

    Val gen_approx(Type t, int depth) {
        const Val a = float_clamp(gen(t, Cls::approx, depth - 1), 64);
        const int op = rng_.below(12);
        auto unary = [&](const std::string& pattern, double bound) {
            return Val{node(pattern, {a.e}, t), t, Cls::approx, bound, 0};
        };
        switch (op) {
        case 0: {
            const Val b = float_clamp(gen(t, Cls::approx, depth - 1), 64);
            return Val{node("($0 / (abs($1) + 0.5))", {a.e, b.e}, t), t, Cls::approx, a.bound * 2,
                       0};
        }
        case 1:
            return unary("sqrt(abs($0))", 8);
        case 2:
            return unary("exp(clamp($0, -4.0, 4.0))", 55);
        case 3:
            return unary("log(abs($0) + 1.0)", 5);
        case 4:
            return unary("sin(clamp($0, -4.0, 4.0))", 1);
        case 5:
            return unary("cos(clamp($0, -4.0, 4.0))", 1);
        case 6:
            return unary("atan($0)", 2);
        case 7:
            return unary("rsqrt(abs($0) + 1.0)", 1);
        case 8:
            return unary("tanh(clamp($0, -4.0, 4.0))", 1);
        case 9: {
            const Val b = gen(t, Cls::approx, depth - 1);
            return Val{node("pow(abs($0) * 0.125 + 1.0, clamp($1, -2.0, 2.0))", {a.e, b.e}, t), t,
                       Cls::approx, 81, 0};
        }
        case 10:
            if (t.width == 1) {
                const Val v =
                    float_clamp(gen(Type{Scalar::f, rng_.range(2, 4)}, Cls::approx, depth - 1), 64);
                return Val{node("length($0)", {v.e}, t), t, Cls::approx, v.bound * 2, 0};
            }
            return unary("exp2(clamp($0, -6.0, 6.0))", 64);
        default: {
            const Val b = float_clamp(gen(t, Cls::approx, depth - 1), 64);
            return Val{node("lerp($0, $1, 0.375)", {a.e, b.e}, t), t, Cls::approx,
                       std::max(a.bound, b.bound), 0};
        }
        }
    }

    // A scalar condition from exact values only, so every backend takes the same branch.
    Expr condition(int depth) {
        const int kind = rng_.below(10);
        const Type t{rng_.chance(50) ? Scalar::f : Scalar::i, kind < 7 ? 1 : rng_.range(2, 4)};
        const Val a = gen(t, Cls::exact, std::max(depth - 1, 0));
        const Val b = gen(t, Cls::exact, std::max(depth - 1, 0));
        const char* cmps[] = {"<", "<=", ">", ">=", "==", "!="};
        const std::string cmp = cmps[rng_.below(6)];
        Expr e;
        if (kind < 7) {
            e = Expr{"($0 " + cmp + " $1)", {a.e, b.e}, "true"};
        } else {
            e = Expr{
                std::string(kind == 7 ? "any" : "all") + "($0 " + cmp + " $1)", {a.e, b.e}, "true"};
        }
        if (depth > 1 && rng_.chance(20)) {
            const Expr other = condition(depth - 1);
            e = Expr{rng_.chance(50) ? "($0 && $1)" : "(!$0 || $1)", {e, other}, "true"};
        }
        return e;
    }

    // ---- statements ----

    // The value coerced into what the variable may hold.
    Val coerce_to(Val v, const Var& var) {
        if (var.t.scalar == Scalar::i) {
            if (v.bound > var.bound) {
                v.e = node("($0 % 65536)", {v.e}, v.t);
                v.bound = int_local_bound;
            }
            return v;
        }
        if (var.cls == Cls::exact && v.grain > var.grain) {
            v.e = node("(floor($0 * 16.0) * 0.0625)", {v.e}, v.t);
            v.grain = exact_local_grain;
        }
        return float_clamp(v, var.bound);
    }

    Var new_local(Type t) {
        Var v{fresh("l"), t, Cls::exact, 1, 0};
        if (t.scalar == Scalar::i) {
            v.bound = int_local_bound;
        } else {
            v.cls = rng_.chance(30) ? Cls::approx : Cls::exact;
            v.bound = v.cls == Cls::approx ? approx_limit : exact_local_bound;
            v.grain = exact_local_grain;
        }
        return v;
    }

    std::vector<Var*> writable_locals() {
        std::vector<Var*> out;
        for (Var& v : scope_) {
            if (v.name[0] == 'l') {
                out.push_back(&v);
            }
        }
        return out;
    }

    Stmt assignment(int depth) {
        std::vector<Var*> locals = writable_locals();
        const Var var =
            *locals[static_cast<std::size_t>(rng_.below(static_cast<int>(locals.size())))];
        if (var.t.width > 1 && rng_.chance(30)) { // a write mask of distinct components
            std::string mask = "xyzw";
            mask.resize(static_cast<std::size_t>(var.t.width));
            for (int i = var.t.width - 1; i > 0; --i) {
                std::swap(mask[static_cast<std::size_t>(i)],
                          mask[static_cast<std::size_t>(rng_.below(i + 1))]);
            }
            mask.resize(static_cast<std::size_t>(rng_.range(1, var.t.width - 1)));
            const Type part{var.t.scalar, static_cast<int>(mask.size())};
            const Val v = coerce_to(gen(part, var.cls, depth), var);
            return Stmt{{var.name + "." + mask + " = $0;"}, {v.e}, {}, true};
        }
        const Val v = coerce_to(gen(var.t, var.cls, depth), var);
        return Stmt{{var.name + " = $0;"}, {v.e}, {}, true};
    }

    std::vector<Stmt> block(int nesting, int count, const std::vector<Stmt>& extra_choices) {
        std::vector<Stmt> out;
        for (int i = 0; i < count; ++i) {
            out.push_back(statement(nesting, extra_choices));
        }
        return out;
    }

    Stmt statement(int nesting, const std::vector<Stmt>& extra_choices) {
        const int kind = rng_.below(10);
        if (!extra_choices.empty() && kind == 0) {
            return rng_.pick(extra_choices);
        }
        if (loop_depth_ > 0 && rng_.chance(8)) {
            return Stmt{{std::string("if ($0) ") + (rng_.chance(50) ? "break;" : "continue;")},
                        {condition(1)},
                        {},
                        true};
        }
        if (nesting <= 0 || kind < 5) {
            return assignment(3);
        }
        if (kind < 7) {
            Stmt s{{"if ($0) {", "}"},
                   {condition(2)},
                   {block(nesting - 1, rng_.range(1, 3), extra_choices)},
                   true};
            if (rng_.chance(50)) {
                s.parts = {"if ($0) {", "} else {", "}"};
                s.bodies.push_back(block(nesting - 1, rng_.range(1, 2), extra_choices));
            }
            return s;
        }
        const std::string counter = fresh("i");
        const int trips = rng_.range(1, 4);
        scope_.push_back(
            Var{counter, Type{Scalar::i, 1}, Cls::exact, static_cast<double>(trips), 0});
        ++loop_depth_;
        std::vector<Stmt> body = block(nesting - 1, rng_.range(1, 3), extra_choices);
        --loop_depth_;
        scope_.pop_back();
        const std::string n = std::to_string(trips);
        if (kind < 9) {
            return Stmt{
                {"for (int " + counter + " = 0; " + counter + " < " + n + "; " + counter + "++) {",
                 "}"},
                {},
                {std::move(body)},
                true};
        }
        // The counter counts first, so that `continue` cannot skip it.
        const std::string count = "        " + counter + " = " + counter + " + 1;";
        if (rng_.chance(50)) {
            return Stmt{{"{", "    int " + counter + " = 0;",
                         "    while (" + counter + " < " + n + ") {", count, "    }", "}"},
                        {},
                        {{}, {}, {}, std::move(body)},
                        true};
        }
        return Stmt{{"{", "    int " + counter + " = 0;", "    do {", count,
                     "    } while (" + counter + " < " + n + ");", "}"},
                    {},
                    {{}, {}, {}, std::move(body)},
                    true};
    }

    // `v` plus a local of its kind, so that what the body computed reaches the output.
    Val mix_in_local(Val v) {
        for (const Var& local : scope_) {
            if (local.name[0] == 'l' && local.t.scalar == v.t.scalar &&
                (v.cls == Cls::approx || local.cls == Cls::exact) && rng_.chance(70)) {
                Val l = fit_width(
                    Val{leaf(local.name), local.t, local.cls, local.bound, local.grain}, v.t.width);
                if (v.t.scalar == Scalar::i) {
                    v = v.bound > int_limit / 2 ? int_wrap(v) : v;
                } else if (v.cls == Cls::approx ||
                           !exact_fits(l.bound + v.bound, std::max(l.grain, v.grain))) {
                    l = float_clamp(l, 64);
                    v = float_clamp(v, 64);
                }
                return Val{node("($0 + $1)", {l.e, v.e}, v.t), v.t,
                           v.cls == Cls::approx ? v.cls : l.cls, l.bound + v.bound,
                           std::max(l.grain, v.grain)};
            }
        }
        return v;
    }

    // Locals declared at the top of a body (not removable: later statements name them).
    std::vector<Stmt> declare_locals(int count) {
        std::vector<Stmt> out;
        for (int i = 0; i < count; ++i) {
            Var var = new_local(random_type());
            const Val v = coerce_to(gen(var.t, var.cls, 2), var);
            out.push_back(Stmt{{type_name(var.t) + " " + var.name + " = $0;"}, {v.e}, {}, false});
            scope_.push_back(var);
        }
        return out;
    }

    // ---- host data ----

    // Values for `count` elements of `t`: ints in [-1000, 1000], floats multiples of 1/4 in
    // [-16, 16]; printed as a C initialiser.
    std::string data(Type t, int count) {
        std::string out = "{";
        for (int i = 0; i < count * t.width; ++i) {
            if (i) {
                out += ", ";
            }
            if (t.scalar == Scalar::i) {
                out += std::to_string(rng_.range(-1000, 1000));
            } else {
                char text[32];
                std::snprintf(text, sizeof text, "%.2ff", rng_.range(-64, 64) / 4.0);
                out += text;
            }
        }
        return out + "}";
    }

    static std::string extents(const std::vector<int>& shape) {
        std::string out;
        for (std::size_t i = 0; i < shape.size(); ++i) {
            out += (i ? ", " : "") + std::to_string(shape[i]);
        }
        return out;
    }
    static int count(const std::vector<int>& shape) {
        int n = 1;
        for (const int e : shape) {
            n *= e;
        }
        return n;
    }

    // Host lines: declare stream `name` of `t` and `shape`, filled with generated data.
    std::string input_stream(const std::string& name, Type t, const std::vector<int>& shape) {
        const std::string c_type = t.scalar == Scalar::f ? "float" : "int";
        return "        " + type_name(t) + " " + name + "<" + extents(shape) + ">;\n" +
               "        static const " + c_type + " " + name +
               "_data[] = " + data(t, count(shape)) + ";\n" + "        streamRead(" + name + ", " +
               name + "_data);\n";
    }

    // Host lines: write stream `name` back and print it as `label` with the value class.
    static std::string print_stream(const std::string& name, Type t, int elements, Cls cls) {
        const std::string n = std::to_string(elements * t.width);
        if (t.scalar == Scalar::i) {
            return "        { static int h[" + n + "]; streamWrite(" + name +
                   ", h); fd_print_i(\"" + name + "\", h, " + n + "); }\n";
        }
        return "        { static float h[" + n + "]; streamWrite(" + name + ", h); fd_print_f(\"" +
               name + "\", '" + (cls == Cls::exact ? "E" : "A") + "', h, " + n + "); }\n";
    }

    std::vector<int> random_shape() {
        const std::vector<int> sizes = {2, 4, 8};
        if (rng_.chance(50)) {
            return {rng_.pick(std::vector<int>{4, 8, 16, 32})};
        }
        return {rng_.pick(sizes), rng_.pick(sizes)};
    }
    // Another shape each of whose extents divides or is a multiple of the output's.
    std::vector<int> resized(const std::vector<int>& shape) {
        std::vector<int> out = shape;
        for (int& e : out) {
            const int choice = rng_.below(4);
            if (choice == 0 && e % 2 == 0) {
                e /= 2;
            } else if (choice == 1) {
                e *= 2;
            }
        }
        return out;
    }

    // ---- units ----

    Unit map_unit() {
        scope_.clear();
        gathers_.clear();
        const std::string p = prefix();
        const std::vector<int> shape = random_shape();
        std::vector<std::string> params;
        std::vector<std::string> args;
        std::string host;

        const int inputs = rng_.range(1, 3);
        for (int i = 0; i < inputs; ++i) {
            const Type t = random_type();
            const std::string name = p + "in" + std::to_string(i);
            host += input_stream(name, t, rng_.chance(60) ? shape : resized(shape));
            params.push_back(type_name(t) + " " + name + "<>");
            args.push_back(name);
            scope_.push_back(Var{name, t, Cls::exact, t.scalar == Scalar::i ? 1000.0 : 16.0,
                                 t.scalar == Scalar::i ? 0 : 2});
        }
        if (rng_.chance(40)) { // an iterator: exact, since its extents are powers of two
            const std::string name = p + "it";
            const int a = rng_.range(-8, 8);
            const int b = rng_.range(-8, 8);
            if (shape.size() == 1) {
                host += "        iter float " + name + "<" + extents(shape) + "> = iter(" +
                        std::to_string(a) + ".0f, " + std::to_string(b) + ".0f);\n";
                params.push_back("iter float " + name + "<>");
                scope_.push_back(Var{name, Type{Scalar::f, 1}, Cls::exact, 8, 5});
            } else {
                const int c = rng_.range(-8, 8);
                const int d = rng_.range(-8, 8);
                host += "        iter float2 " + name + "<" + extents(shape) + "> = iter(float2(" +
                        std::to_string(a) + ", " + std::to_string(c) + "), float2(" +
                        std::to_string(b) + ", " + std::to_string(d) + "));\n";
                params.push_back("iter float2 " + name + "<>");
                scope_.push_back(Var{name, Type{Scalar::f, 2}, Cls::exact, 8, 5});
            }
            args.push_back(name);
        }
        const int gathers = rng_.range(0, 2);
        for (int i = 0; i < gathers; ++i) {
            const Type t = random_type();
            const std::string name = p + "g" + std::to_string(i);
            const int rank = rng_.range(1, 2);
            const std::vector<int> gshape =
                rank == 1 ? std::vector<int>{rng_.range(3, 40)}
                          : std::vector<int>{rng_.range(2, 9), rng_.range(2, 9)};
            host += input_stream(name, t, gshape);
            params.push_back(type_name(t) + " " + name + (rank == 1 ? "[]" : "[][]"));
            args.push_back(name);
            gathers_.push_back(Gather{name, t, rank});
        }
        const int constants = rng_.range(0, 2);
        for (int i = 0; i < constants; ++i) {
            const Type t = random_type();
            const std::string name = p + "k" + std::to_string(i);
            params.push_back(type_name(t) + " " + name);
            std::vector<std::string> parts;
            for (int c = 0; c < t.width; ++c) {
                parts.push_back(t.scalar == Scalar::i
                                    ? std::to_string(rng_.range(-50, 50))
                                    : std::to_string(rng_.range(-32, 32)) + ".0f / 4");
            }
            args.push_back(vector_of(t, parts));
            scope_.push_back(Var{name, t, Cls::exact, 50, 2});
        }

        const int outputs = rng_.range(1, 2);
        std::vector<std::pair<std::string, Type>> outs;
        std::vector<Cls> out_classes;
        for (int i = 0; i < outputs; ++i) {
            const Type t = random_type();
            const std::string name = p + "out" + std::to_string(i);
            outs.emplace_back(name, t);
            out_classes.push_back(t.scalar == Scalar::f && rng_.chance(40) ? Cls::approx
                                                                           : Cls::exact);
            params.push_back("out " + type_name(t) + " " + name + "<>");
            args.push_back(name);
            host += "        " + type_name(t) + " " + name + "<" + extents(shape) + ">;\n";
        }
        // indexof of an input or output: exact small whole numbers.
        const std::string indexed = rng_.chance(50) ? outs[0].first : p + "in0";
        scope_.push_back(Var{"indexof(" + indexed + ")", Type{Scalar::f, 4}, Cls::exact, 64, 0});

        std::vector<Kernel> kernels;
        helper_.reset();
        if (rng_.chance(35)) {
            kernels.push_back(make_helper(p + "help"));
        }
        Kernel k;
        const std::string kname = p + "map";
        k.head = "kernel void " + kname + "(";
        for (std::size_t i = 0; i < params.size(); ++i) {
            k.head += (i ? ", " : "") + params[i];
        }
        k.head += ")";
        depth_budget_ = 1;
        k.body = declare_locals(rng_.range(1, 3));
        std::vector<Stmt> rest = block(2, rng_.range(2, 6), {});
        k.body.insert(k.body.end(), rest.begin(), rest.end());
        for (std::size_t i = 0; i < outs.size(); ++i) {
            Var target{outs[i].first, outs[i].second, out_classes[i],
                       outs[i].second.scalar == Scalar::i ? int_limit : approx_limit, 8};
            const Val v = coerce_to(mix_in_local(gen(target.t, target.cls, 3)), target);
            k.body.push_back(Stmt{{outs[i].first + " = $0;"}, {v.e}, {}, false});
        }
        host += "        " + kname + "(";
        for (std::size_t i = 0; i < args.size(); ++i) {
            host += (i ? ", " : "") + args[i];
        }
        host += ");\n";
        for (std::size_t i = 0; i < outs.size(); ++i) {
            host += print_stream(outs[i].first, outs[i].second, count(shape), out_classes[i]);
        }
        helper_.reset();
        kernels.push_back(k);
        return Unit{kernels, host};
    }

    // Reduce functions fold exact values (sums of multiples of 1/4 stay exact whatever the
    // association), to a host variable and to a smaller stream.
    Unit reduce_unit() {
        const std::string p = prefix();
        const Type t = random_type();
        const std::vector<std::string> bodies = {"r = r + a;", "r += a;", "r = min(r, a);",
                                                 "r = max(a, r);"};
        Kernel k{"reduce void " + p + "fold(" + type_name(t) + " a<>, reduce " + type_name(t) +
                     " r<>)",
                 {Stmt{{rng_.pick(bodies)}, {}, {}, false}}};
        const std::vector<int> shape = random_shape();
        std::vector<int> target = shape;
        for (int& e : target) {
            e = std::max(1, e >> rng_.below(3));
        }
        const std::string in = p + "rin";
        std::string host = input_stream(in, t, shape);
        const std::string c_type = t.scalar == Scalar::f ? "float" : "int";
        host += "        " + type_name(t) + " " + p + "total;\n";
        host += "        " + p + "fold(" + in + ", " + p + "total);\n";
        const std::string w = std::to_string(t.width);
        if (t.scalar == Scalar::i) {
            host +=
                "        fd_print_i(\"" + p + "total\", (const int*)&" + p + "total, " + w + ");\n";
        } else {
            host += "        fd_print_f(\"" + p + "total\", 'E', (const float*)&" + p + "total, " +
                    w + ");\n";
        }
        host += "        " + type_name(t) + " " + p + "part<" + extents(target) + ">;\n";
        host += "        " + p + "fold(" + in + ", " + p + "part);\n";
        host += print_stream(p + "part", t, count(target), Cls::exact);
        return Unit{{k}, host};
    }

    // A variable output: pushes under exact conditions and bounded loops.
    Unit vout_unit() {
        scope_.clear();
        gathers_.clear();
        const std::string p = prefix();
        const Type t = random_type();
        const Type in_t = random_type();
        const int n = rng_.pick(std::vector<int>{4, 8, 16});
        const std::string in = p + "vin";
        std::string host = input_stream(in, in_t, {n});
        scope_.push_back(Var{"a", in_t, Cls::exact, in_t.scalar == Scalar::i ? 1000.0 : 16.0,
                             in_t.scalar == Scalar::i ? 0 : 2});
        scope_.push_back(Var{"indexof(a)", Type{Scalar::f, 4}, Cls::exact, 16, 0});
        Kernel k{"kernel void " + p + "emit(" + type_name(in_t) + " a<>, vout " + type_name(t) +
                     " r<>)",
                 {}};
        depth_budget_ = 0;
        k.body = declare_locals(rng_.range(1, 2));
        Var target{"r", t, Cls::exact, t.scalar == Scalar::i ? int_limit : exact_limit, 8};
        std::vector<Stmt> pushes;
        for (int i = 0; i < 3; ++i) {
            const Val v = coerce_to(gen(t, Cls::exact, 2), target);
            pushes.push_back(Stmt{{"r = $0;", "push(r);"}, {v.e}, {{}}, true});
        }
        std::vector<Stmt> rest = block(2, rng_.range(2, 5), pushes);
        k.body.insert(k.body.end(), rest.begin(), rest.end());
        k.body.push_back(pushes[0]);
        const std::string out = p + "vout";
        const std::string c_type = t.scalar == Scalar::f ? "float" : "int";
        host += "        " + type_name(t) + " " + out + "<1>;\n";
        host += "        " + p + "emit(" + in + ", " + out + ");\n";
        host += "        int " + p + "n = (int)streamSize(" + out + ").x;\n";
        host += "        printf(\"" + out + " count E: %d\\n\", " + p + "n);\n";
        host += "        if (" + p + "n > 0) { std::vector<" + c_type + "> h(" + p + "n * " +
                std::to_string(t.width) + "); streamWrite(" + out + ", h.data()); ";
        host += t.scalar == Scalar::i
                    ? "fd_print_i(\"" + out + "\", h.data(), (int)h.size()); }\n"
                    : "fd_print_f(\"" + out + "\", 'E', h.data(), (int)h.size()); }\n";
        return Unit{{k}, host};
    }

    // streamScatterOp and streamGatherOp with in-range and clamped indices.
    Unit scatter_unit() {
        const std::string p = prefix();
        const Type t{Scalar::f, rng_.range(1, 4)};
        Kernel k{"reduce void " + p + "acc(" + type_name(t) + " a<>, reduce " + type_name(t) +
                     " r<>)",
                 {Stmt{{rng_.chance(50) ? "r = r + a;" : "r = max(r, a);"}, {}, {}, false}}};
        const int n = rng_.range(3, 12);
        const int m = rng_.range(3, 12);
        std::string host = input_stream(p + "dst", t, {n});
        host += input_stream(p + "src", t, {m});
        std::string index = "{";
        for (int i = 0; i < n; ++i) {
            index += (i ? ", " : "") + std::to_string(rng_.range(-2, m + 2)) + ".0f";
        }
        host += "        float " + p + "idx<" + std::to_string(n) + ">;\n";
        host += "        static const float " + p + "idx_data[] = " + index + "};\n";
        host += "        streamRead(" + p + "idx, " + p + "idx_data);\n";
        if (rng_.chance(50)) {
            host += "        streamScatterOp(" + p + "dst, brook::clamped(" + p + "idx), " + p +
                    "src, " + p + "acc);\n";
        } else {
            host +=
                "        streamGatherOp(" + p + "dst, " + p + "idx, " + p + "src, " + p + "acc);\n";
        }
        host += print_stream(p + "dst", t, n, Cls::exact);
        host += print_stream(p + "src", t, m, Cls::exact);
        return Unit{{k}, host};
    }
};

} // namespace

Program generate_program(unsigned long long seed, int units) {
    return Generator(seed).program(seed, units);
}

} // namespace brook_fuzz
