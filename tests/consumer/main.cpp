// Built against an installed toolstream through find_package: proves the package works.
#include <toolstream.hpp>

#include <iostream>

int main()
{
    toolstream::handler<toolstream::api_tool_call> h;
    toolstream::chunk_response chunk;
    chunk.tool_calls.push_back({0, "call_1", "write_file", R"({"path":"a.txt","content":"hi"})", true});
    if (h.feed(chunk) || h.finalize())
        return 1;
    const auto& inv = h.invocations();
    if (inv.size() != 1 || !inv[0].is_complete() || inv[0].arguments.at("content") != "hi")
        return 1;
    std::cout << "consumer ok: " << toolstream::to_json_string(h.events().front().view()) << "\n";
    return 0;
}
