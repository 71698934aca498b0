// The parser policy that finds the format from the text: auto_policy<Formats...> streams text
// until an opening marker of one of the formats, tries the formats that open there, and from then
// on is the one it chose.
#pragma once

#include <toolstream/parse/engine/detail/marker_scanner.hpp>
#include <toolstream/parse/engine/format_traits.hpp>
#include <toolstream/parse/policies/detail/format_openings.hpp>
#include <toolstream/parse/policies/detail/format_trial.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

namespace toolstream {

/// Options of auto_policy: those of the format it chooses (text_format_options), a type of their
/// own so that code can tell auto's options from a format's. `max_held` also bounds the trials
/// at a marker (at least 4096 bytes; see auto_policy).
struct auto_options : text_format_options {};

/// A parser policy for text in any of `Formats` (text_format_policy types, in order of
/// preference), the registry's `auto`:
/// - before any opening marker of a format, text streams out; only a suffix that may begin a
///   marker is held (no more than the longest marker);
/// - at a marker, every format with an opener there reads the bytes that follow in a trial of its
///   own (detail::format_trial), up to max_held of them (at least 4096). A trial is settled by
///   the first of: text (the bytes open nothing of that format), a call that ends complete, a
///   call that ends broken. The first format, in order, whose call ends complete is chosen.
///   Past those bytes or at the end of the stream, a format with a call named and still open
///   counts as one whose call ended complete; else the first that read a broken block of its
///   own (a broken call is flagged as its format flags it); else the first whose markup (a block
///   with no call, a marker) ended cleanly. If no format reads the marker, it is text and the
///   search goes on past its first byte. Inside a format's text block (minimax's `<think>`),
///   where that format opens no call, a call it reads marks the block as that format's: the
///   rest of the block is text, as the format leaves it. What is chosen depends only on the
///   bytes, never on how they were fed;
/// - once chosen, the held bytes go to a fresh policy of that format (told whether text went out
///   before), which reads the rest of the stream: the output is the format's own, and so is the
///   cost. The choice is final (format()).
template<class... Formats>
class auto_policy {
public:
    using options_type = auto_options;

    static constexpr std::string_view name = "auto";
    static constexpr std::array<std::string_view, sizeof...(Formats)> format_names{Formats::name...};

    auto_policy() : auto_policy(options_type{}) {}
    explicit auto_policy(options_type options) : options_(std::move(options)) {}

    template<emitter Emitter>
    void on_content(std::string_view text, Emitter& out);

    template<emitter Emitter>
    void finalize(Emitter& out);

    void reset();

    /// The format chosen in this stream, or in the last one once it is finalized; empty when the
    /// text showed none.
    std::string_view format() const noexcept { return last_ == 0 ? std::string_view{} : format_names[last_ - 1]; }

    /// The format an auto_policy reading `text` would choose, when it reads a complete call there
    /// (else empty): a call of that format that another policy left in its text.
    static std::string_view format_in(std::string_view text);

    std::size_t held_bytes() const noexcept;

    /// Whether file bodies are decoded out of JSON strings (text_format_policy's
    /// decodes_file_bodies): the chosen format's answer, false before the choice.
    bool decodes_file_bodies_now() const noexcept;

    /// Bytes at a marker being decided belong to a block; after the choice, the format's answer.
    bool in_block() const noexcept;

    const options_type& options() const noexcept { return options_; }

    /// Every format's opening markers (the union the search looks for).
    static std::span<const std::string_view> openers();

    /// Where a block would open in `v` before `limit` (detail::find_opening, for a reasoning
    /// parser in front): the chosen format's answer; before the choice, the first marker that
    /// some format would open a block at.
    detail::format_opening find_opening(std::string_view v, std::size_t limit, bool after_output, bool at_end) const;

private:
    static constexpr std::size_t format_count = sizeof...(Formats);
    using trials_type = std::tuple<std::optional<detail::format_trial<Formats>>...>;

    // The first of openers() in `text`, or the prefix of one that ends it.
    static detail::marker_match find_opener(std::string_view text);
    // The same over openers() and the closes of the formats' text blocks.
    static detail::marker_match find_stop(std::string_view text);

    // The bytes from a marker the trials read at most.
    std::size_t decision_window() const noexcept { return std::max<std::size_t>(options_.max_held, 4096); }

    // What deciding at the held marker found: a format's index, or one of these.
    static constexpr std::size_t undecided = format_count;
    static constexpr std::size_t none = format_count + 1;

    template<emitter Emitter>
    void search(Emitter& out, bool at_end);
    template<emitter Emitter>
    void emit_text(std::string_view text, Emitter& out);
    void track_text_blocks();
    template<emitter Emitter>
    bool skip_text_block(Emitter& out);
    void start_trials();
    void feed_trials();
    std::size_t decide(bool final);
    template<emitter Emitter>
    void commit(std::size_t format, Emitter& out);
    template<emitter Emitter>
    void forward(std::string_view text, Emitter& out);

    options_type options_;
    std::variant<std::monostate, Formats...> chosen_;
    std::size_t last_ = 0;                      // chosen_.index() at the choice; kept by finalize()
    detail::scan_buffer buf_;
    bool deciding_ = false;                     // buf_ starts at a marker the trials read
    bool text_before_ = false;                  // non-blank text went out before the choice
    std::size_t fed_ = 0;                       // bytes of buf_ the trials have read
    std::array<bool, format_count> trying_{};   // formats with a trial at the held marker
    // Formats inside a text block of theirs (`<think>` for minimax), where they open no call.
    std::array<bool, format_count> in_text_block_{};
    std::size_t skipping_ = none;   // the format whose text block is text to its close
    std::unique_ptr<trials_type> trials_;       // made at the first marker
};

} // namespace toolstream

#include <toolstream/parse/policies/impl/auto_detect.hpp>
