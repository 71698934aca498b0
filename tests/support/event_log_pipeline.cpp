// runtime_pipeline<test::event_log>, compiled once for the test executable (event_log.hpp
// declares it): its pipelines cover every registered policy and provider.
#include "support/event_log.hpp"

#include <toolstream/runtime/runtime_pipeline.hpp>

TOOLSTREAM_INSTANTIATE_RUNTIME_PIPELINE(::toolstream::test::event_log);
