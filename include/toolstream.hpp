// toolstream: streaming LLM output in, segment events and tool invocations out.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/error.hpp>
#include <toolstream/handler.hpp>
#include <toolstream/invocation_adapter.hpp>
#include <toolstream/policies/api_tool_call.hpp>
#include <toolstream/policies/passthrough.hpp>
#include <toolstream/provider.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/segment_writer.hpp>
#include <toolstream/sinks.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/types.hpp>
