// The viewer's fan-out: every feed line goes to each connected page, with bounded memory.
//
// A page that falls behind (its queue over `client_queue_bytes`) loses its queue: it gets the
// current state again (a `reset`, the snapshot) and a `skipped` marker with the number of lines
// it missed, never an unbounded buffer. A page that connects, or reconnects, starts the same way:
// the snapshot holds every segment still open, and the most recent closed ones, each with its body
// so far (bounded per segment: a generic call's argument text, as one `args` line with its latest
// preview), and its end; and the response-level lines (`finish`, `error`, `done`...).
#pragma once

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace toolstream_viewer {

struct hub_options {
    std::size_t client_queue_bytes = 8u << 20;   // a page further behind than this resynchronises
    std::size_t segment_body_bytes = 4u << 20;   // the snapshot keeps this much of each body
    std::size_t snapshot_bytes = 32u << 20;      // beyond, the oldest closed segments are dropped
    std::size_t snapshot_items = 512;            // segments and response-level lines kept
};

/// One connected page's pending lines. Guarded by the hub's mutex; `wake` is called (outside
/// the lock) when lines arrive for a page that waits.
struct client_queue {
    std::deque<std::string> lines;
    std::size_t bytes = 0;
    std::size_t skipped = 0;      // lines dropped since the last resync
    bool resync = true;           // the next batch starts with reset + snapshot
    bool waiting = false;
    std::function<void()> wake;
};

class feed_hub {
public:
    explicit feed_hub(hub_options options = {}) : options_(options) {}

    /// Publishes one feed line (thread-safe).
    void publish(std::string_view line)
    {
        std::vector<std::function<void()>> wakes;
        {
            std::lock_guard lock(mutex_);
            ++published_;
            remember(line);
            for (const auto& q : clients_) {
                if (q->resync)   // its next batch is the snapshot, which has this line
                    continue;
                if (q->bytes + line.size() > options_.client_queue_bytes) {
                    q->skipped += q->lines.size() + 1;
                    q->lines.clear();
                    q->bytes = 0;
                    q->resync = true;
                } else {
                    q->lines.emplace_back(line);
                    q->bytes += line.size();
                }
                if (std::exchange(q->waiting, false) && q->wake)
                    wakes.push_back(q->wake);
            }
        }
        for (auto& w : wakes)
            w();
    }

    std::shared_ptr<client_queue> subscribe(std::function<void()> wake)
    {
        auto q = std::make_shared<client_queue>();
        q->wake = std::move(wake);
        {
            std::lock_guard lock(mutex_);
            clients_.push_back(q);
            ++viewers_seen_;
        }
        viewer_arrived_.notify_all();
        return q;
    }

    void unsubscribe(const std::shared_ptr<client_queue>& q)
    {
        std::lock_guard lock(mutex_);
        std::erase(clients_, q);
    }

    /// Takes what `q` has to send, in order; marks it waiting when there is nothing.
    std::vector<std::string> take(client_queue& q)
    {
        std::vector<std::string> out;
        std::lock_guard lock(mutex_);
        if (q.resync) {
            out.emplace_back(R"({"type":"reset"})");
            snapshot(out);
            if (q.skipped > 0)
                out.push_back(R"({"type":"skipped","events":)" + std::to_string(q.skipped) + "}");
            q.skipped = 0;
            q.resync = false;
        }
        for (auto& line : q.lines)
            out.push_back(std::move(line));
        q.lines.clear();
        q.bytes = 0;
        q.waiting = out.empty();
        return out;
    }

    /// Blocks until a page has connected at least once (or close()); false after close().
    bool wait_for_viewer()
    {
        std::unique_lock lock(mutex_);
        viewer_arrived_.wait(lock, [this] { return viewers_seen_ > 0 || closed_; });
        return !closed_;
    }

    /// Releases wait_for_viewer(), for a program that is stopping.
    void close()
    {
        {
            std::lock_guard lock(mutex_);
            closed_ = true;
        }
        viewer_arrived_.notify_all();
    }

    /// A name for the next stream of a multi-stream feed ("1", "2"...).
    std::string next_stream()
    {
        std::lock_guard lock(mutex_);
        return std::to_string(++streams_);
    }

    std::size_t published() const
    {
        std::lock_guard lock(mutex_);
        return published_;
    }

    /// Expires when the hub is destroyed, for a publisher that may outlive it (a gateway chat's
    /// tap, destroyed with its coroutine frame after the hub at exit). Not a lock: a hub is
    /// destroyed once no thread publishes.
    std::weak_ptr<const void> lifetime() const { return alive_; }

private:
    // A segment of the snapshot, or (empty `key`) one response-level line.
    struct item {
        std::string key;
        std::string line;           // the START line, or the response-level line
        std::string kind, id, stream;
        std::string body;           // the deltas (or a call's `args` json) joined, up to segment_body_bytes
        std::size_t body_dropped = 0;
        std::string preview;        // the latest argument preview, as JSON text
        std::string end_line;
        std::size_t size() const { return line.size() + body.size() + preview.size() + end_line.size(); }
    };

    static std::string string_of(const boost::json::object& o, std::string_view key)
    {
        const auto* v = o.if_contains(key);
        return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
    }

    void remember(std::string_view line)
    {
        boost::system::error_code ec;
        auto v = boost::json::parse(line, ec);
        if (ec || !v.is_object())
            return;
        auto& o = v.as_object();
        const std::string type = string_of(o, "type");
        const std::string key = string_of(o, "stream") + '\x1f' + string_of(o, "id");
        if (type == "start") {
            item it{key, std::string(line), string_of(o, "kind"), string_of(o, "id"), string_of(o, "stream"), {}, 0, {}, {}};
            size_ += it.size();
            items_.push_back(std::move(it));
            index_[key] = std::prev(items_.end());
        } else if (type == "delta" || type == "args" || type == "end") {
            const auto found = index_.find(key);
            if (found == index_.end())
                return;
            item& it = *found->second;
            size_ -= it.size();
            if (type == "delta" || type == "args") {
                // A call's argument text is kept like a body: a page shows what arrived of a call
                // that ends broken.
                const auto* text = o.if_contains(type == "delta" ? "text" : "json");
                const std::size_t size = text != nullptr && text->is_string() ? text->get_string().size() : 0;
                const std::size_t room = options_.segment_body_bytes - std::min(options_.segment_body_bytes, it.body.size());
                if (size <= room && it.body_dropped == 0)
                    it.body.append(size > 0 ? text->get_string().data() : "", size);
                else
                    it.body_dropped += size;
                if (const auto* preview = o.if_contains("preview"))
                    it.preview = boost::json::serialize(*preview);
            } else {
                it.end_line = std::string(line);
                index_.erase(found);   // closed: no more lines for it
            }
            size_ += it.size();
        } else {
            item it;
            it.line = std::string(line);
            size_ += it.size();
            items_.push_back(std::move(it));
        }
        evict();
    }

    // Drops the oldest closed segments and response-level lines beyond the bounds; open
    // segments stay (their bodies are bounded each).
    void evict()
    {
        for (auto it = items_.begin(); it != items_.end() && (size_ > options_.snapshot_bytes || items_.size() > options_.snapshot_items);) {
            const bool open = !it->key.empty() && it->end_line.empty();
            if (open) {
                ++it;
                continue;
            }
            size_ -= it->size();
            it = items_.erase(it);
        }
    }

    void snapshot(std::vector<std::string>& out) const
    {
        for (const auto& it : items_) {
            out.push_back(it.line);
            if (it.key.empty())
                continue;
            const bool call = it.kind == "tool_call";   // its text comes in `args` lines
            if (!it.body.empty() || (call && !it.preview.empty())) {
                boost::json::object d{{"type", call ? "args" : "delta"}};
                if (!it.stream.empty())
                    d["stream"] = it.stream;
                d["id"] = it.id;
                if (call) {
                    d["json"] = it.body;
                    if (!it.preview.empty())
                        d["preview"] = boost::json::parse(it.preview);
                } else {
                    d["kind"] = it.kind;
                    d["text"] = it.body;
                }
                out.push_back(boost::json::serialize(d));
            }
            if (it.body_dropped > 0) {
                boost::json::object s{{"type", "skipped"}};
                if (!it.stream.empty())
                    s["stream"] = it.stream;
                s["id"] = it.id;
                s["bytes"] = it.body_dropped;
                out.push_back(boost::json::serialize(s));
            }
            if (!it.end_line.empty())
                out.push_back(it.end_line);
        }
    }

    hub_options options_;
    mutable std::mutex mutex_;
    std::condition_variable viewer_arrived_;
    std::vector<std::shared_ptr<client_queue>> clients_;
    std::list<item> items_;
    std::unordered_map<std::string, std::list<item>::iterator> index_;
    std::size_t size_ = 0;
    std::size_t published_ = 0;
    std::size_t viewers_seen_ = 0;
    std::size_t streams_ = 0;
    bool closed_ = false;
    std::shared_ptr<const void> alive_ = std::make_shared<char>();
};

} // namespace toolstream_viewer
