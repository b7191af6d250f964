#include "support/warning_policy.hpp"

namespace brcc {

WarningPolicy::WarningPolicy(std::span<const std::string> flags) {
    for (const std::string& flag : flags)
        apply(flag);
}

void WarningPolicy::apply(std::string_view flag) {
    if (flag == "-w") {
        silenced_ = true;
        return;
    }
    if (!flag.starts_with("-W"))
        return;
    std::string_view name = flag.substr(2);
    const bool negated = name.starts_with("no-");
    if (negated)
        name.remove_prefix(3);
    if (name == "all" || name == "extra") {
        all_ = !negated;
    } else if (name == "error") {
        all_errors_ = !negated;
    } else if (name.starts_with("error=")) {
        name.remove_prefix(6);
        named_errors_[std::string(name)] = !negated;
        // gcc: -Werror=NAME also turns NAME on; -Wno-error=NAME leaves it as it was.
        if (!negated)
            named_[std::string(name)] = true;
    } else {
        named_[std::string(name)] = !negated;
    }
}

WarningAction WarningPolicy::action(std::string_view name, WarningGroup group) const {
    if (silenced_)
        return WarningAction::Ignore;
    bool enabled = group == WarningGroup::Default || all_;
    if (const auto named = named_.find(name); named != named_.end())
        enabled = named->second;
    if (!enabled)
        return WarningAction::Ignore;
    bool error = all_errors_;
    if (const auto named = named_errors_.find(name); named != named_errors_.end())
        error = named->second;
    return error ? WarningAction::Error : WarningAction::Warn;
}

} // namespace brcc
