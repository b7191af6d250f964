// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The generator builds each expression for a wanted type and value class, tracking a bound on the
// magnitude of every value (and, for floats, the power of two the value is a multiple of), so
// that no operation can overflow, divide by zero or produce a NaN:
// - int values stay within 2^30; an operand that could overflow is first taken `% 1024`; a
//   divisor is `(d & 7) + 1`, a shift amount `k & 7`. uint values are treated alike (within
//   [0, 2^30], `% 1024u`), except where they wrap modulo 2^32, which C defines and every backend
//   computes the same (`-`, `~`, a negative int converted): such a value is taken `% 1024u`
//   before it goes further. Compound assignments (`+=` .. `>>=`) to a local are followed by
//   `%= 65536` (a clamp for floats), which brings the local back within what locals may hold.
// - char and uchar are storage types: streams, gathers and outputs of them hold ints (bytes are
//   promoted to int in expressions, and an int stored into one wraps to 8 bits, as C does).
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

enum class Scalar { f, i, u };
// How a stream of int values is stored: as int, or as (signed or unsigned) bytes.
enum class Storage { word, byte, ubyte };
enum class Cls { exact, approx }; // ints are always exact

struct Type {
    Scalar scalar = Scalar::f;
    int width = 1;
};

bool integral(Scalar s) {
    return s != Scalar::f;
}

std::string type_name(Type t, Storage storage = Storage::word) {
    std::string name = t.scalar == Scalar::f ? "float" : t.scalar == Scalar::u ? "uint" : "int";
    if (t.scalar == Scalar::i && storage != Storage::word) {
        name = storage == Storage::byte ? "char" : "uchar";
    }
    return t.width == 1 ? name : name + std::to_string(t.width);
}

// The C type of a host array holding elements of `t` stored as `storage`.
std::string c_type_of(Type t, Storage storage = Storage::word) {
    if (t.scalar == Scalar::f) {
        return "float";
    }
    if (t.scalar == Scalar::u) {
        return "unsigned int";
    }
    return storage == Storage::word   ? "int"
           : storage == Storage::byte ? "signed char"
                                      : "unsigned char";
}

// The print helper (program.cpp) for values of `s`.
std::string printer_of(Scalar s) {
    return s == Scalar::f ? "fd_print_f" : s == Scalar::u ? "fd_print_u" : "fd_print_i";
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

// A field of a struct element type.
struct Field {
    std::string name;
    Type t;
    Storage storage = Storage::word;
};

// What a map kernel writes: an output stream, or a field of a struct output (`r.f0`).
struct Output {
    std::string name;
    Type t;
    Storage storage = Storage::word;
    Cls cls = Cls::exact;
};

// A gather parameter: its element type, rank and storage.
struct Gather {
    std::string name;
    Type t;
    int rank = 1;
    Storage storage = Storage::word;
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

// A literal of the type: ints in [-20, 20], uints in [0, 20], floats multiples of 1/4 in [-8, 8].
std::string scalar_literal(Rng& rng, Scalar s) {
    if (s == Scalar::i) {
        return std::to_string(rng.range(-20, 20));
    }
    if (s == Scalar::u) {
        return std::to_string(rng.range(0, 20)) + "u";
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
    const char* one = t.scalar == Scalar::f ? "1.0" : t.scalar == Scalar::u ? "1u" : "1";
    return vector_of(t, std::vector<std::string>(static_cast<std::size_t>(t.width), one));
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
            const int kind = rng_.below(12);
            if (kind < 6) {
                p.units.push_back(map_unit());
            } else if (kind < 8) {
                p.units.push_back(reduce_unit());
            } else if (kind < 9) {
                p.units.push_back(vout_unit());
            } else if (kind < 10) {
                p.units.push_back(scatter_unit());
            } else {
                p.units.push_back(view_unit());
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

    Scalar random_scalar() {
        const int kind = rng_.below(100);
        return kind < 50 ? Scalar::f : kind < 80 ? Scalar::i : Scalar::u;
    }
    Type random_type() { return Type{random_scalar(), rng_.range(1, 4)}; }
    // ints are sometimes stored as bytes: streams of char or uchar.
    Storage random_storage(Type t) {
        if (t.scalar != Scalar::i || rng_.chance(70)) {
            return Storage::word;
        }
        return rng_.chance(50) ? Storage::byte : Storage::ubyte;
    }
    // How an expression reads a stream element of `storage` as a value of `t`: a byte as it is
    // (promoted to int where it meets an operator or built-in) or converted to int explicitly.
    std::string read_as(const std::string& text, Type t, Storage storage) {
        if (storage == Storage::word || rng_.chance(50)) {
            return text;
        }
        return "((" + type_name(t) + ")(" + text + "))";
    }

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
        return Val{leaf(text), t, Cls::exact, integral(t.scalar) ? 20.0 : 8.0,
                   integral(t.scalar) ? 0 : 2};
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
            v.e = node(read_as(g.name + "[$0]", g.t, g.storage), {index.e}, g.t);
        } else if (rng_.chance(50)) {
            const Val row = gen(Type{index.t.scalar, 1}, Cls::exact, 1);
            v.e = node(read_as(g.name + "[$0][$1]", g.t, g.storage), {row.e, index.e}, g.t);
        } else {
            const Val pos = gen(Type{index.t.scalar, 2}, Cls::exact, 1);
            v.e = node(read_as(g.name + "[$0]", g.t, g.storage), {pos.e}, g.t);
        }
        v.t = g.t;
        v.bound = integral(g.t.scalar) ? 1000 : 16;
        v.grain = integral(g.t.scalar) ? 0 : 2;
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
            const bool is_int = integral(t.scalar);
            helper.params.push_back(Var{"p" + std::to_string(i), t, Cls::exact,
                                        is_int ? int_local_bound : exact_local_bound,
                                        is_int ? 0 : exact_local_grain});
            head += (i ? ", " : "") + type_name(t) + " p" + std::to_string(i);
        }
        scope_ = helper.params;
        const bool is_int = integral(helper.result.scalar);
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

    // Wraps an int operand into (-1024, 1024), a uint one into [0, 1024).
    static Val int_wrap(Val v) {
        if (v.bound > 1023) {
            v.e = node(v.t.scalar == Scalar::u ? "($0 % 1024u)" : "($0 % 1024)", {v.e}, v.t);
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
        if (integral(t.scalar)) { // at most 2^29, so that any sum of two stays within int
            const Val v = gen_int(t, depth);
            return v.bound > int_limit / 2 ? int_wrap(v) : v;
        }
        if (cls == Cls::approx && rng_.chance(60)) {
            return gen_approx(t, depth);
        }
        return gen_exact_float(t, cls, depth);
    }

    Val gen_int(Type t, int depth) {
        // uint wraps modulo 2^32 where int would overflow: defined, and the same everywhere.
        const bool is_uint = t.scalar == Scalar::u;
        const std::string u = is_uint ? "u" : "";
        constexpr double wrapped = 4294967295.0;
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
            } else if (op == 1 && is_uint) {
                bound = wrapped;
            }
            return Val{node("($0 " + std::string(ops[op]) + " $1)", {a.e, b.e}, t), t, Cls::exact,
                       bound, 0};
        }
        switch (op) {
        case 6: {
            const Val d = gen(t, Cls::exact, depth - 1);
            return Val{node("($0 / (($1 & 7" + u + ") + 1" + u + "))", {a.e, d.e}, t), t,
                       Cls::exact, a.bound, 0};
        }
        case 7: {
            const Val d = gen(t, Cls::exact, depth - 1);
            return Val{node("($0 % (($1 & 7" + u + ") + 1" + u + "))", {a.e, d.e}, t), t,
                       Cls::exact, 7, 0};
        }
        case 8: {
            a = int_wrap(a);
            const Val k = gen(t, Cls::exact, depth - 1);
            return Val{node("($0 << ($1 & 7" + u + "))", {a.e, k.e}, t), t, Cls::exact,
                       a.bound * 128, 0};
        }
        case 9: {
            const Val k = gen(t, Cls::exact, depth - 1);
            return Val{node("($0 >> ($1 & 15" + u + "))", {a.e, k.e}, t), t, Cls::exact, a.bound,
                       0};
        }
        case 10:
            return Val{node(rng_.chance(50) ? "(-$0)" : "(~$0)", {a.e}, t), t, Cls::exact,
                       is_uint ? wrapped : a.bound + 1, 0};
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
        case 13: { // from a float, truncated; a negative float is no uint, so uint takes abs
            const Val f = gen(Type{Scalar::f, t.width}, Cls::exact, depth - 1);
            return Val{
                node("(" + type_name(t) + ")(" + (is_uint ? "abs($0)" : "$0") + ")", {f.e}, t), t,
                Cls::exact, f.bound, 0};
        }
        default:
            if (rng_.chance(50)) { // from the other integer type: a negative int wraps to uint
                const Val other =
                    gen(Type{is_uint ? Scalar::i : Scalar::u, t.width}, Cls::exact, depth - 1);
                return Val{node("(" + type_name(t) + ")($0)", {other.e}, t), t, Cls::exact,
                           is_uint ? wrapped : other.bound, 0};
            }
            if (is_uint) { // GLSL has no abs of uint
                return a;
            }
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
            const Scalar from = rng_.chance(70) ? Scalar::i : Scalar::u;
            Val i = int_wrap(gen(Type{from, t.width}, Cls::exact, depth - 1));
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
        const Type t{random_scalar(), kind < 7 ? 1 : rng_.range(2, 4)};
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
        if (integral(var.t.scalar)) {
            if (v.bound > var.bound) {
                v.e =
                    node(var.t.scalar == Scalar::u ? "($0 % 65536u)" : "($0 % 65536)", {v.e}, v.t);
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
        if (integral(t.scalar)) {
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
        if (rng_.chance(35)) {
            return compound_assignment(var, depth);
        }
        const Val v = coerce_to(gen(var.t, var.cls, depth), var);
        return Stmt{{var.name + " = $0;"}, {v.e}, {}, true};
    }

    // `var OP= value;`, then what brings `var` back within its bound: `%= 65536` for integers
    // (whose result is within (-65536, 65536)), a clamp for floats.
    Stmt compound_assignment(const Var& var, int depth) {
        const std::string& name = var.name;
        if (integral(var.t.scalar)) {
            const std::string u = var.t.scalar == Scalar::u ? "u" : "";
            const char* ops[] = {"+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>=", "/=", "%="};
            const int op = rng_.below(10);
            Val v = gen(var.t, Cls::exact, depth);
            std::string rhs = "$0";
            if (op == 2) { // 65535 * 1023 stays within 2^26
                v = int_wrap(v);
            } else if (op < 6) {
                v = coerce_to(v, var);
            } else if (op == 6) {
                rhs = "($0 & 7" + u + ")";
            } else if (op == 7) {
                rhs = "($0 & 15" + u + ")";
            } else {
                rhs = "(($0 & 7" + u + ") + 1" + u + ")";
            }
            std::vector<std::string> parts = {name + " " + ops[op] + " " + rhs + ";"};
            if (op <= 6) { // the others keep the local within its bound
                parts.push_back(name + " %= 65536" + u + ";");
            }
            return Stmt{parts, {v.e}, {}, true};
        }
        char clamp[96];
        std::snprintf(clamp, sizeof clamp, "%s = clamp(%s, -%.1f, %.1f);", name.c_str(),
                      name.c_str(), var.bound, var.bound);
        const int op = rng_.below(var.cls == Cls::approx ? 4 : 3);
        Val v = gen(var.t, var.cls, depth);
        if (op < 2) { // exact: 256 + 256 with the local's grain is exact
            return Stmt{
                {name + (op == 0 ? " += $0;" : " -= $0;"), clamp}, {coerce_to(v, var).e}, {}, true};
        }
        if (op == 2) { // exact: 256 * 32 with the local's grain is exact
            v = var.cls == Cls::exact ? coarse(v) : float_clamp(v, 64);
            return Stmt{{name + " *= $0;", clamp}, {v.e}, {}, true};
        }
        v = float_clamp(v, 64);
        return Stmt{{name + " /= (abs($0) + 0.5);", clamp}, {v.e}, {}, true};
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
                if (integral(v.t.scalar)) {
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

    // One host value of `s` stored as `storage`: ints in [-1000, 1000], uints in [0, 1000],
    // bytes over their whole range, floats multiples of 1/4 in [-16, 16].
    std::string host_value(Scalar s, Storage storage) {
        if (s == Scalar::u) {
            return std::to_string(rng_.range(0, 1000)) + "u";
        }
        if (s == Scalar::i) {
            return std::to_string(storage == Storage::word   ? rng_.range(-1000, 1000)
                                  : storage == Storage::byte ? rng_.range(-128, 127)
                                                             : rng_.range(0, 255));
        }
        char text[32];
        std::snprintf(text, sizeof text, "%.2ff", rng_.range(-64, 64) / 4.0);
        return text;
    }

    // Values for `count` elements of `t`, printed as a C initialiser.
    std::string data(Type t, int count, Storage storage = Storage::word) {
        std::string out = "{";
        for (int i = 0; i < count * t.width; ++i) {
            out += (i ? ", " : "") + host_value(t.scalar, storage);
        }
        return out + "}";
    }

    // The magnitude bound of what data() gives.
    static double data_bound(Type t, Storage storage) {
        return t.scalar == Scalar::f      ? 16.0
               : storage == Storage::word ? 1000.0
               : storage == Storage::byte ? 128.0
                                          : 255.0;
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
    std::string input_stream(const std::string& name, Type t, const std::vector<int>& shape,
                             Storage storage = Storage::word) {
        return "        " + type_name(t, storage) + " " + name + "<" + extents(shape) + ">;\n" +
               "        static const " + c_type_of(t, storage) + " " + name +
               "_data[] = " + data(t, count(shape), storage) + ";\n" + "        streamRead(" +
               name + ", " + name + "_data);\n";
    }

    // The host call printing `n` values of `t` stored as `storage` from `array` as `label`.
    static std::string print_call(const std::string& label, const std::string& array,
                                  const std::string& n, Type t, Storage storage, Cls cls) {
        if (t.scalar == Scalar::f) {
            return "fd_print_f(\"" + label + "\", '" + (cls == Cls::exact ? "E" : "A") + "', " +
                   array + ", " + n + ");";
        }
        const std::string printer = storage == Storage::byte    ? "fd_print_c"
                                    : storage == Storage::ubyte ? "fd_print_uc"
                                                                : printer_of(t.scalar);
        return printer + "(\"" + label + "\", " + array + ", " + n + ");";
    }

    // Host lines: write stream `name` back and print it as `label` with the value class.
    static std::string print_stream(const std::string& name, Type t, int elements, Cls cls,
                                    Storage storage = Storage::word) {
        const std::string n = std::to_string(elements * t.width);
        return "        { static " + c_type_of(t, storage) + " h[" + n + "]; streamWrite(" + name +
               ", h); " + print_call(name, "h", n, t, storage, cls) + " }\n";
    }

    // Host lines: declare stream `name` of the struct `type` and `shape`, filled with data.
    std::string struct_stream(const std::string& name, const std::string& type,
                              const std::vector<Field>& fields, const std::vector<int>& shape) {
        std::string values;
        for (int e = 0; e < count(shape); ++e) {
            values += e ? ", {" : "{";
            for (std::size_t f = 0; f < fields.size(); ++f) {
                const Field& field = fields[f];
                const std::string c_type = c_type_of(field.t, field.storage);
                std::string parts;
                for (int c = 0; c < field.t.width; ++c) {
                    parts += (c ? ", (" : "(") + c_type + ")(" +
                             host_value(field.t.scalar, field.storage) + ")";
                }
                values +=
                    (f ? ", " : "") + (field.t.width == 1
                                           ? parts
                                           : type_name(field.t, field.storage) + "(" + parts + ")");
            }
            values += "}";
        }
        return "        " + type + " " + name + "<" + extents(shape) + ">;\n" +
               "        static const " + type + " " + name + "_data[] = {" + values + "};\n" +
               "        streamRead(" + name + ", " + name + "_data);\n";
    }

    // Host lines: write the struct stream `name` back and print each field as `name.field`.
    static std::string print_struct_stream(const std::string& name, const std::string& type,
                                           const std::vector<Field>& fields, int elements) {
        const std::string n = std::to_string(elements);
        std::string out =
            "        { static " + type + " h[" + n + "]; streamWrite(" + name + ", h);\n";
        for (const Field& field : fields) {
            const std::string w = std::to_string(field.t.width);
            const std::string values = std::to_string(elements * field.t.width);
            const std::string array = "h_" + field.name;
            out += "          static " + c_type_of(field.t, field.storage) + " " + array + "[" +
                   values + "];\n          for (int e = 0; e < " + n + "; ++e) memcpy(&" + array +
                   "[e * " + w + "], &h[e]." + field.name + ", sizeof " + array + "[0] * " + w +
                   ");\n          " +
                   print_call(name + "." + field.name, array, values, field.t, field.storage,
                              Cls::exact) +
                   "\n";
        }
        return out + "        }\n";
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
            const Storage storage = random_storage(t);
            const std::string name = p + "in" + std::to_string(i);
            host += input_stream(name, t, rng_.chance(60) ? shape : resized(shape), storage);
            params.push_back(type_name(t, storage) + " " + name + "<>");
            args.push_back(name);
            scope_.push_back(Var{read_as(name, t, storage), t, Cls::exact, data_bound(t, storage),
                                 integral(t.scalar) ? 0 : 2});
        }
        // A struct type, for an input or an output stream (or both) of it.
        std::vector<Field> fields;
        const std::string struct_name = p + "S";
        std::string declarations;
        if (rng_.chance(25)) {
            declarations = "typedef struct {";
            for (int i = 0, n = rng_.range(2, 3); i < n; ++i) {
                const Type t = random_type();
                fields.push_back(Field{"f" + std::to_string(i), t, random_storage(t)});
                declarations +=
                    " " + type_name(t, fields.back().storage) + " " + fields.back().name + ";";
            }
            declarations += " } " + struct_name + ";\n";
        }
        const bool struct_in = !fields.empty() && rng_.chance(70);
        const bool struct_out = !fields.empty() && (!struct_in || rng_.chance(50));
        if (struct_in) {
            const std::string name = p + "sin";
            host +=
                struct_stream(name, struct_name, fields, rng_.chance(60) ? shape : resized(shape));
            params.push_back(struct_name + " " + name + "<>");
            args.push_back(name);
            for (const Field& field : fields) {
                scope_.push_back(Var{read_as(name + "." + field.name, field.t, field.storage),
                                     field.t, Cls::exact, data_bound(field.t, field.storage),
                                     integral(field.t.scalar) ? 0 : 2});
            }
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
            const Storage storage = random_storage(t);
            const std::string name = p + "g" + std::to_string(i);
            const int rank = rng_.range(1, 2);
            const std::vector<int> gshape =
                rank == 1 ? std::vector<int>{rng_.range(3, 40)}
                          : std::vector<int>{rng_.range(2, 9), rng_.range(2, 9)};
            host += input_stream(name, t, gshape, storage);
            params.push_back(type_name(t, storage) + " " + name + (rank == 1 ? "[]" : "[][]"));
            args.push_back(name);
            gathers_.push_back(Gather{name, t, rank, storage});
        }
        const int constants = rng_.range(0, 2);
        for (int i = 0; i < constants; ++i) {
            const Type t = random_type();
            const std::string name = p + "k" + std::to_string(i);
            params.push_back(type_name(t) + " " + name);
            std::vector<std::string> parts;
            for (int c = 0; c < t.width; ++c) {
                parts.push_back(t.scalar == Scalar::i ? std::to_string(rng_.range(-50, 50))
                                : t.scalar == Scalar::u
                                    ? std::to_string(rng_.range(0, 50)) + "u"
                                    : std::to_string(rng_.range(-32, 32)) + ".0f / 4");
            }
            args.push_back(vector_of(t, parts));
            scope_.push_back(Var{name, t, Cls::exact, 50, 2});
        }

        // A kernel that may discard leaves some elements of its outputs as they were: the outputs
        // start with values of their own.
        const bool discards = rng_.chance(20);
        const int outputs = rng_.range(struct_out ? 0 : 1, 2);
        std::vector<Output> outs;
        for (int i = 0; i < outputs; ++i) {
            const Type t = random_type();
            const Storage storage = random_storage(t);
            const std::string name = p + "out" + std::to_string(i);
            outs.push_back(
                Output{name, t, storage,
                       t.scalar == Scalar::f && rng_.chance(40) ? Cls::approx : Cls::exact});
            params.push_back("out " + type_name(t, storage) + " " + name + "<>");
            args.push_back(name);
            host += discards ? input_stream(name, t, shape, storage)
                             : "        " + type_name(t, storage) + " " + name + "<" +
                                   extents(shape) + ">;\n";
        }
        const std::string struct_result = p + "sout";
        if (struct_out) {
            for (const Field& field : fields) {
                outs.push_back(
                    Output{struct_result + "." + field.name, field.t, field.storage, Cls::exact});
            }
            params.push_back("out " + struct_name + " " + struct_result + "<>");
            args.push_back(struct_result);
            host += discards ? struct_stream(struct_result, struct_name, fields, shape)
                             : "        " + struct_name + " " + struct_result + "<" +
                                   extents(shape) + ">;\n";
        }
        // indexof of an input or output: exact small whole numbers.
        const std::string indexed =
            rng_.chance(50) && !outs.empty() && outs[0].name.find('.') == std::string::npos
                ? outs[0].name
                : p + "in0";
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
        if (discards) { // anywhere after the declarations
            rest.insert(rest.begin() + rng_.range(0, static_cast<int>(rest.size())),
                        Stmt{{"if ($0) discard;"}, {condition(2)}, {}, true});
        }
        k.body.insert(k.body.end(), rest.begin(), rest.end());
        for (const Output& out : outs) {
            Var target{out.name, out.t, out.cls, integral(out.t.scalar) ? int_limit : approx_limit,
                       8};
            const Val v = coerce_to(mix_in_local(gen(target.t, target.cls, 3)), target);
            k.body.push_back(Stmt{{out.name + " = $0;"}, {v.e}, {}, false});
        }
        host += "        " + kname + "(";
        for (std::size_t i = 0; i < args.size(); ++i) {
            host += (i ? ", " : "") + args[i];
        }
        host += ");\n";
        // The output reduced at once, before it is printed: a backend may compute the map as
        // the reduction folds it (the cpu backend's held calls) and store the output later.
        std::optional<Kernel> fold;
        if (outs.size() == 1 && !struct_out && !discards && outs[0].storage == Storage::word &&
            outs[0].cls == Cls::exact && rng_.chance(50)) {
            fold = fold_of(outs[0], shape, host);
        }
        for (const Output& out : outs) {
            if (out.name.find('.') == std::string::npos) {
                host += print_stream(out.name, out.t, count(shape), out.cls, out.storage);
            }
        }
        if (struct_out) {
            host += print_struct_stream(struct_result, struct_name, fields, count(shape));
        }
        helper_.reset();
        kernels.push_back(k);
        if (fold) {
            kernels.push_back(*fold);
        }
        return Unit{kernels, host, declarations};
    }

    /// A min or max reduction (exact whatever the order) of all of `out`, of `shape`, to a value
    /// and to a smaller stream, appended to `host` with their prints.
    Kernel fold_of(const Output& out, const std::vector<int>& shape, std::string& host) {
        const std::string name = out.name + "_fold";
        const std::string type = type_name(out.t);
        Kernel fold{"reduce void " + name + "(" + type + " a<>, reduce " + type + " r<>)",
                    {Stmt{{rng_.chance(50) ? "r = min(r, a);" : "r = max(a, r);"}, {}, {}, false}}};
        std::vector<int> target = shape;
        for (int& e : target) {
            e = std::max(1, e >> rng_.below(3));
        }
        const std::string value = out.name + "_value";
        const std::string part = out.name + "_part";
        const std::string to_value =
            "        " + type + " " + value + ";\n        " + name + "(" + out.name + ", " + value +
            ");\n        " +
            print_call(value, "(const " + c_type_of(out.t) + "*)&" + value,
                       std::to_string(out.t.width), out.t, Storage::word, Cls::exact) +
            "\n";
        const std::string to_stream = "        " + type + " " + part + "<" + extents(target) +
                                      ">;\n        " + name + "(" + out.name + ", " + part +
                                      ");\n" + print_stream(part, out.t, count(target), Cls::exact);
        // Either first (the first reduction is the one that may run with the map), and the
        // stream's values read between them or after both.
        const bool value_first = rng_.chance(50);
        host += value_first ? to_value : to_stream;
        if (rng_.chance(50)) {
            host += print_stream(out.name, out.t, count(shape), out.cls, out.storage);
        }
        host += value_first ? to_stream : to_value;
        return fold;
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
        host += "        " + type_name(t) + " " + p + "total;\n";
        host += "        " + p + "fold(" + in + ", " + p + "total);\n";
        host += "        " +
                print_call(p + "total", "(const " + c_type_of(t) + "*)&" + p + "total",
                           std::to_string(t.width), t, Storage::word, Cls::exact) +
                "\n";
        host += "        " + type_name(t) + " " + p + "part<" + extents(target) + ">;\n";
        host += "        " + p + "fold(" + in + ", " + p + "part);\n";
        host += print_stream(p + "part", t, count(target), Cls::exact);
        return Unit{{k}, host, {}};
    }

    // A variable output: pushes under exact conditions and bounded loops.
    Unit vout_unit() {
        scope_.clear();
        gathers_.clear();
        const std::string p = prefix();
        const Type t = random_type();
        const Type in_t = random_type();
        // A 2-D input gives a 2-D result, W (the input's last extent) values a row, the last row
        // padded with the type's largest value.
        const std::vector<int> shape =
            rng_.chance(35) ? std::vector<int>{rng_.pick(std::vector<int>{2, 3, 4}),
                                               rng_.pick(std::vector<int>{2, 4, 5})}
                            : std::vector<int>{rng_.pick(std::vector<int>{4, 8, 16})};
        const std::string in = p + "vin";
        std::string host = input_stream(in, in_t, shape);
        scope_.push_back(Var{"a", in_t, Cls::exact, data_bound(in_t, Storage::word),
                             integral(in_t.scalar) ? 0 : 2});
        scope_.push_back(Var{"indexof(a)", Type{Scalar::f, 4}, Cls::exact, 16, 0});
        Kernel k{"kernel void " + p + "emit(" + type_name(in_t) + " a<>, vout " + type_name(t) +
                     " r<>)",
                 {}};
        depth_budget_ = 0;
        k.body = declare_locals(rng_.range(1, 2));
        Var target{"r", t, Cls::exact, integral(t.scalar) ? int_limit : exact_limit, 8};
        std::vector<Stmt> pushes;
        for (int i = 0; i < 3; ++i) {
            const Val v = coerce_to(gen(t, Cls::exact, 2), target);
            pushes.push_back(Stmt{{"r = $0;", "push(r);"}, {v.e}, {{}}, true});
        }
        std::vector<Stmt> rest = block(2, rng_.range(2, 5), pushes);
        k.body.insert(k.body.end(), rest.begin(), rest.end());
        k.body.push_back(pushes[0]);
        const std::string out = p + "vout";
        const std::string n = p + "n";
        host +=
            "        " + type_name(t) + " " + out + (shape.size() == 1 ? "<1>" : "<1, 1>") + ";\n";
        host += "        " + p + "emit(" + in + ", " + out + ");\n";
        if (shape.size() == 1) {
            host += "        int " + n + " = (int)streamSize(" + out + ").x;\n";
            host += "        printf(\"" + out + " count E: %d\\n\", " + n + ");\n";
        } else {
            host += "        int " + n + " = (int)streamSize(" + out + ").x * (int)streamSize(" +
                    out + ").y;\n";
            host += "        printf(\"" + out + " shape E: %d %d\\n\", (int)streamSize(" + out +
                    ").y, (int)streamSize(" + out + ").x);\n";
        }
        host += "        if (" + n + " > 0) { std::vector<" + c_type_of(t) + "> h(" + n + " * " +
                std::to_string(t.width) + "); streamWrite(" + out + ", h.data()); " +
                print_call(out, "h.data()", "(int)h.size()", t, Storage::word, Cls::exact) + " }\n";
        return Unit{{k}, host, {}};
    }

    // The `.domain()` view of `stream` of `extent` elements from `first` along each dimension
    // (slowest first), its bounds written as Brook takes them: ints for 1-D, else intN with .x the
    // last dimension.
    static std::string domain_of(const std::string& stream, const std::vector<int>& first,
                                 const std::vector<int>& extent) {
        const auto bound = [&](bool end) {
            std::string parts;
            for (std::size_t d = first.size(); d-- > 0;) {
                const int value = first[d] + (end ? extent[d] : 0);
                parts += (parts.empty() ? "" : ", ") + std::to_string(value);
            }
            return first.size() == 1 ? parts
                                     : "int" + std::to_string(first.size()) + "(" + parts + ")";
        };
        return stream + ".domain(" + bound(false) + ", " + bound(true) + ")";
    }

    // Where a view of `extent` may start in a stream of `shape`.
    std::vector<int> view_start(const std::vector<int>& shape, const std::vector<int>& extent) {
        std::vector<int> first;
        for (std::size_t d = 0; d < shape.size(); ++d) {
            first.push_back(rng_.range(0, shape[d] - extent[d]));
        }
        return first;
    }

    // Views (`.domain()`) as an output, an input, a gather, a reduce input and in
    // streamRead/streamWrite, over streams of 1 to 3 dimensions whose rows split unevenly between
    // ranks, and streams one call hands on to the next: a view of `dst` is written from a view of
    // `src`, from `src` whole (resized to the view) or from another view of `dst` itself (the call
    // reads the values from before it), then `dst` is printed whole and as the view, and a
    // reduction folds a view of it.
    Unit view_unit() {
        scope_.clear();
        gathers_.clear();
        const std::string p = prefix();
        const int rank = rng_.range(1, 3);
        // The input: a view of src, src whole (resized to the view, so each of the view's
        // extents divides src's), or a view of dst itself.
        const int input_kind = rng_.below(3);
        std::vector<int> shape;
        std::vector<int> extent;
        for (int d = 0; d < rank; ++d) {
            shape.push_back(rank == 1 ? rng_.range(3, 40) : rng_.range(2, rank == 2 ? 9 : 5));
            if (input_kind != 1) {
                extent.push_back(rng_.range(1, shape.back()));
                continue;
            }
            std::vector<int> divisors;
            for (int e = 1; e <= shape.back(); ++e) {
                if (shape.back() % e == 0) {
                    divisors.push_back(e);
                }
            }
            extent.push_back(rng_.pick(divisors));
        }
        const Type in_t = random_type();
        const Storage in_storage = random_storage(in_t);
        const Type out_t = random_type();
        const Storage out_storage = random_storage(out_t);
        const std::string src = p + "src";
        const std::string dst = p + "dst";
        std::string host = input_stream(src, in_t, shape, in_storage);
        host += input_stream(dst, out_t, shape, out_storage);
        if (rng_.chance(30)) { // part of dst replaced through a view
            const std::vector<int> part = view_start(shape, std::vector<int>(shape.size(), 1));
            std::vector<int> part_extent;
            for (std::size_t d = 0; d < shape.size(); ++d) {
                part_extent.push_back(rng_.range(1, shape[d] - part[d]));
            }
            host += "        static const " + c_type_of(out_t, out_storage) + " " + p +
                    "patch[] = " + data(out_t, count(part_extent), out_storage) + ";\n" +
                    "        streamRead(" + domain_of(dst, part, part_extent) + ", " + p +
                    "patch);\n";
        }

        const Type a_t = input_kind == 2 ? out_t : in_t;
        const Storage a_storage = input_kind == 2 ? out_storage : in_storage;
        const std::string input =
            input_kind == 0   ? domain_of(src, view_start(shape, extent), extent)
            : input_kind == 1 ? src
                              : domain_of(dst, view_start(shape, extent), extent);
        std::vector<std::string> params = {type_name(a_t, a_storage) + " a<>"};
        std::vector<std::string> args = {input};
        scope_.push_back(Var{read_as("a", a_t, a_storage), a_t, Cls::exact,
                             data_bound(a_t, a_storage), integral(a_t.scalar) ? 0 : 2});
        scope_.push_back(Var{"indexof(a)", Type{Scalar::f, 4}, Cls::exact, 64, 0});
        scope_.push_back(Var{"indexof(r)", Type{Scalar::f, 4}, Cls::exact, 64, 0});
        if (rank <= 2 && rng_.chance(50)) { // src, or a view of it, read anywhere
            std::vector<int> gather_extent;
            for (const int e : shape) {
                gather_extent.push_back(rng_.range(1, e));
            }
            params.push_back(type_name(in_t, in_storage) + " g" + (rank == 1 ? "[]" : "[][]"));
            args.push_back(rng_.chance(50)
                               ? src
                               : domain_of(src, view_start(shape, gather_extent), gather_extent));
            gathers_.push_back(Gather{"g", in_t, rank, in_storage});
        }
        const std::vector<int> out_first = view_start(shape, extent);
        const std::string output = domain_of(dst, out_first, extent);
        params.push_back("out " + type_name(out_t, out_storage) + " r<>");
        args.push_back(output);

        Kernel k{"kernel void " + p + "view(", {}};
        for (std::size_t i = 0; i < params.size(); ++i) {
            k.head += (i ? ", " : "") + params[i];
        }
        k.head += ")";
        helper_.reset();
        depth_budget_ = 1;
        k.body = declare_locals(rng_.range(1, 2));
        std::vector<Stmt> rest = block(1, rng_.range(1, 3), {});
        k.body.insert(k.body.end(), rest.begin(), rest.end());
        const Var target{"r", out_t, Cls::exact, integral(out_t.scalar) ? int_limit : exact_limit,
                         8};
        k.body.push_back(Stmt{{"r = $0;"},
                              {coerce_to(mix_in_local(gen(out_t, Cls::exact, 3)), target).e},
                              {},
                              false});

        host += "        " + p + "view(";
        for (std::size_t i = 0; i < args.size(); ++i) {
            host += (i ? ", " : "") + args[i];
        }
        host += ");\n";
        host += print_stream(dst, out_t, count(shape), Cls::exact, out_storage);
        const std::string n = std::to_string(count(extent) * out_t.width);
        host += "        { static " + c_type_of(out_t, out_storage) + " h[" + n +
                "]; streamWrite(" + output + ", h); " +
                print_call(dst + " view", "h", n, out_t, out_storage, Cls::exact) + " }\n";

        if (out_storage != Storage::word) { // a reduction's input and result share one type
            return Unit{{k}, host, {}};
        }
        // min or max of a view of dst: exact whatever the order.
        Kernel fold{"reduce void " + p + "fold(" + type_name(out_t) + " a<>, reduce " +
                        type_name(out_t) + " r<>)",
                    {Stmt{{rng_.chance(50) ? "r = min(r, a);" : "r = max(a, r);"}, {}, {}, false}}};
        const std::vector<int> folded = view_start(shape, extent);
        host += "        " + type_name(out_t) + " " + p + "least;\n";
        host += "        " + p + "fold(" + domain_of(dst, folded, extent) + ", " + p + "least);\n";
        host += "        " +
                print_call(p + "least", "(const " + c_type_of(out_t) + "*)&" + p + "least",
                           std::to_string(out_t.width), out_t, Storage::word, Cls::exact) +
                "\n";
        return Unit{{k, fold}, host, {}};
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
        return Unit{{k}, host, {}};
    }
};

} // namespace

Program generate_program(unsigned long long seed, int units) {
    return Generator(seed).program(seed, units);
}

} // namespace brook_fuzz
