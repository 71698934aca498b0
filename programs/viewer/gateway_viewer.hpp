// The gateway's --viewer: every stream passing through the gateway, shown live in the viewer
// page beside the client's own copy. Off unless asked for; loopback only unless allowed; the
// gateway's API key (when set) protects the feed.
//
// Wiring: one feed_hub for the process; start_gateway_viewer() on the gateway's io_context; per
// request, tee a viewer_tap{hub, hub.next_stream()} beside the request's own sink (a null hub
// makes the tap do nothing).
#pragma once

#include "feed_hub.hpp"
#include "viewer_server.hpp"

#include <toolstream/writers/viewer_feed.hpp>

#include <boost/asio.hpp>

#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace toolstream_viewer {

struct hub_line {
    feed_hub* hub;
    void operator()(std::string_view line) const { hub->publish(line); }
};

/// A sink that writes a request's events to the viewer feed, tagged with its stream name; does
/// nothing (and costs nothing but a branch) without a hub.
class viewer_tap {
public:
    using feed = toolstream::viewer_feed_sink<hub_line>;

    viewer_tap() = default;
    viewer_tap(feed_hub* hub, std::string stream)
    {
        if (hub != nullptr)
            feed_.emplace(hub_line{hub}, toolstream::viewer_feed_options{std::move(stream)});
    }

    template<class Event>
        requires std::invocable<feed&, const Event&>
    void operator()(const Event& e)
    {
        if (feed_)
            (*feed_)(e);
    }

private:
    std::optional<feed> feed_;
};

/// Listens on `address` for viewer pages and serves them from `hub` on `ioc`. Refuses an address
/// that is not loopback unless `allow_remote`: the feed shows every prompt's answer.
inline bool start_gateway_viewer(asio::io_context& ioc, asio::ip::tcp::acceptor& acceptor, feed_hub& hub,
                                 std::string_view address, bool allow_remote, const server_options& options,
                                 std::string& error)
{
    if (!listen_on(acceptor, address, error))
        return false;
    if (!allow_remote && !acceptor.local_endpoint().address().is_loopback()) {
        acceptor.close();
        error = "--viewer " + std::string(address) + " is not a loopback address (the viewer shows all traffic)";
        return false;
    }
    asio::co_spawn(ioc, accept_viewers(acceptor, hub, options), asio::detached);
    return true;
}

} // namespace toolstream_viewer
