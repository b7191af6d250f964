// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brook_fake_cuda: libcuda's entry points over host memory, for tests (see fake_cuda.h). The
// functions are defined under the names libcuda exports (cuda.h's #defines map the API names to
// the same ones), with cuda.h's signatures, so a Driver loads this library like the real one.
#include "fake_cuda.hpp"

#include <dlfcn.h>
#include <elf.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

/// A CUfunction: the entry point's name and, when kernels are emulated, its host function.
struct Function {
    std::string name;
    void* host = nullptr;
};

struct Module {
    std::string image;
    std::deque<Function> functions; // CUfunction points at one of these
};

/// brook_emulate_launch of cuda_emulation.hpp.
using EmulateLaunch = int (*)(const char*, void*, const unsigned*, const unsigned*, void**);
/// brook_emulate_device_memory of memory_profile.cpp, in a library built to profile memory.
using DescribeDeviceMemory = void (*)(const CUdeviceptr*, const std::size_t*, std::size_t);

/// The library of host-compiled kernels named by FAKE_CUDA_KERNELS, opened on first use.
class Emulation {
public:
    Emulation() {
        const char* path = std::getenv("FAKE_CUDA_KERNELS");
        if (path == nullptr || *path == '\0') {
            return;
        }
        enabled_ = true;
        handle_ = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (handle_ == nullptr) {
            std::fprintf(stderr, "fake_cuda: FAKE_CUDA_KERNELS: %s\n", dlerror());
            return;
        }
        void* launch = dlsym(handle_, "brook_emulate_launch");
        if (launch == nullptr) {
            std::fprintf(stderr, "fake_cuda: %s has no brook_emulate_launch\n", path);
            return;
        }
        std::memcpy(&launch_, &launch, sizeof launch_);
        if (void* describe = dlsym(handle_, "brook_emulate_device_memory")) {
            std::memcpy(&describe_memory_, &describe, sizeof describe_memory_);
        }
    }
    Emulation(const Emulation&) = delete;
    Emulation& operator=(const Emulation&) = delete;
    ~Emulation() {
        if (handle_ != nullptr) {
            dlclose(handle_);
        }
    }

    /// Whether FAKE_CUDA_KERNELS is set: kernels are then run, or fail to load.
    bool enabled() const { return enabled_; }
    /// The host function `name` of the library, or null.
    void* find(const char* name) const {
        return launch_ != nullptr ? dlsym(handle_, name) : nullptr;
    }
    /// Whether the library wants the device allocations before each launch.
    bool profiles_memory() const { return describe_memory_ != nullptr; }
    /// Tells the library the device allocations, on the thread that launches next.
    void describe_memory(const std::vector<CUdeviceptr>& bases,
                         const std::vector<std::size_t>& sizes) const {
        describe_memory_(bases.data(), sizes.data(), bases.size());
    }
    /// Runs a launch of `function`; false when the emulation refused it.
    bool launch(const Function& function, const unsigned grid[3], const unsigned block[3],
                void** params) const {
        return launch_ != nullptr && function.host != nullptr &&
               launch_(function.name.c_str(), function.host, grid, block, params) == 0;
    }

private:
    bool enabled_ = false;
    void* handle_ = nullptr;
    EmulateLaunch launch_ = nullptr;
    DescribeDeviceMemory describe_memory_ = nullptr;
};

Emulation& emulation() {
    static Emulation instance;
    return instance;
}

/// Memory aligned as cuMemAlloc's is (256 bytes), so that code assuming it holds here too.
/// Zeroed, unlike cuMemAlloc's: without FAKE_CUDA_KERNELS no kernel fills it, and what the
/// tests read back (a vout's total from the scan) must not depend on what the heap held.
struct FreeAligned {
    void operator()(char* bytes) const { ::operator delete[](bytes, std::align_val_t{256}); }
};
using AlignedBytes = std::unique_ptr<char[], FreeAligned>;
AlignedBytes allocate_aligned(std::size_t bytes) {
    AlignedBytes memory(static_cast<char*>(::operator new[](bytes, std::align_val_t{256})));
    std::memset(memory.get(), 0, bytes);
    return memory;
}

struct Allocation {
    AlignedBytes bytes;
    std::size_t size;
};

struct State {
    std::mutex mutex;
    bool initialized = false;
    int device_count = 1;
    std::string log;
    std::map<std::string, int, std::less<>> counts;
    std::map<std::string, CUresult, std::less<>> failures;
    std::map<CUdeviceptr, Allocation> device;
    std::map<void*, AlignedBytes> pinned;
    std::map<CUmodule, std::unique_ptr<Module>> modules;
    std::set<CUstream> streams;
    int context_retains = 0;
    std::deque<std::string> launch_names;
    std::deque<FakeCudaLaunch> launches;
    std::size_t next_stream = 1;
    std::map<CUfunction_attribute, int> function_attributes = default_function_attributes();

    static std::map<CUfunction_attribute, int> default_function_attributes() {
        return {{CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024}, {CU_FUNC_ATTRIBUTE_NUM_REGS, 32}};
    }
};

State& state() {
    static State instance;
    return instance;
}

/// The device attributes a backend asks for, with an H100's values; others read as 0.
constexpr std::pair<CUdevice_attribute, int> attributes[] = {
    {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9},
    {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0},
    {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 132},
    {CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32},
    {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024},
    {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024},
    {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024},
    {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64},
    {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647},
    {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535},
    {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535},
    {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 49152},
    {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 65536},
};

/// A CUcontext for the one primary context: any unique non-null address does.
int primary_context;

struct ErrorText {
    CUresult code;
    const char* name;
    const char* text;
};

constexpr ErrorText error_texts[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

const ErrorText* find_error(CUresult code) {
    for (const ErrorText& entry : error_texts) {
        if (entry.code == code) {
            return &entry;
        }
    }
    return nullptr;
}

/// Counts and logs a call of `name`; returns the failure to inject, or CUDA_SUCCESS.
/// `needs_init`: the real driver refuses most calls before cuInit.
CUresult enter(State& s, std::string_view name, const std::string& details,
               bool needs_init = true) {
    ++s.counts[std::string(name)];
    s.log += std::string(name) + (details.empty() ? "" : " " + details);
    CUresult result = CUDA_SUCCESS;
    if (const auto failure = s.failures.find(name); failure != s.failures.end()) {
        result = failure->second;
        s.failures.erase(failure);
    } else if (needs_init && !s.initialized) {
        result = CUDA_ERROR_NOT_INITIALIZED;
    }
    if (result != CUDA_SUCCESS) {
        s.log += " result=" + std::to_string(result);
    }
    s.log += "\n";
    return result;
}

/// The size of a CUBIN (an ELF file: its headers say where it ends) or of NUL-ended PTX text;
/// cuModuleLoadData is given no size.
std::size_t image_size(const void* image) {
    const auto* bytes = static_cast<const char*>(image);
    if (std::memcmp(bytes, ELFMAG, SELFMAG) != 0) {
        return std::strlen(bytes);
    }
    Elf64_Ehdr header;
    std::memcpy(&header, bytes, sizeof header);
    return std::max<std::size_t>({sizeof header,
                                  header.e_shoff + header.e_shnum * header.e_shentsize,
                                  header.e_phoff + header.e_phnum * header.e_phentsize});
}

/// Whether [pointer, pointer + bytes) lies inside one live device allocation, as the real driver
/// demands of copies (it reports CUDA_ERROR_INVALID_VALUE otherwise).
bool is_device(const State& s, CUdeviceptr pointer, std::size_t bytes) {
    const auto after = s.device.upper_bound(pointer);
    if (after == s.device.begin()) {
        return false;
    }
    const auto& [start, allocation] = *std::prev(after);
    return pointer - start + bytes <= allocation.size;
}

std::string dims(unsigned x, unsigned y, unsigned z) {
    return std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z);
}

} // namespace

extern "C" {

CUresult cuInit(unsigned int flags) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    const CUresult result = enter(s, __func__, "flags=" + std::to_string(flags), false);
    if (result == CUDA_SUCCESS) {
        s.initialized = true;
    }
    return result;
}

CUresult cuDriverGetVersion(int* version) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    const CUresult result = enter(s, __func__, "", false);
    if (result == CUDA_SUCCESS) {
        *version = CUDA_VERSION;
    }
    return result;
}

CUresult cuGetErrorName(CUresult error, const char** name) {
    const ErrorText* entry = find_error(error);
    if (entry == nullptr) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *name = entry->name;
    return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char** text) {
    const ErrorText* entry = find_error(error);
    if (entry == nullptr) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *text = entry->text;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int* count) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    const CUresult result = enter(s, __func__, "");
    if (result == CUDA_SUCCESS) {
        *count = s.device_count;
    }
    return result;
}

CUresult cuDeviceGet(CUdevice* device, int ordinal) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    CUresult result = enter(s, __func__, "ordinal=" + std::to_string(ordinal));
    if (result == CUDA_SUCCESS && (ordinal < 0 || ordinal >= s.device_count)) {
        result = CUDA_ERROR_INVALID_DEVICE;
    }
    if (result == CUDA_SUCCESS) {
        *device = ordinal;
    }
    return result;
}

CUresult cuDeviceGetName(char* name, int length, CUdevice device) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    const CUresult result = enter(s, __func__, "device=" + std::to_string(device));
    if (result == CUDA_SUCCESS && length > 0) {
        std::snprintf(name, static_cast<std::size_t>(length), "%s", "Fake GPU");
    }
    return result;
}

CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice device) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    const CUresult result =
        enter(s, __func__,
              "attribute=" + std::to_string(attribute) + " device=" + std::to_string(device));
    if (result != CUDA_SUCCESS) {
        return result;
    }
    const auto* found = std::find_if(std::begin(attributes), std::end(attributes),
                                     [&](const auto& entry) { return entry.first == attribute; });
    *value = found != std::end(attributes) ? found->second : 0;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice device) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    const CUresult result = enter(s, __func__, "device=" + std::to_string(device));
    if (result == CUDA_SUCCESS) {
        ++s.context_retains;
        *context = reinterpret_cast<CUcontext>(&primary_context);
    }
    return result;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    CUresult result = enter(s, __func__, "device=" + std::to_string(device));
    if (result == CUDA_SUCCESS && s.context_retains == 0) {
        result = CUDA_ERROR_INVALID_CONTEXT;
    }
    if (result == CUDA_SUCCESS) {
        --s.context_retains;
    }
    return result;
}

CUresult cuCtxSetCurrent(CUcontext context) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    return enter(s, __func__, context == nullptr ? "context=null" : "");
}

CUresult cuStreamCreate(CUstream* stream, unsigned int flags) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    const CUresult result = enter(s, __func__, "flags=" + std::to_string(flags));
    if (result == CUDA_SUCCESS) {
        // Streams are never dereferenced: distinct made-up addresses do.
        *stream = reinterpret_cast<CUstream>(s.next_stream++ * 16);
        s.streams.insert(*stream);
    }
    return result;
}

CUresult cuStreamDestroy_v2(CUstream stream) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    CUresult result = enter(s, __func__, "");
    if (result == CUDA_SUCCESS && s.streams.erase(stream) == 0) {
        result = CUDA_ERROR_INVALID_HANDLE;
    }
    return result;
}

CUresult cuStreamSynchronize(CUstream stream) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    CUresult result = enter(s, __func__, "");
    if (result == CUDA_SUCCESS && stream != nullptr && !s.streams.contains(stream)) {
        result = CUDA_ERROR_INVALID_HANDLE;
    }
    return result;
}

CUresult cuMemAlloc_v2(CUdeviceptr* pointer, std::size_t bytes) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    CUresult result = enter(s, __func__, "bytes=" + std::to_string(bytes));
    if (result == CUDA_SUCCESS && bytes == 0) {
        result = CUDA_ERROR_INVALID_VALUE;
    }
    if (result == CUDA_SUCCESS) {
        AlignedBytes memory = allocate_aligned(bytes);
        *pointer = reinterpret_cast<CUdeviceptr>(memory.get());
        s.device.emplace(*pointer, Allocation{std::move(memory), bytes});
    }
    return result;
}

CUresult cuMemFree_v2(CUdeviceptr pointer) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    CUresult result = enter(s, __func__, "");
    if (result == CUDA_SUCCESS && s.device.erase(pointer) == 0) {
        result = CUDA_ERROR_INVALID_VALUE;
    }
    return result;
}

CUresult cuMemAllocHost_v2(void** pointer, std::size_t bytes) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    CUresult result = enter(s, __func__, "bytes=" + std::to_string(bytes));
    if (result == CUDA_SUCCESS && bytes == 0) {
        result = CUDA_ERROR_INVALID_VALUE;
    }
    if (result == CUDA_SUCCESS) {
        AlignedBytes memory = allocate_aligned(bytes);
        *pointer = memory.get();
        s.pinned.emplace(*pointer, std::move(memory));
    }
    return result;
}

CUresult cuMemFreeHost(void* pointer) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    CUresult result = enter(s, __func__, "");
    if (result == CUDA_SUCCESS && s.pinned.erase(pointer) == 0) {
        result = CUDA_ERROR_INVALID_VALUE;
    }
    return result;
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr target, const void* source, std::size_t bytes, CUstream) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    CUresult result = enter(s, __func__, "bytes=" + std::to_string(bytes) + " dir=htod");
    if (result == CUDA_SUCCESS && !is_device(s, target, bytes)) {
        result = CUDA_ERROR_INVALID_VALUE;
    }
    if (result == CUDA_SUCCESS) {
        std::memcpy(reinterpret_cast<void*>(target), source, bytes);
    }
    return result;
}

CUresult cuMemcpyDtoHAsync_v2(void* target, CUdeviceptr source, std::size_t bytes, CUstream) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    CUresult result = enter(s, __func__, "bytes=" + std::to_string(bytes) + " dir=dtoh");
    if (result == CUDA_SUCCESS && !is_device(s, source, bytes)) {
        result = CUDA_ERROR_INVALID_VALUE;
    }
    if (result == CUDA_SUCCESS) {
        std::memcpy(target, reinterpret_cast<const void*>(source), bytes);
    }
    return result;
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr target, CUdeviceptr source, std::size_t bytes, CUstream) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    CUresult result = enter(s, __func__, "bytes=" + std::to_string(bytes) + " dir=dtod");
    if (result == CUDA_SUCCESS && (!is_device(s, target, bytes) || !is_device(s, source, bytes))) {
        result = CUDA_ERROR_INVALID_VALUE;
    }
    if (result == CUDA_SUCCESS) {
        std::memmove(reinterpret_cast<void*>(target), reinterpret_cast<const void*>(source), bytes);
    }
    return result;
}

CUresult cuMemsetD8Async(CUdeviceptr target, unsigned char value, std::size_t bytes, CUstream) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    CUresult result = enter(s, __func__, "bytes=" + std::to_string(bytes));
    if (result == CUDA_SUCCESS && !is_device(s, target, bytes)) {
        result = CUDA_ERROR_INVALID_VALUE;
    }
    if (result == CUDA_SUCCESS) {
        std::memset(reinterpret_cast<void*>(target), value, bytes);
    }
    return result;
}

CUresult cuModuleLoadData(CUmodule* module, const void* image) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    const std::size_t bytes = image_size(image);
    const CUresult result = enter(s, __func__, "bytes=" + std::to_string(bytes));
    if (result == CUDA_SUCCESS) {
        auto loaded = std::make_unique<Module>();
        loaded->image.assign(static_cast<const char*>(image), bytes);
        *module = reinterpret_cast<CUmodule>(loaded.get());
        s.modules.emplace(*module, std::move(loaded));
    }
    return result;
}

CUresult cuModuleUnload(CUmodule module) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    CUresult result = enter(s, __func__, "");
    if (result == CUDA_SUCCESS && s.modules.erase(module) == 0) {
        result = CUDA_ERROR_INVALID_HANDLE;
    }
    return result;
}

CUresult cuModuleGetFunction(CUfunction* function, CUmodule module, const char* name) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    CUresult result = enter(s, __func__, std::string("kernel=") + name);
    const auto found = s.modules.find(module);
    if (result == CUDA_SUCCESS && found == s.modules.end()) {
        result = CUDA_ERROR_INVALID_HANDLE;
    }
    // Both CUBIN and PTX name a kernel's symbol followed by a NUL (ELF's string table) or by
    // "(" (PTX's .entry); the NUL-terminated name is searched so that "f" does not match "fg".
    if (result == CUDA_SUCCESS) {
        const std::string& image = found->second->image;
        const std::string in_elf = std::string(name) + '\0';
        const std::string in_ptx = std::string(".entry ") + name + "(";
        if (image.find(in_elf) == std::string::npos && image.find(in_ptx) == std::string::npos) {
            result = CUDA_ERROR_NOT_FOUND;
        }
    }
    void* host = nullptr;
    if (result == CUDA_SUCCESS && emulation().enabled()) {
        host = emulation().find(name);
        if (host == nullptr) {
            result = CUDA_ERROR_NOT_FOUND;
        }
    }
    if (result == CUDA_SUCCESS) {
        *function =
            reinterpret_cast<CUfunction>(&found->second->functions.emplace_back(name, host));
    }
    return result;
}

CUresult cuFuncGetAttribute(int* value, CUfunction_attribute attribute, CUfunction function) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    CUresult result = enter(s, __func__, "attribute=" + std::to_string(attribute));
    if (result == CUDA_SUCCESS && function == nullptr) {
        result = CUDA_ERROR_INVALID_HANDLE;
    }
    if (result == CUDA_SUCCESS) {
        const auto found = s.function_attributes.find(attribute);
        *value = found != s.function_attributes.end() ? found->second : 0;
    }
    return result;
}

CUresult cuLaunchKernel(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                        unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,
                        CUstream stream, void** params, void**) {
    State& s = state();
    std::unique_lock lock(s.mutex);
    const auto* called = reinterpret_cast<const Function*>(function);
    const std::string name = called != nullptr ? called->name : std::string();
    CUresult result = enter(s, __func__,
                            "kernel=" + (called != nullptr ? name : std::string("null")) +
                                " grid=" + dims(grid_x, grid_y, grid_z) +
                                " block=" + dims(block_x, block_y, block_z) +
                                " shared=" + std::to_string(shared_bytes));
    if (result == CUDA_SUCCESS) {
        const std::string& kept = s.launch_names.emplace_back(name);
        s.launches.push_back({kept.c_str(),
                              {grid_x, grid_y, grid_z},
                              {block_x, block_y, block_z},
                              shared_bytes,
                              stream});
    }
    if (result == CUDA_SUCCESS && emulation().profiles_memory()) {
        std::vector<CUdeviceptr> bases;
        std::vector<std::size_t> sizes;
        for (const auto& [base, allocation] : s.device) {
            bases.push_back(base);
            sizes.push_back(allocation.size);
        }
        emulation().describe_memory(bases, sizes);
    }
    // Emulated kernels touch only "device" memory, never the driver: run them unlocked, at the
    // launch, which is what a synchronous stream would do.
    lock.unlock();
    if (result == CUDA_SUCCESS && called != nullptr && emulation().enabled()) {
        const unsigned grid[3] = {grid_x, grid_y, grid_z};
        const unsigned block[3] = {block_x, block_y, block_z};
        if (!emulation().launch(*called, grid, block, params)) {
            result = CUDA_ERROR_LAUNCH_FAILED;
        }
    }
    return result;
}

void fake_cuda_reset() {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    s.initialized = false;
    s.device_count = 1;
    s.log.clear();
    s.counts.clear();
    s.failures.clear();
    s.device.clear();
    s.pinned.clear();
    s.modules.clear();
    s.streams.clear();
    s.context_retains = 0;
    s.launch_names.clear();
    s.launches.clear();
    s.function_attributes = State::default_function_attributes();
}

int fake_cuda_call_count(const char* name) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    const auto found = s.counts.find(std::string_view(name));
    return found == s.counts.end() ? 0 : found->second;
}

const char* fake_cuda_log() {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    return s.log.c_str();
}

std::size_t fake_cuda_live_allocations() {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    return s.device.size() + s.pinned.size();
}

std::size_t fake_cuda_live_modules() {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    return s.modules.size();
}

std::size_t fake_cuda_live_streams() {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    return s.streams.size();
}

std::size_t fake_cuda_live_contexts() {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    return static_cast<std::size_t>(s.context_retains);
}

void fake_cuda_fail_next(const char* name, CUresult result) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    s.failures[name] = result;
}

void fake_cuda_set_function_attribute(CUfunction_attribute attribute, int value) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    s.function_attributes[attribute] = value;
}

void fake_cuda_set_device_count(int count) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    s.device_count = count;
}

std::size_t fake_cuda_launch_count() {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    return s.launches.size();
}

FakeCudaLaunch fake_cuda_launch(std::size_t index) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    return s.launches.at(index);
}
}
