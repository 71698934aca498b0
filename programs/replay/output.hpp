// Standard output for toolstream-replay: buffered writes to fd 1 that remember the first failure
// (a full disk, a reader that closed the pipe), so that the program stops and exits 1 instead of
// reporting success over output that never arrived.
#pragma once

#include <boost/json/serializer.hpp>
#include <boost/json/object.hpp>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

#include <unistd.h>

namespace replay {

class output {
public:
    output() { buffer_.reserve(capacity); }
    output(const output&) = delete;
    output& operator=(const output&) = delete;

    void write(std::string_view bytes)
    {
        if (error_ != 0)
            return;
        if (buffer_.size() + bytes.size() > capacity)
            flush();
        if (bytes.size() >= capacity)
            send(bytes);
        else
            buffer_.append(bytes);
    }
    void line(std::string_view text)
    {
        write(text);
        write("\n");
    }

    /// `v` serialized, then a line break: written a piece at a time, so that a summary holding a
    /// call of many MB is never held a second time as one string.
    void json_line(const boost::json::object& v)
    {
        boost::json::serializer serializer;
        serializer.reset(&v);
        char piece[16 * 1024];
        while (!serializer.done() && error_ == 0)
            write(serializer.read(piece, sizeof piece));
        write("\n");
    }

    /// Writes what is buffered; false once any write has failed.
    bool flush()
    {
        if (error_ == 0 && !buffer_.empty())
            send(buffer_);
        buffer_.clear();
        return error_ == 0;
    }

    bool failed() const noexcept { return error_ != 0; }
    /// Why the first write failed ("No space left on device", "Broken pipe").
    std::string reason() const { return std::strerror(error_); }

private:
    static constexpr std::size_t capacity = 64 * 1024;

    void send(std::string_view bytes)
    {
        while (!bytes.empty() && error_ == 0) {
            const ssize_t n = ::write(STDOUT_FILENO, bytes.data(), bytes.size());
            if (n > 0)
                bytes.remove_prefix(static_cast<std::size_t>(n));
            else if (n < 0 && errno != EINTR)
                error_ = errno;
            else if (n == 0)
                error_ = EIO;
        }
    }

    std::string buffer_;
    int error_ = 0;
};

/// The program's standard output (one per process, as fd 1 is).
inline output& standard_output()
{
    static output out;
    return out;
}

} // namespace replay
