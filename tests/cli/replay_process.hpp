// Runs toolstream-replay as a child process with chosen stdin, stdout and environment, and
// collects its exit status, standard output and standard error.
#pragma once

#include "catch_compat.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace toolstream::test {

struct replay_run {
    int exit_code = -1;   ///< -1: killed by a signal
    std::string out;
    std::string err;
};

/// Where the child's standard output goes.
enum class replay_stdout {
    captured,     ///< a file read back into replay_run::out
    dev_full,     ///< /dev/full: every write fails with ENOSPC
    closed_pipe,  ///< a pipe whose reader has gone: every write fails with EPIPE (or SIGPIPE)
};

inline std::string read_whole(int fd)
{
    std::string text;
    ::lseek(fd, 0, SEEK_SET);
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;)
        text.append(buf, static_cast<std::size_t>(n));
    return text;
}

inline int scratch_file(const std::string& contents = {})
{
    char path[] = "/tmp/toolstream-cli-XXXXXX";
    const int fd = ::mkstemp(path);
    REQUIRE(fd >= 0);
    ::unlink(path);
    REQUIRE(::write(fd, contents.data(), contents.size()) == static_cast<ssize_t>(contents.size()));
    ::lseek(fd, 0, SEEK_SET);
    return fd;
}

/// `program` with `args`, `stdin_text` on its standard input. SIGPIPE has its default action in
/// the child whatever the test runner's, so the program must handle a closed pipe itself.
inline replay_run run_process(const std::string& program, const std::vector<std::string>& args,
                              const std::string& stdin_text = {}, replay_stdout where = replay_stdout::captured)
{
    const int in = scratch_file(stdin_text);
    const int err = scratch_file();
    int out = -1;
    int pipe_ends[2] = {-1, -1};
    if (where == replay_stdout::captured) {
        out = scratch_file();
    } else if (where == replay_stdout::dev_full) {
        out = ::open("/dev/full", O_WRONLY);
        REQUIRE(out >= 0);
    } else {
        REQUIRE(::pipe(pipe_ends) == 0);
        ::close(pipe_ends[0]);   // nobody will ever read
        out = pipe_ends[1];
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in, 0);
    posix_spawn_file_actions_adddup2(&actions, out, 1);
    posix_spawn_file_actions_adddup2(&actions, err, 2);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);

    std::vector<std::string> argv_text{program};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_text)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, program.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    REQUIRE(spawned == 0);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    replay_run r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (where == replay_stdout::captured)
        r.out = read_whole(out);
    r.err = read_whole(err);
    ::close(in);
    ::close(out);
    ::close(err);
    return r;
}

} // namespace toolstream::test
