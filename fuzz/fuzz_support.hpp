// Shared by the libFuzzer targets: the input layout, the chunking taken from the fuzz bytes, a
// recording sink that checks event life cycles as they come, the run comparisons, and a custom
// mutator that grows inputs to large events.
//
// A failed check prints what differs and aborts, so libFuzzer saves the input as a crash.
#pragma once

// The parts: fuzz_input.hpp (the input layout and chunking), fuzz_recorder.hpp (the recording sink
// and run comparisons), fuzz_checks.hpp (the text policy and provider pipeline checks) and
// fuzz_grower.hpp (the custom mutator).
#include "fuzz_checks.hpp"
#include "fuzz_grower.hpp"
#include "fuzz_input.hpp"
#include "fuzz_recorder.hpp"
