// Deterministic synthetic inputs for the toolstream benchmarks.
//
// Each generator returns the exact bytes a provider puts on the wire (SSE), or the raw model
// text for the text-embedded formats. The output depends only on the arguments: a fixed-seed
// PRNG drives the file content and the escaping choices, so inputs (and their checksums) are
// identical across runs and platforms. Standard library only, so the peer runner's generator
// CLI builds without toolstream or Boost.
#pragma once

// The parts: stream_content.hpp (names, seeds, PRNG, escaping, the `write_file` content),
// stream_provider_sse.hpp (one call per provider dialect), stream_mixed_chat.hpp (the mixed OpenAI
// Chat stream) and stream_model_text.hpp (the text-embedded syntaxes).
#include "stream_content.hpp"
#include "stream_mixed_chat.hpp"
#include "stream_model_text.hpp"
#include "stream_provider_sse.hpp"
