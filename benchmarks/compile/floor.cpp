// The compile-time floor (benchmarks/compile_time.sh): a TU that only parses JSON with Boost.JSON,
// once through a SAX handler (boost::json::basic_parser) and once into a DOM. A toolstream TU
// is measured as a multiple of this one, compiled beside it.
#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/parse.hpp>

#include <cstddef>
#include <cstdint>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>

namespace {

// Counts the string bytes of a document: the work a streaming converter does per event.
struct counting_handler {
    static constexpr std::size_t max_object_size = std::size_t(-1);
    static constexpr std::size_t max_array_size = std::size_t(-1);
    static constexpr std::size_t max_key_size = std::size_t(-1);
    static constexpr std::size_t max_string_size = std::size_t(-1);
    std::size_t bytes = 0;

    bool on_document_begin(boost::system::error_code&) { return true; }
    bool on_document_end(boost::system::error_code&) { return true; }
    bool on_object_begin(boost::system::error_code&) { return true; }
    bool on_object_end(std::size_t, boost::system::error_code&) { return true; }
    bool on_array_begin(boost::system::error_code&) { return true; }
    bool on_array_end(std::size_t, boost::system::error_code&) { return true; }
    bool on_key_part(boost::json::string_view, std::size_t, boost::system::error_code&) { return true; }
    bool on_key(boost::json::string_view, std::size_t, boost::system::error_code&) { return true; }
    bool on_string_part(boost::json::string_view s, std::size_t, boost::system::error_code&) { bytes += s.size(); return true; }
    bool on_string(boost::json::string_view s, std::size_t, boost::system::error_code&) { bytes += s.size(); return true; }
    bool on_number_part(boost::json::string_view, boost::system::error_code&) { return true; }
    bool on_int64(std::int64_t, boost::json::string_view, boost::system::error_code&) { return true; }
    bool on_uint64(std::uint64_t, boost::json::string_view, boost::system::error_code&) { return true; }
    bool on_double(double, boost::json::string_view, boost::system::error_code&) { return true; }
    bool on_bool(bool, boost::system::error_code&) { return true; }
    bool on_null(boost::system::error_code&) { return true; }
    bool on_comment_part(boost::json::string_view, boost::system::error_code&) { return true; }
    bool on_comment(boost::json::string_view, boost::system::error_code&) { return true; }
};

} // namespace

int main()
{
    const std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};

    boost::json::basic_parser<counting_handler> sax{boost::json::parse_options{}};
    boost::system::error_code ec;
    sax.write_some(false, text.data(), text.size(), ec);
    std::cout << "string bytes: " << sax.handler().bytes << (ec ? " (error)" : "") << "\n";

    const boost::json::value dom = boost::json::parse(text, ec);
    if (!ec && dom.is_object())
        std::cout << "members: " << dom.as_object().size() << "\n";
}
