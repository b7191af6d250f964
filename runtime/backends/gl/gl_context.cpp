// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Headless EGL context creation. The device platform (EGL_EXT_platform_device) reaches a GPU
// without a display server, and Mesa's surfaceless platform serves llvmpipe in CI; the default
// display is the last resort. Each attempt that fails adds its reason, so the error says what
// was tried.
//
// libepoxy loads libEGL.so.1 itself, on the first EGL call, and aborts the program when the
// library or one of its entry points is missing. So before any EGL call the backend looks for them
// the way libepoxy will (the same name, hence the same search path, and the same flags); what is
// missing becomes the reason the backend cannot start, and `auto` goes on to the next backend.
#include "backends/gl/gl_context.hpp"

#include "core/errors.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

namespace brook::detail::gl {

namespace {

bool has_extension(const char* list, std::string_view name) {
    if (list == nullptr) {
        return false;
    }
    std::string_view rest = list;
    while (!rest.empty()) {
        const std::size_t end = std::min(rest.find(' '), rest.size());
        if (rest.substr(0, end) == name) {
            return true;
        }
        rest.remove_prefix(std::min(end + 1, rest.size()));
    }
    return false;
}

/// The name libepoxy opens EGL by on Linux (dispatch_common.c's EGL_LIB).
constexpr const char* egl_library = "libEGL.so.1";

/// What the backend needs of libEGL.so.1 through libepoxy: the EGL 1.x entry points it calls,
/// which libepoxy resolves with dlsym, and eglGetProcAddress, through which libepoxy finds the
/// extensions and the newer OpenGL functions.
constexpr const char* egl_entry_points[] = {
    "eglGetProcAddress", "eglGetError",       "eglQueryString", "eglGetDisplay",
    "eglInitialize",     "eglTerminate",      "eglBindAPI",     "eglChooseConfig",
    "eglCreateContext",  "eglDestroyContext", "eglMakeCurrent", "eglGetCurrentContext",
    "eglReleaseThread"};

/// Throws Unavailable, saying what to install, unless libEGL.so.1 loads and has every entry
/// point of egl_entry_points (see the top of the file).
void require_egl_library() {
    const std::string remedy =
        "; install an EGL driver (Debian: libegl1 with libegl-mesa0, or the GPU vendor's driver) "
        "or use another backend";
    void* library = dlopen(egl_library, RTLD_LAZY | RTLD_LOCAL);
    if (library == nullptr) {
        throw Unavailable(std::string("cannot load ") + egl_library + " (" + dlerror() + ")" +
                          remedy);
    }
    std::string missing;
    for (const char* entry : egl_entry_points) {
        if (dlsym(library, entry) == nullptr) {
            missing += (missing.empty() ? "" : ", ") + std::string(entry);
        }
    }
    // libepoxy keeps its own handle; this one only looked.
    dlclose(library);
    if (!missing.empty()) {
        throw Unavailable(std::string(egl_library) + " lacks " + missing +
                          " (it is not a usable EGL library)" + remedy);
    }
}

std::string egl_error_text() {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "EGL error 0x%04x", static_cast<unsigned>(eglGetError()));
    return buffer;
}

/// A positive integer from the environment, or `fallback`.
int env_limit(const char* name, int fallback) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
        return fallback;
    }
    char* end = nullptr;
    const long parsed = std::strtol(value, &end, 10);
    if (*end != '\0' || parsed < 1) {
        fatal(std::string(name) + "=" + value + " is not a positive integer");
    }
    return static_cast<int>(std::min<long>(parsed, fallback));
}

/// The displays to try, in order, with a name for messages.
std::vector<std::pair<std::string, EGLDisplay>> candidate_displays(std::string& reasons) {
    std::vector<std::pair<std::string, EGLDisplay>> displays;
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (has_extension(client, "EGL_EXT_platform_device") &&
        has_extension(client, "EGL_EXT_device_enumeration")) {
        EGLDeviceEXT devices[8];
        EGLint count = 0;
        if (eglQueryDevicesEXT(8, devices, &count) == EGL_TRUE) {
            for (EGLint i = 0; i < count; ++i) {
                const EGLDisplay display =
                    eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
                if (display != EGL_NO_DISPLAY) {
                    displays.emplace_back("EGL device " + std::to_string(i), display);
                }
            }
        }
    }
    if (has_extension(client, "EGL_MESA_platform_surfaceless")) {
        const EGLDisplay display =
            eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
        if (display != EGL_NO_DISPLAY) {
            displays.emplace_back("surfaceless EGL", display);
        }
    }
    const EGLDisplay fallback = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (fallback != EGL_NO_DISPLAY) {
        displays.emplace_back("default EGL display", fallback);
    }
    if (displays.empty()) {
        reasons += "no EGL display is available";
    }
    return displays;
}

const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                     4,
                                     EGL_CONTEXT_MINOR_VERSION,
                                     5,
                                     EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                     EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                     EGL_NONE};

/// The state every context of the backend starts with: tightly packed host rows.
void set_up_current_context() {
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
}

/// An OpenGL 4.5 core context on `display` (with `config`, which is null for a display that
/// needs none), current without a surface, or EGL_NO_CONTEXT with the reason appended to
/// `reasons`.
EGLContext make_context(EGLDisplay display, const std::string& label, std::string& reasons,
                        EGLConfig& config) {
    const auto fail = [&](const std::string& why) {
        reasons += (reasons.empty() ? "" : "; ") + label + ": " + why;
        return EGL_NO_CONTEXT;
    };
    EGLint major = 0;
    EGLint minor = 0;
    if (eglInitialize(display, &major, &minor) != EGL_TRUE) {
        return fail("eglInitialize failed (" + egl_error_text() + ")");
    }
    const char* extensions = eglQueryString(display, EGL_EXTENSIONS);
    if (!has_extension(extensions, "EGL_KHR_surfaceless_context")) {
        eglTerminate(display);
        return fail("no EGL_KHR_surfaceless_context");
    }
    if (eglBindAPI(EGL_OPENGL_API) != EGL_TRUE) {
        eglTerminate(display);
        return fail("the display has no desktop OpenGL");
    }
    config = nullptr;
    if (!has_extension(extensions, "EGL_KHR_no_config_context")) {
        const EGLint config_attributes[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE,
                                            EGL_OPENGL_BIT, EGL_NONE};
        EGLint configs = 0;
        if (eglChooseConfig(display, config_attributes, &config, 1, &configs) != EGL_TRUE ||
            configs == 0) {
            eglTerminate(display);
            return fail("no EGL config for OpenGL");
        }
    }
    const EGLContext context =
        eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
    if (context == EGL_NO_CONTEXT) {
        const std::string why = "no OpenGL 4.5 core context (" + egl_error_text() + ")";
        eglTerminate(display);
        return fail(why);
    }
    if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) != EGL_TRUE) {
        const std::string why = "eglMakeCurrent failed (" + egl_error_text() + ")";
        eglDestroyContext(display, context);
        eglTerminate(display);
        return fail(why);
    }
    return context;
}

int get_integer(GLenum name) {
    GLint value = 0;
    glGetIntegerv(name, &value);
    return value;
}

} // namespace

std::shared_ptr<Context> Context::create() {
    require_egl_library();
    std::string reasons;
    for (const auto& [label, display] : candidate_displays(reasons)) {
        EGLConfig config = nullptr;
        const EGLContext context = make_context(display, label, reasons, config);
        if (context != EGL_NO_CONTEXT) {
            std::shared_ptr<Context> made(new Context(display, config, context));
            made->add_thread(context);
            return made;
        }
    }
    throw Unavailable("no OpenGL 4.5 context could be made (" + reasons + ")");
}

Context::Context(EGLDisplay display, EGLConfig config, EGLContext context)
    : display_(display), config_(config), context_(context),
      last_thread_(std::this_thread::get_id()) {
    max_texture_size_ = env_limit("BRT_GL_MAX_TEXTURE_SIZE", get_integer(GL_MAX_TEXTURE_SIZE));
    max_outputs_ = env_limit(
        "BRT_GL_MAX_OUTPUTS",
        std::min(get_integer(GL_MAX_DRAW_BUFFERS), get_integer(GL_MAX_COLOR_ATTACHMENTS)));
    max_texture_units_ = get_integer(GL_MAX_TEXTURE_IMAGE_UNITS);
    max_uniform_components_ =
        env_limit("BRT_GL_MAX_UNIFORM_COMPONENTS", get_integer(GL_MAX_FRAGMENT_UNIFORM_COMPONENTS));
    const auto text = [](GLenum name) {
        const auto* value = reinterpret_cast<const char*>(glGetString(name));
        return std::string(value != nullptr ? value : "?");
    };
    description_ = text(GL_RENDERER) + ", OpenGL " + text(GL_VERSION);
    set_up_current_context();
    check("setting up the context");
}

namespace {

/// Tells the context when a thread that made a context of its own exits (a thread_local's
/// destructor runs then).
struct ThreadExitNotice {
    std::weak_ptr<Context> context;
    void (*notify)(Context&) = nullptr;
    ~ThreadExitNotice() {
        if (const std::shared_ptr<Context> alive = context.lock()) {
            notify(*alive);
        }
    }
};

thread_local ThreadExitNotice thread_exit_notice;

} // namespace

Context::Lock::Lock(Context& context) : context_(context) {
    context_.mutex_.lock();
    if (context_.depth_++ == 0) {
        switched_ = context_.enter();
    }
}

Context::Lock::~Lock() {
    if (--context_.depth_ == 0) {
        context_.leave();
    }
    context_.mutex_.unlock();
}

void Context::add_thread(EGLContext context) {
    thread_contexts_.emplace(std::this_thread::get_id(), context);
    thread_exit_notice.context = weak_from_this();
    thread_exit_notice.notify = [](Context& self) { self.thread_exited(); };
}

bool Context::enter() {
    const std::thread::id self = std::this_thread::get_id();
    if (!thread_contexts_.contains(self)) {
        // EGL's current API is per thread.
        eglBindAPI(EGL_OPENGL_API);
        const EGLContext shared = eglCreateContext(display_, config_, context_, context_attributes);
        if (shared == EGL_NO_CONTEXT ||
            eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, shared) != EGL_TRUE) {
            fatal("gl backend: cannot make an OpenGL context for a new thread (" +
                  egl_error_text() + "); run the program's Brook calls on one thread");
        }
        set_up_current_context();
        add_thread(shared);
    }
    if (self == last_thread_) {
        return false;
    }
    if (fence_ != nullptr) {
        while (glClientWaitSync(fence_, GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000) ==
               GL_TIMEOUT_EXPIRED) {
        }
        glDeleteSync(fence_);
        fence_ = nullptr;
    }
    last_thread_ = self;
    return true;
}

void Context::leave() {
    // Every call leaves one, even while a single thread uses the backend: a thread that comes
    // later may read this call's results or reuse its textures (the pool) and must wait for it,
    // and it can wait only on a fence this context has flushed. That flush is most of a small
    // call's cost on llvmpipe, which rasterises each flushed call on its own (a 16-element SAXPY
    // took 17 us with it and 6 us without, in bench_gl on 2 cores); no GL means lets the first
    // call of a second thread wait for work this thread never flushed.
    if (fence_ != nullptr) {
        glDeleteSync(fence_);
    }
    fence_ = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glFlush();
}

void Context::thread_exited() {
    const std::lock_guard<std::recursive_mutex> lock(mutex_);
    const auto found = thread_contexts_.find(std::this_thread::get_id());
    // A thread that stops the program inside a call (an error) keeps its context for the
    // teardown that follows.
    if (found == thread_contexts_.end() || depth_ > 0) {
        return;
    }
    if (release_thread_) {
        release_thread_();
    }
    // Its last call's fence stays: sync objects belong to all the contexts. The first context
    // lives on (the others share its objects), current on no thread; a later thread that gets
    // the exited one's id makes a context of its own.
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (found->second != context_) {
        eglDestroyContext(display_, found->second);
    }
    eglReleaseThread();
    if (last_thread_ == found->first) {
        last_thread_ = std::thread::id();
    }
    thread_contexts_.erase(found);
}

bool Context::software_renderer() const {
    for (const char* name : {"llvmpipe", "softpipe", "Software Rasterizer", "swrast"}) {
        if (description_.find(name) != std::string::npos) {
            return true;
        }
    }
    return false;
}

Context::~Context() {
    if (fence_ != nullptr) {
        glDeleteSync(fence_);
    }
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    for (const auto& [thread, context] : thread_contexts_) {
        if (context != context_) {
            eglDestroyContext(display_, context);
        }
    }
    eglDestroyContext(display_, context_);
    eglTerminate(display_);
}

void check(const char* what) {
#ifdef NDEBUG
    (void)what;
#else
    const GLenum error = glGetError();
    if (error != GL_NO_ERROR) {
        char code[16];
        std::snprintf(code, sizeof code, "0x%04x", error);
        fatal(std::string("gl backend: OpenGL error ") + code + " while " + what);
    }
#endif
}

} // namespace brook::detail::gl
