// The gateway's --viewer: every stream passing through the gateway, shown live in the viewer
// page beside the client's own copy. Off unless asked for; loopback only unless allowed; the
// gateway's API key (when set) protects the feed.
//
// Wiring: one feed_hub for the process; start_gateway_viewer() on the gateway's io_context; per
// request, tee a viewer_tap{hub, hub.next_stream()} beside the request's own sink (a null hub
// makes the tap do nothing). The tap ends its stream (a `done` line) when it is destroyed, with
// the chat's pipeline: however the chat ended, after everything it sent the viewer.
#pragma once

#include "feed_hub.hpp"
#include "viewer_server.hpp"

#include <toolstream/writers/viewer_feed.hpp>

#include <boost/asio.hpp>

#include <concepts>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace toolstream_viewer {

struct hub_line {
    feed_hub* hub;
    void operator()(std::string_view line) const { hub->publish(line); }
};

/// A sink that writes a request's events to the viewer feed, tagged with its stream name, and
/// `done` when destroyed (not when moved from, nor once the hub is gone); does nothing (and costs
/// nothing but a branch) without a hub.
class viewer_tap {
public:
    using feed = toolstream::viewer_feed_sink<hub_line>;

    viewer_tap() = default;
    viewer_tap(feed_hub* hub, std::string stream)
    {
        if (hub != nullptr) {
            feed_.emplace(hub_line{hub}, toolstream::viewer_feed_options{std::move(stream)});
            hub_alive_ = hub->lifetime();
        }
    }
    viewer_tap(viewer_tap&& other) noexcept
        : feed_(std::exchange(other.feed_, std::nullopt)), hub_alive_(std::move(other.hub_alive_))
    {
    }
    viewer_tap& operator=(viewer_tap&& other) noexcept
    {
        if (this != &other) {
            end();
            feed_ = std::exchange(other.feed_, std::nullopt);
            hub_alive_ = std::move(other.hub_alive_);
        }
        return *this;
    }
    ~viewer_tap() { end(); }

    template<class Event>
        requires std::invocable<feed&, const Event&>
    void operator()(const Event& e)
    {
        if (feed_)
            (*feed_)(e);
    }

private:
    void end() noexcept
    {
        if (feed_ && !hub_alive_.expired()) {
            try {
                feed_->done();
            } catch (...) {   // out of memory: the page shows the stream as not ended
            }
        }
        feed_.reset();
    }

    std::optional<feed> feed_;
    std::weak_ptr<const void> hub_alive_;
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
