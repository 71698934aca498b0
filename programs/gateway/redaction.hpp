// The credentials a chat sends upstream, kept out of everything the gateway writes: an upstream
// may echo them (a 401 body that quotes the key it refused), and its words reach the client, the
// access log and the viewer.
#pragma once

#include <toolstream/response_events.hpp>

#include <concepts>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gateway {

class redactor {
public:
    static constexpr std::string_view mark = "[redacted]";

    /// A credential sent upstream: an `Authorization` or `x-api-key` value, or a key itself. Its
    /// token after the scheme (`Bearer sk-…` → `sk-…`) is a secret too.
    void add(std::string_view value)
    {
        add_secret(value);
        if (const auto space = value.find(' '); space != std::string_view::npos)
            add_secret(value.substr(space + 1));
    }

    /// `text` with every secret replaced by `mark`, longest first.
    std::string operator()(std::string_view text) const
    {
        std::string out(text);
        for (const auto& secret : secrets_)
            for (auto at = out.find(secret); at != std::string::npos; at = out.find(secret, at + mark.size()))
                out.replace(at, secret.size(), mark);
        return out;
    }

private:
    void add_secret(std::string_view s)
    {
        if (s.size() < 8)   // too short to be a key; replacing it would garble the text
            return;
        auto at = secrets_.begin();
        while (at != secrets_.end() && at->size() >= s.size())
            ++at;
        secrets_.emplace(at, s);
    }

    std::vector<std::string> secrets_;
};

/// A sink adaptor that passes every event to `inner`, the upstream's error messages redacted.
template<class Inner>
struct redacting_sink {
    Inner inner;
    const redactor* secrets = nullptr;

    template<class Event>
        requires std::invocable<Inner&, const Event&>
    void operator()(const Event& e)
    {
        inner(e);
    }
    void operator()(const toolstream::provider_failed& p)
    {
        const std::string message = (*secrets)(p.message);
        inner(toolstream::provider_failed{message});
    }
};

} // namespace gateway
