// block_text: text kept in fixed blocks (the raw arguments of a file call written as JSON).
#include <toolstream/detail/block_text.hpp>

#include "catch_compat.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace test_block_text {

using toolstream::detail::block_text;

TEST_CASE("block_text: pieces of any size read back whole, in blocks that never pass the block size", "[block_text]")
{
    std::string text;
    for (std::size_t i = 0; text.size() < 3 * block_text::block_size + 100; ++i)
        text += std::to_string(i) + ",";
    for (const std::size_t write : {std::size_t{1}, std::size_t{1000}, block_text::block_size,
                                    block_text::block_size + 1, text.size()}) {
        INFO("writes of " << write << " bytes");
        block_text b;
        CHECK(b.empty());
        for (std::size_t at = 0; at < text.size(); at += write)
            b.append(std::string_view(text).substr(at, write));
        CHECK(!b.empty());
        std::string read;
        std::vector<std::size_t> sizes;
        b.for_each_piece([&](std::string_view piece) {
            read.append(piece);
            sizes.push_back(piece.size());
        });
        CHECK(read == text);
        CHECK(b.joined() == text);
        REQUIRE(sizes.size() == 4);   // three full blocks and the rest
        CHECK(sizes == std::vector<std::size_t>{block_text::block_size, block_text::block_size,
                                                block_text::block_size, text.size() - 3 * block_text::block_size});

        b.clear();   // then reused, as for the next call
        CHECK(b.empty());
        CHECK(b.joined().empty());
        b.append("next");
        CHECK(b.joined() == "next");
    }
}

} // namespace test_block_text
