// handler<runtime_policy> with the default sink, which many test files use, compiled once for the
// suite (every test TU sees TOOLSTREAM_SEPARATE_RUNTIME, so runtime_policy.hpp only declares it).
#include <toolstream/handler/handler.hpp>
#include <toolstream/runtime/runtime_policy.hpp>
#include <toolstream/sinks.hpp>

template class ::toolstream::handler<::toolstream::runtime_policy, ::toolstream::recording_sink>;
