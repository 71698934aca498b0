// A whole text read as one Python literal, for schema typing of raw parameter values written with
// Python literals (parse/raw_parameters.hpp), as SGLang's and vLLM's qwen3_coder read them.
#pragma once

#include <toolstream/detail/parse_json.hpp>
#include <toolstream/detail/python_literals.hpp>
#include <toolstream/detail/python_values.hpp>

#include <boost/json/value.hpp>

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace toolstream::detail {

/// A whole text as a python_source: every byte is there, and no piece is bounded.
class python_text_source {
public:
    explicit python_text_source(std::string_view text) noexcept : rest_(text) {}
    std::string_view view() const noexcept { return rest_; }
    std::size_t room() const noexcept { return std::numeric_limits<std::size_t>::max(); }
    void take(std::size_t n) noexcept { rest_.remove_prefix(n); }
    void decoded(std::string_view) const noexcept {}   // a body is read from a stream only

private:
    std::string_view rest_;
};

/// The whole of `text`, blanks around it allowed, as one Python literal (ast.literal_eval, then
/// json.dumps: a tuple or set is an array); nullopt when it is not one. It is read between
/// brackets, so that a number or string at the end of the text ends there.
inline std::optional<boost::json::value> parse_python_literal(std::string_view text)
{
    std::string list;   // appended, not "[" + …: GCC 12 warns falsely (-Wrestrict) on that at -O3
    list.reserve(text.size() + 2);
    list.append(1, '[').append(text).append(1, ']');
    python_text_source source(list);
    python_value_reader reader;
    reader.begin(false, std::numeric_limits<std::size_t>::max());
    if (reader.step(source) != python_value_reader::status::done || !source.view().empty())
        return std::nullopt;
    boost::system::error_code ec;
    boost::json::value parsed = parse_json(reader.json(), ec);
    if (ec || !parsed.is_array() || parsed.get_array().size() != 1)
        return std::nullopt;
    return std::move(parsed.get_array()[0]);
}

} // namespace toolstream::detail
