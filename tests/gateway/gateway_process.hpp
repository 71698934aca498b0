// toolstream-gateway as a child process on an ephemeral loopback port. It is given
// --exit-after, so it stops by itself even if the test dies; the destructor stops it sooner.
#pragma once

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <csignal>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace gateway_test {

class gateway_process {
public:
    /// Starts `binary` with `args` (plus --listen 127.0.0.1:0 and --exit-after) and waits for
    /// its `listening on` line, at most 20 s.
    gateway_process(const std::string& binary, std::vector<std::string> args, int exit_after_seconds = 120)
    {
        args.insert(args.begin(), binary);
        for (const char* a : {"--listen", "127.0.0.1:0", "--exit-after"})
            args.emplace_back(a);
        args.push_back(std::to_string(exit_after_seconds));
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
        const int rc = posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), environ);
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
