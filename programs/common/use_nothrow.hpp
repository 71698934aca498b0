// The completion token of every awaited Asio and Beast operation in the programs: the error comes
// back in a tuple beside the result instead of as an exception, so that a peer that goes away is
// an ordinary outcome, handled where it happens.
#pragma once

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace toolstream_programs {

inline constexpr auto use_nothrow = boost::asio::as_tuple(boost::asio::use_awaitable);

} // namespace toolstream_programs
