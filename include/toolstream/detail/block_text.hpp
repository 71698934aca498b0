// Text kept in fixed-size blocks rather than one buffer, for text that is read back only in pieces.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::detail {

/// Text appended in blocks of `block_size` bytes. A block never moves once allocated, so the
/// text grows without copies and without a moment that holds an old and a new buffer at once,
/// and its slack is under one block: what a whole call's raw text needs beside the call's other
/// copies. The first block grows as a string does, so short texts cost no more than a string.
class block_text {
public:
    static constexpr std::size_t block_size = std::size_t{64} << 10;

    void append(std::string_view s)
    {
        while (!s.empty()) {
            if (used_ == 0 || blocks_[used_ - 1].size() == block_size) {
                if (used_ == blocks_.size())
                    blocks_.emplace_back();
                if (used_ != 0)
                    blocks_[used_].reserve(block_size);
                ++used_;
            }
            std::string& block = blocks_[used_ - 1];
            const std::size_t n = std::min(s.size(), block_size - block.size());
            block.append(s.substr(0, n));
            s.remove_prefix(n);
        }
    }

    bool empty() const noexcept { return used_ == 0; }   // a block is used once it holds a byte

    /// Calls `f(std::string_view)` for each block in order.
    template<class F>
    void for_each_piece(F&& f) const
    {
        for (std::size_t i = 0; i < used_; ++i)
            f(std::string_view(blocks_[i]));
    }

    /// The whole text in one string (a copy).
    std::string joined() const
    {
        std::string out;
        out.reserve(used_ == 0 ? 0 : (used_ - 1) * block_size + blocks_[used_ - 1].size());
        for_each_piece([&](std::string_view piece) { out.append(piece); });
        return out;
    }

    /// Empties the text, keeping the first block's buffer (a large text is not kept alive).
    void clear() noexcept
    {
        if (blocks_.size() > 1)
            blocks_.resize(1);
        if (!blocks_.empty())
            blocks_[0].clear();
        used_ = 0;
    }

private:
    std::vector<std::string> blocks_;
    std::size_t used_ = 0;   // blocks holding text; the last may be partly filled
};

} // namespace toolstream::detail
