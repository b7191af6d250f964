#pragma once
// The OpenGL backend (BRT_RUNTIME=gl): streams as float textures, kernels as generated fragment
// shaders, reductions as multipass shaders. docs/gl_backend.md describes it.

#include "core/backend.hpp"

#include <memory>

namespace brook::detail {

/// Makes the gl backend; throws gl::Unavailable (with the reason) when no context can be made.
std::unique_ptr<Backend> make_gl_backend();

} // namespace brook::detail
