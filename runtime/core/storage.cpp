// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Every backend's stream memory is a Storage, so its constructor and destructor keep the count of
// bytes the runtime holds, which BRT_MAX_MEMORY caps (README, "Running Brook programs"): a
// program that asks for more stops with a message naming the size, where the operating system
// would kill it, or the driver fail somewhere later, without saying why.

#include "core/backend.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

namespace brook::detail {

namespace {

/// BRT_MAX_MEMORY in bytes: a positive number with an optional K, M or G (powers of 1024, either
/// case); nothing when unset or empty (no cap).
std::optional<std::size_t> read_memory_cap() {
    const char* text = std::getenv("BRT_MAX_MEMORY");
    if (text == nullptr || *text == '\0') {
        return std::nullopt;
    }
    const std::string value(text);
    std::size_t number = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    const std::string suffix(end, value.data() + value.size());
    int shift = -1;
    if (suffix.empty()) {
        shift = 0;
    } else if (suffix == "K" || suffix == "k") {
        shift = 10;
    } else if (suffix == "M" || suffix == "m") {
        shift = 20;
    } else if (suffix == "G" || suffix == "g") {
        shift = 30;
    }
    if (error != std::errc() || shift < 0 || number == 0 ||
        number > (std::numeric_limits<std::size_t>::max() >> shift)) {
        fatal("BRT_MAX_MEMORY=" + value +
              " is not a size: give a positive number of bytes, optionally followed by K, M or "
              "G (1024, 1024^2, 1024^3), such as 512M");
    }
    return number << shift;
}

/// The bytes of every counted Storage alive, on every backend and thread.
std::atomic<std::size_t> bytes_in_use{0};

} // namespace

const std::optional<std::size_t>& memory_cap() {
    static const std::optional<std::size_t> cap = read_memory_cap();
    return cap;
}

std::size_t storage_bytes_held() {
    return bytes_in_use.load(std::memory_order_relaxed);
}

bool fits_memory_cap(std::size_t bytes, std::size_t held, std::size_t cap) {
    return bytes <= cap - std::min(held, cap);
}

std::string memory_cap_exceeded(std::size_t count, std::size_t element_size, std::size_t held,
                                std::size_t cap) {
    return "cannot allocate a stream of " + std::to_string(count * element_size) + " bytes (" +
           std::to_string(count) + " elements of " + std::to_string(element_size) +
           " bytes): streams already hold " + std::to_string(held) +
           " bytes and BRT_MAX_MEMORY is " + std::to_string(cap);
}

Storage::Storage(std::size_t element_size, std::size_t count)
    : element_size_(element_size), count_(count) {
    if (element_size != 0 && count > std::numeric_limits<std::size_t>::max() / element_size) {
        fatal("a stream of " + std::to_string(count) + " elements of " +
              std::to_string(element_size) + " bytes is larger than this machine can address");
    }
    const std::size_t bytes = element_size * count;
    const std::optional<std::size_t>& cap = memory_cap();
    if (!cap) {
        bytes_in_use.fetch_add(bytes, std::memory_order_relaxed);
        return;
    }
    std::size_t in_use = bytes_in_use.load(std::memory_order_relaxed);
    do {
        if (!fits_memory_cap(bytes, in_use, *cap)) {
            fatal(memory_cap_exceeded(count, element_size, in_use, *cap) +
                  "; raise BRT_MAX_MEMORY or make the stream smaller");
        }
    } while (
        !bytes_in_use.compare_exchange_weak(in_use, in_use + bytes, std::memory_order_relaxed));
}

Storage::Storage(std::size_t element_size, std::size_t count, Uncounted)
    : element_size_(element_size), count_(count), counted_(false) {}

Storage::~Storage() {
    if (counted_) {
        bytes_in_use.fetch_sub(element_size_ * count_, std::memory_order_relaxed);
    }
}

} // namespace brook::detail
