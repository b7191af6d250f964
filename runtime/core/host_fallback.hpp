// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// BROOKPLUS.md's rule 2 for a construct a backend cannot run: run that call on the host,
// copying its streams. A HostLaunch copies the region of every stream a bound Launch reads or
// writes from its backend into dense storage of the cpu backend and binds a copy of the launch
// to those (with the kernel's cpu code); after the cpu backend ran it, write_back() copies the
// regions the call writes back. Under mpi every process does the same, so each holds the whole
// result and keeps its own rows.

#include "core/backend.hpp"

#include <memory>
#include <vector>

namespace brook::detail {

class HostLaunch {
public:
    /// `launch` bound on `backend` with the kernel's cpu code (BindOptions::on_host).
    HostLaunch(Backend& backend, const Launch& launch);

    /// The cpu backend, which runs `launch()`.
    Backend& host() const { return *host_; }
    /// The launch bound to the host copies.
    Launch& launch() { return launch_; }
    /// Copies the regions the call wrote (its outputs) back to the backend's storage.
    void write_back();

private:
    Backend& backend_;
    Backend* host_;
    Launch launch_;
    std::vector<std::unique_ptr<Storage>> copies_;
    /// Per stream argument the call writes: its parameter, and where its region came from.
    struct WrittenRegion {
        std::size_t param;
        BoundStream original;
    };
    std::vector<WrittenRegion> written_;
};

} // namespace brook::detail
