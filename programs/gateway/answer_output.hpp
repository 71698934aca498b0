// What every dialect's writer hands the chat core: the bytes of the next piece of a streamed body,
// or, for a non-streamed answer, the whole body or the error the answer ended with.
#pragma once

#include <string>
#include <string_view>

namespace gateway {

/// A streaming writer's output: the bytes of the next piece of the body.
struct append_to {
    std::string* out;
    void operator()(std::string_view bytes) const { out->append(bytes); }
};

/// A non-streamed answer, built: its JSON body, or why it cannot be given (an HTTP error then).
struct whole_answer_body {
    bool failed = false;
    std::string error;   // failed: the message the client gets
    std::string body;    // else: the JSON body of a 200
};

} // namespace gateway
