// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Runs one child process at a time. The child gets its own process group so that a timeout kills
// everything it started (brcc in driver mode runs the C++ compiler); both output pipes are drained
// with poll() while waiting so a chatty child cannot block on a full pipe.
#include "process.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>

extern char** environ;

namespace brook_test {
namespace {

// Captured output beyond this is dropped: a runaway program must not exhaust memory, and no test
// compares that much text.
constexpr std::size_t max_captured_bytes = std::size_t{16} << 20;

void append_capped(std::string& to, const char* data, std::size_t size) {
    if (to.size() >= max_captured_bytes) {
        return;
    }
    to.append(data, std::min(size, max_captured_bytes - to.size()));
}

std::vector<std::string>
merged_environment(const std::vector<std::pair<std::string, std::string>>& env) {
    std::vector<std::string> result;
    for (char** entry = environ; *entry != nullptr; ++entry) {
        std::string text = *entry;
        const std::string name = text.substr(0, text.find('='));
        bool overridden = false;
        for (const auto& [key, value] : env) {
            overridden = overridden || key == name;
        }
        if (!overridden) {
            result.push_back(std::move(text));
        }
    }
    for (const auto& [key, value] : env) {
        result.push_back(key + "=" + value);
    }
    return result;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
    std::vector<char*> result;
    for (std::string& text : strings) {
        result.push_back(text.data());
    }
    result.push_back(nullptr);
    return result;
}

} // namespace

std::string ProcessResult::describe(double timeout_s) const {
    if (exec_failed) {
        return "could not be started: " + err;
    }
    if (timed_out) {
        return "timed out after " + std::to_string(static_cast<int>(timeout_s)) + " s";
    }
    if (signal != 0) {
        return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
    }
    return "exit status " + std::to_string(exit_code);
}

ProcessResult run_process(const ProcessSpec& spec) {
    ProcessResult result;
    std::vector<std::string> argv_strings = spec.argv;
    std::vector<std::string> env_strings = merged_environment(spec.env);
    std::vector<char*> argv = c_strings(argv_strings);
    std::vector<char*> envp = c_strings(env_strings);

    int out_pipe[2];
    int err_pipe[2];
    int exec_pipe[2]; // closed on a successful exec; carries errno when exec fails
    if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0 || pipe2(exec_pipe, O_CLOEXEC) != 0) {
        result.exec_failed = true;
        result.err = std::strerror(errno);
        return result;
    }
    const pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        const int null_fd = open("/dev/null", O_RDONLY);
        dup2(null_fd, STDIN_FILENO);
        dup2(out_pipe[1], STDOUT_FILENO);
        dup2(err_pipe[1], STDERR_FILENO);
        close(out_pipe[0]);
        close(err_pipe[0]);
        close(exec_pipe[0]);
        execve(argv[0], argv.data(), envp.data());
        const int error = errno;
        (void)!write(exec_pipe[1], &error, sizeof error);
        _exit(127);
    }
    close(out_pipe[1]);
    close(err_pipe[1]);
    close(exec_pipe[1]);
    if (pid < 0) {
        result.exec_failed = true;
        result.err = std::strerror(errno);
        close(out_pipe[0]);
        close(err_pipe[0]);
        close(exec_pipe[0]);
        return result;
    }
    int exec_errno = 0;
    if (read(exec_pipe[0], &exec_errno, sizeof exec_errno) ==
        static_cast<ssize_t>(sizeof exec_errno)) {
        result.exec_failed = true;
        result.err = spec.argv[0] + ": " + std::strerror(exec_errno);
    }
    close(exec_pipe[0]);

    using Clock = std::chrono::steady_clock;
    const auto deadline =
        Clock::now() + std::chrono::milliseconds(static_cast<long>(spec.timeout_s * 1000.0));
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    std::string* sinks[2] = {&result.out, &result.err};
    int open_fds = 2;
    char buffer[65536];
    while (open_fds > 0) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0) {
            result.timed_out = true;
            kill(-pid, SIGKILL);
            break;
        }
        if (poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) {
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) {
                continue;
            }
            const ssize_t count = read(fds[i].fd, buffer, sizeof buffer);
            if (count > 0) {
                append_capped(*sinks[i], buffer, static_cast<std::size_t>(count));
            } else if (count == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open_fds;
            }
        }
    }
    for (const pollfd& entry : fds) {
        if (entry.fd >= 0) {
            close(entry.fd);
        }
    }
    int status = 0;
    while (true) {
        if (waitpid(pid, &status, result.timed_out ? 0 : WNOHANG) == pid) {
            break;
        }
        // Output closed but the child lives on (it may have closed its descriptors): keep
        // waiting until the deadline.
        if (Clock::now() >= deadline) {
            result.timed_out = true;
            kill(-pid, SIGKILL);
        } else {
            usleep(1000);
        }
    }
    if (result.timed_out) {
        kill(-pid, SIGKILL); // grandchildren that outlived the child
        return result;
    }
    if (WIFSIGNALED(status)) {
        result.signal = WTERMSIG(status);
    } else if (WIFEXITED(status)) {
        result.exit_code = WEXITSTATUS(status);
    }
    return result;
}

PrivateTempDirectory::PrivateTempDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "brook-run-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("cannot create a temporary directory " + pattern + ": " +
                                 std::strerror(errno));
    }
    path_ = pattern;
}

PrivateTempDirectory::~PrivateTempDirectory() {
    std::error_code ignored; // what a killed program left behind is no reason to fail its test
    std::filesystem::remove_all(path_, ignored);
}

} // namespace brook_test
