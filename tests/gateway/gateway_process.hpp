// toolstream-gateway as a child process on an ephemeral loopback port. It is given
// --exit-after, so it stops by itself even if the test dies; the destructor stops it sooner.
#pragma once

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <sys/resource.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace gateway_test {

/// How the child is started besides its arguments.
struct launch_settings {
    std::vector<std::string> env;   // NAME=VALUE added to the test's environment
    std::string stderr_path;        // where its stderr (the access log) goes; empty: inherited
    rlim_t nofile = 0;              // its descriptor limit (RLIMIT_NOFILE); 0: the test's
    int exit_after_seconds = 120;
};

class gateway_process {
public:
    /// Starts `binary` with `args` (plus --listen 127.0.0.1:0 and --exit-after) and waits for
    /// its `listening on` line, at most 20 s.
    gateway_process(const std::string& binary, std::vector<std::string> args, int exit_after_seconds = 120)
        : gateway_process(binary, std::move(args), launch_settings{{}, {}, 0, exit_after_seconds})
    {
    }
    gateway_process(const std::string& binary, std::vector<std::string> args, const launch_settings& how)
    {
        args.insert(args.begin(), binary);
        for (const char* a : {"--listen", "127.0.0.1:0", "--exit-after"})
            args.emplace_back(a);
        args.push_back(std::to_string(how.exit_after_seconds));
        std::vector<char*> argv;
        for (auto& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);

        int out[2];
        if (pipe(out) != 0)
            throw std::runtime_error("pipe failed");
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
        posix_spawn_file_actions_addclose(&actions, out[0]);
        if (!how.stderr_path.empty())
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, how.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        std::vector<std::string> env_strings(how.env);
        for (char** e = environ; *e != nullptr; ++e)
            env_strings.emplace_back(*e);
        std::vector<char*> envp;
        for (auto& e : env_strings)
            envp.push_back(e.data());
        envp.push_back(nullptr);
        // The child inherits the limit; the test's own is put back at once.
        rlimit saved{};
        getrlimit(RLIMIT_NOFILE, &saved);
        if (how.nofile != 0) {
            rlimit lowered{how.nofile, saved.rlim_max};
            setrlimit(RLIMIT_NOFILE, &lowered);
        }
        const int rc = posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), envp.data());
        if (how.nofile != 0)
            setrlimit(RLIMIT_NOFILE, &saved);
        posix_spawn_file_actions_destroy(&actions);
        close(out[1]);
        if (rc != 0) {
            close(out[0]);
            throw std::runtime_error("cannot start " + binary);
        }
        stdout_ = out[0];   // kept open: a write to a closed pipe would kill the gateway
        const auto line = read_line(stdout_, std::chrono::seconds(20));
        const std::string prefix = "listening on 127.0.0.1:";
        if (!line || line->rfind(prefix, 0) != 0) {
            stop();
            throw std::runtime_error("the gateway did not start: " + line.value_or("(no output)"));
        }
        port_ = static_cast<unsigned short>(std::stoi(line->substr(prefix.size())));
    }
    gateway_process(const gateway_process&) = delete;
    gateway_process& operator=(const gateway_process&) = delete;
    ~gateway_process() { stop(); }

    unsigned short port() const { return port_; }
    pid_t pid() const { return pid_; }

    /// Sends SIGTERM and returns at once (see wait_exit).
    void terminate() const
    {
        if (pid_ > 0)
            kill(pid_, SIGTERM);
    }

    /// Waits up to `timeout` for the exit; its status, or nothing if it is still running.
    std::optional<int> wait_exit(std::chrono::milliseconds timeout)
    {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (pid_ > 0 && std::chrono::steady_clock::now() < deadline) {
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = 0;
                exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
                return exit_status_;
            }
            usleep(10'000);
        }
        if (pid_ <= 0)
            return exit_status_;
        return std::nullopt;
    }

    /// The peak resident memory so far (VmHWM), in KiB; 0 when unknown.
    long peak_rss_kib() const
    {
        std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
        for (std::string line; std::getline(status, line);)
            if (line.rfind("VmHWM:", 0) == 0)
                return std::stol(line.substr(6));
        return 0;
    }

    /// SIGTERM, then SIGKILL after 5 s; returns the exit status (-1 if it had to be killed).
    int stop()
    {
        if (stdout_ >= 0)
            close(stdout_);
        stdout_ = -1;
        if (pid_ <= 0)
            return exit_status_;
        kill(pid_, SIGTERM);
        int status = 0;
        for (int i = 0; i < 500; ++i) {   // 5 s
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = 0;
                exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
                return exit_status_;
            }
            usleep(10'000);
        }
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        pid_ = 0;
        return exit_status_ = -1;
    }

private:
    static std::optional<std::string> read_line(int fd, std::chrono::milliseconds timeout)
    {
        std::string line;
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (line.size() < 256) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            pollfd p{fd, POLLIN, 0};
            if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0)
                return std::nullopt;
            char c = 0;
            if (read(fd, &c, 1) != 1)
                return std::nullopt;
            if (c == '\n')
                return line;
            line.push_back(c);
        }
        return std::nullopt;
    }

    pid_t pid_ = 0;
    int stdout_ = -1;
    unsigned short port_ = 0;
    int exit_status_ = -1;
};

} // namespace gateway_test
