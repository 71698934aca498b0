// The library's compiled-once functions (detail/config.hpp): included in one .cpp of a program
// whose every TU defines TOOLSTREAM_SEPARATE_COMPILATION, it defines them. Without that macro
// every header already defines them inline, and this header adds nothing.
#pragma once

#include <toolstream/detail/impl/compact_json.hpp>
#include <toolstream/detail/impl/file_arguments_decoder.hpp>
#include <toolstream/detail/impl/parse_json.hpp>
#include <toolstream/detail/impl/parse_object_sized.hpp>

#if defined(TOOLSTREAM_SEPARATE_COMPILATION)
// The members of the decoder's parser that its header uses inline (constructor, reset,
// destructor) are declared there without their definitions: instantiated here.
template class boost::json::basic_parser<toolstream::detail::file_arguments_decoder::value_events>;
#endif
