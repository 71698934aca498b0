// A model server on 127.0.0.1 (port 0) for the gateway's tests and load client. It serves the
// recorded streams of TOOLSTREAM_FIXTURES_DIR and a few made-up ones, picked by the request path:
//
//   /by-model           the fixture the request's `model` names (DIR/FILE), as chunked
//                       text/event-stream in pieces of 1..61 bytes (`?whole`: in pieces of 1 MiB)
//   /ollama             an Ollama /api/chat NDJSON stream: thinking, text, a call, usage
//   /text/xml           a Chat Completions stream whose text embeds an xml-format call
//   /text/hermes        likewise, a Hermes <tool_call> block
//   /big                a 1 MiB file written through an xml-format write_file call, 4 KiB deltas
//   /slow/MS            five text deltas, MS milliseconds apart
//   /stall              the header and one event, then nothing until the client goes (at most 10 s)
//   /close-early        half of a stream under a Content-Length for all of it, then a close
//   /status/NNN         an error reply with that status (an OpenAI error object plus an
//                       `internal` member that must never reach a client)
//   /drip/MS            a text delta every MS milliseconds, without end (until the gateway goes)
//   /endless            16 KiB text deltas as fast as the gateway reads, without end
//   /html               a 200 whose body is an HTML page
//   /random             a 200 text/event-stream of 64 KiB of random bytes
//   /json-completion    a 200 application/json chat.completion (text and a call), not a stream
//   /no-finish          a whole Chat Completions stream, cleanly ended, without a finish reason
//   /native-args/MB     one native write_file call, its path first, with MB MiB of content in 16 KiB deltas
//   /text/think         a stream whose text is `<think>hmm</think>Answer` (for --reasoning-parser)
//   /text/think-hermes  `<think>plan</think>` then a Hermes <tool_call> block, as model text
//   /native-call/END    one native call streamed in pieces; END `tool_calls`, `length` (finish
//                       mid-arguments) or `cut` (the connection dies mid-arguments, no last chunk)
//
// open_streams() counts the connections being served: it falls to 0 when the gateway hangs up.
// It runs on its own thread and stops in its destructor.
#pragma once

#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>

#include "gateway/fake_streams.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace gateway_test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace json = boost::json;

inline constexpr auto nothrow = asio::as_tuple(asio::use_awaitable);

class fake_upstream {
public:
    explicit fake_upstream(std::filesystem::path fixtures = {}) : fixtures_(std::move(fixtures)), acceptor_(ioc_)
    {
        const asio::ip::tcp::endpoint loopback(asio::ip::make_address("127.0.0.1"), 0);
        acceptor_.open(loopback.protocol());
        acceptor_.bind(loopback);
        acceptor_.listen();
        port_ = acceptor_.local_endpoint().port();
        asio::co_spawn(ioc_, accept(), asio::detached);
        thread_ = std::thread([this] { ioc_.run(); });
    }
    fake_upstream(const fake_upstream&) = delete;
    fake_upstream& operator=(const fake_upstream&) = delete;
    ~fake_upstream()
    {
        ioc_.stop();
        thread_.join();
    }

    unsigned short port() const { return port_; }
    std::string url(std::string_view path) const
    {
        return "http://127.0.0.1:" + std::to_string(port_) + std::string(path);
    }
    std::string last_body() const
    {
        std::lock_guard lock(mutex_);
        return last_body_;
    }
    std::size_t requests() const { return requests_.load(); }
    int open_streams() const { return open_.load(); }
    std::string last_authorization() const
    {
        std::lock_guard lock(mutex_);
        return last_authorization_;
    }

private:
    asio::awaitable<void> accept()
    {
        for (;;) {
            auto [ec, socket] = co_await acceptor_.async_accept(nothrow);
            if (ec)
                co_return;
            asio::co_spawn(ioc_, serve(beast::tcp_stream(std::move(socket))), asio::detached);
        }
    }

    asio::awaitable<void> serve(beast::tcp_stream stream)
    {
        struct counted {
            std::atomic<int>& n;
            explicit counted(std::atomic<int>& c) : n(c) { ++n; }
            ~counted() { --n; }
        } serving(open_);
        beast::flat_buffer buffer;
        http::request<http::string_body> req;
        stream.expires_after(std::chrono::seconds(10));
        if (auto [ec, n] = co_await http::async_read(stream, buffer, req, nothrow); ec)
            co_return;
        ++requests_;
        {
            std::lock_guard lock(mutex_);
            last_body_ = req.body();
            last_authorization_ = std::string(req[http::field::authorization]);
        }
        const std::string target(req.target());
        const auto query = target.find('?');
        const std::string path = target.substr(0, query);
        const bool whole = query != std::string::npos && target.substr(query) == "?whole";

        if (path == "/by-model")
            co_await send_stream(stream, read_file(fixtures_ / model_of(req.body())), "text/event-stream", whole);
        else if (path == "/big")
            co_await send_stream(stream, big_stream(), "text/event-stream", true);
        else if (path == "/ollama")
            co_await send_stream(stream, ollama_stream(), "application/x-ndjson", whole);
        else if (path == "/text/xml")
            co_await send_stream(stream, xml_text_stream(), "text/event-stream", whole);
        else if (path == "/text/qwen3_coder")
            co_await send_stream(stream, qwen3_coder_text_stream(), "text/event-stream", whole);
        else if (path == "/text/broken")
            co_await send_stream(stream, broken_call_stream(), "text/event-stream", whole);
        else if (path == "/text/hermes")
            co_await send_stream(stream, hermes_text_stream(), "text/event-stream", whole);
        else if (path.starts_with("/slow/"))
            co_await send_slowly(stream, std::chrono::milliseconds(std::stoi(path.substr(6))));
        else if (path == "/stall")
            co_await stall(stream);
        else if (path == "/finish-then-stall")   // the whole answer, then no [DONE] and no end
            co_await stall(stream, chat_chunk("Hi") + chat_chunk({}, "stop"));
        else if (path == "/close-early")
            co_await close_early(stream);
        else if (path.starts_with("/drip/"))
            co_await drip(stream, std::chrono::milliseconds(std::stoi(path.substr(6))));
        else if (path == "/endless")
            co_await endless(stream);
        else if (path == "/html")
            co_await send_whole(stream, http::status::ok, "text/html", "<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>");
        else if (path == "/random")
            co_await send_stream(stream, random_bytes(), "text/event-stream", false);
        else if (path == "/json-completion")
            co_await send_whole(stream, http::status::ok, "application/json", json_completion());
        else if (path.starts_with("/finish/"))
            co_await send_stream(stream, finish_stream(path.substr(8)), "text/event-stream", whole);
        else if (path.starts_with("/calls/")) {   // /calls/COUNT/ARGUMENT_BYTES
            const auto slash = path.find('/', 7);
            co_await send_stream(stream, calls_stream(std::stoul(path.substr(7, slash - 7)), std::stoul(path.substr(slash + 1))),
                                 "text/event-stream", true);
        } else if (path == "/unopened-index")
            co_await send_stream(stream, unopened_index_stream(), "text/event-stream", whole);
        else if (path == "/ghost")
            co_await send_stream(stream, ghost_stream(), "text/event-stream", whole);
        else if (path == "/usage")
            co_await send_stream(stream, usage_stream(), "text/event-stream", whole);
        else if (path == "/no-finish")
            co_await send_stream(stream, no_finish_stream(), "text/event-stream", false);
        else if (path.starts_with("/native-args/"))
            co_await send_stream(stream, native_args_stream(std::stoul(path.substr(13))), "text/event-stream", true);
        else if (path == "/text/think")
            co_await send_stream(stream, think_stream(), "text/event-stream", false);
        else if (path == "/text/think-hermes")
            co_await send_stream(stream, think_hermes_stream(), "text/event-stream", whole);
        else if (path.starts_with("/native-call/"))
            co_await send_stream(stream, native_call_stream(path.substr(13)), "text/event-stream", whole,
                                 path != "/native-call/cut");
        else if (path == "/echo-key")   // a 401 that quotes the credential it refused
            co_await send_whole(stream, http::status::unauthorized, "application/json",
                                R"({"error":{"message":"Incorrect API key provided: )" + std::string(req[http::field::authorization]) + R"("}})");
        else if (path == "/llama-error")   // llama.cpp's server: a failed stream ends with an `error:` line
            co_await send_stream(stream, chat_chunk("Hi") + R"x(error: {"code":500,"message":"boom (key )x" +
                                             std::string(req[http::field::authorization]) + R"x()","type":"server_error"})x" "\n\n",
                                 "text/event-stream", whole);
        else if (path.starts_with("/retry/"))   // /retry/STATUS: that status with Retry-After: 7
            co_await send_whole(stream, static_cast<http::status>(std::stoi(path.substr(7))), "application/json",
                                R"({"error":{"message":"slow down","type":"rate_limit"}})", "7");
        else if (path == "/continue") {   // an interim 100 Continue before the answer
            co_await asio::async_write(stream, asio::buffer(std::string_view("HTTP/1.1 100 Continue\r\n\r\n")), nothrow);
            co_await send_stream(stream, finish_stream("stop"), "text/event-stream", whole);
        } else if (path.starts_with("/status/"))
            co_await send_error(stream, static_cast<http::status>(std::stoi(path.substr(8))));
        else
            co_await send_error(stream, http::status::not_found);
        boost::system::error_code ignored;
        stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    }

    static std::string model_of(const std::string& body)
    {
        boost::system::error_code ec;
        const auto v = json::parse(body, ec);
        const auto* model = !ec && v.is_object() ? v.get_object().if_contains("model") : nullptr;
        const std::string name = model != nullptr && model->is_string() ? std::string(model->get_string()) : "";
        return name.find("..") == std::string::npos ? name : "";
    }

    static std::string read_file(const std::filesystem::path& p)
    {
        std::ifstream in(p, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }

    static asio::awaitable<bool> send_head(beast::tcp_stream& stream, std::string_view content_type)
    {
        http::response<http::empty_body> head{http::status::ok, 11};
        head.set(http::field::content_type, content_type);
        head.chunked(true);
        http::response_serializer<http::empty_body> sr{head};
        auto [ec, n] = co_await http::async_write_header(stream, sr, nothrow);
        co_return !ec;
    }

    static asio::awaitable<bool> send_piece(beast::tcp_stream& stream, std::string_view piece)
    {
        auto [ec, n] = co_await asio::async_write(stream, http::make_chunk(asio::buffer(piece.data(), piece.size())), nothrow);
        co_return !ec;
    }

    /// The body as HTTP chunks of 1..61 bytes (deterministic), or in one; without `end`, no last
    /// chunk: the connection closes mid-body.
    static asio::awaitable<void> send_stream(beast::tcp_stream& stream, const std::string& body,
                                             std::string_view content_type, bool whole, bool end = true)
    {
        if (!co_await send_head(stream, content_type))
            co_return;
        std::size_t at = 0;
        for (std::size_t i = 0; at < body.size(); ++i) {
            // `whole`: 1 MiB writes, each with its own 10 s (a large body to a slow reader takes longer).
            const std::size_t n = whole ? std::size_t{1} << 20 : 1 + (i * 37 + 11) % 61;
            stream.expires_after(std::chrono::seconds(10));
            if (!co_await send_piece(stream, std::string_view(body).substr(at, n)))
                co_return;
            at += n;
        }
        if (end)
            co_await asio::async_write(stream, http::make_chunk_last(), nothrow);
    }

    static asio::awaitable<void> send_slowly(beast::tcp_stream& stream, std::chrono::milliseconds gap)
    {
        if (!co_await send_head(stream, "text/event-stream"))
            co_return;
        asio::steady_timer timer(stream.get_executor());
        for (int i = 0; i < 5; ++i) {
            if (!co_await send_piece(stream, chat_chunk("tick " + std::to_string(i) + " ")))
                co_return;
            timer.expires_after(gap);
            co_await timer.async_wait(nothrow);
        }
        co_await send_piece(stream, chat_chunk({}, "stop") + "data: [DONE]\n\n");
        co_await asio::async_write(stream, http::make_chunk_last(), nothrow);
    }

    /// Sends `first`, then neither more nor the end: returns when the gateway hangs up.
    static asio::awaitable<void> stall(beast::tcp_stream& stream, std::string first = chat_chunk("Hello"))
    {
        if (!co_await send_head(stream, "text/event-stream"))
            co_return;
        if (!co_await send_piece(stream, first))
            co_return;
        std::array<char, 512> sink{};
        stream.expires_after(std::chrono::seconds(10));   // returns when the gateway hangs up
        co_await stream.async_read_some(asio::buffer(sink), nothrow);
    }

    static asio::awaitable<void> close_early(beast::tcp_stream& stream)
    {
        const std::string body = chat_chunk("The answer is") + chat_chunk(" forty");
        const std::string head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: " +
                                 std::to_string(body.size() * 4) + "\r\n\r\n";
        co_await asio::async_write(stream, asio::buffer(head + body), nothrow);
    }

    static asio::awaitable<void> send_error(beast::tcp_stream& stream, http::status status)
    {
        co_await send_whole(stream, status, "application/json",
                            R"({"error":{"message":"model \"nope\" not found","type":"not_found"},"internal":"trace at /srv/secret.py:42"})");
    }

    static asio::awaitable<void> send_whole(beast::tcp_stream& stream, http::status status, std::string_view type, std::string body,
                                            std::string_view retry_after = {})
    {
        http::response<http::string_body> res{status, 11};
        res.set(http::field::content_type, type);
        if (!retry_after.empty())
            res.set(http::field::retry_after, retry_after);
        res.body() = std::move(body);
        res.prepare_payload();
        res.keep_alive(false);
        co_await http::async_write(stream, res, nothrow);
    }

    static asio::awaitable<void> drip(beast::tcp_stream& stream, std::chrono::milliseconds gap)
    {
        using namespace asio::experimental::awaitable_operators;
        if (!co_await send_head(stream, "text/event-stream"))
            co_return;
        asio::steady_timer timer(stream.get_executor());
        for (int i = 0; i < 100'000; ++i) {
            if (!co_await send_piece(stream, chat_chunk("drop ")))
                co_return;
            timer.expires_after(gap);
            // Readable while waiting: the gateway hung up (it sends nothing more), so stop now.
            const auto woke = co_await (timer.async_wait(nothrow) ||
                                        stream.socket().async_wait(asio::ip::tcp::socket::wait_read, nothrow));
            if (woke.index() == 1)
                co_return;
        }
    }

    static asio::awaitable<void> endless(beast::tcp_stream& stream)
    {
        if (!co_await send_head(stream, "text/event-stream"))
            co_return;
        const std::string piece = chat_chunk(std::string(16 * 1024, 'x'));
        stream.expires_after(std::chrono::seconds(60));
        for (int i = 0; i < 1'000'000; ++i)   // at most 16 GB, a minute: ends when the gateway hangs up
            if (!co_await send_piece(stream, piece))
                co_return;
    }

    static std::string random_bytes()
    {
        std::string out(64 * 1024, '\0');
        std::uint32_t x = 2463534242u;
        for (auto& c : out) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            c = static_cast<char>(x & 0xFF);
        }
        return out;
    }

    static std::string json_completion()
    {
        return R"({"id":"chatcmpl-whole","object":"chat.completion","created":1700000000,"model":"fake-model",)"
               R"("choices":[{"index":0,"message":{"role":"assistant","content":"Checking Paris.","tool_calls":[)"
               R"({"id":"call_whole_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},)"
               R"("finish_reason":"tool_calls"}],"usage":{"prompt_tokens":9,"completion_tokens":5,"total_tokens":14}})";
    }

    std::filesystem::path fixtures_;
    asio::io_context ioc_;
    asio::ip::tcp::acceptor acceptor_;
    unsigned short port_ = 0;
    std::thread thread_;
    mutable std::mutex mutex_;
    std::string last_body_;
    std::string last_authorization_;
    std::atomic<int> open_{0};
    std::atomic<std::size_t> requests_{0};
};

} // namespace gateway_test
