// The benchmark inputs of the text-embedded tool syntaxes: model text holding a `write_file` call
// in the XML, JSON or sentinel syntax; part of stream_generators.hpp. Standard library only.
#pragma once

#include "stream_content.hpp"

#include <cstddef>
#include <string>

namespace toolstream::bench {

/// Model text in the XML tool syntax: prose with bare `<`/`>`, a `write_file` call whose content
/// sits raw between `__START_CONTENT__\n` and `__END_CONTENT__` (the content's own final '\n'
/// precedes the end marker), then a generic `read_file` call and closing prose.
inline std::string xml_embedded_text(std::size_t content_bytes)
{
    std::string out = "I'll replace the generator; the old loop ran while i < n and stopped once i > limit.\n\n"
                      "<tool name=\"write_file\">\n<arguments>\n<arg name=\"path\">";
    out += write_file_path;
    out += "</arg>\n<arg name=\"content\">";
    out += xml_content_start;
    out += '\n';
    out += write_file_content(content_bytes);
    out += xml_content_end;
    out += "</arg>\n</arguments>\n</tool>\n\nNow let me compare it with the previous version (a -> b):\n\n"
           "<tool name=\"read_file\"><arguments><arg name=\"path\">";
    out += read_file_path;
    out += "</arg></arguments></tool>\n\nDone.\n";
    return out;
}

/// Model text in the JSON tool syntax: prose, then
/// `{"tool":{"function":"write_file","parameters":{"path":…,"content":…}}}` on its own line.
inline std::string json_embedded_text(std::size_t content_bytes)
{
    const std::string arguments = write_file_arguments_json(content_bytes);
    std::string out = "I'll write the generated file now (it replaces the old one).\n";
    out += "{\"tool\":{\"function\":\"";
    out += write_file_tool_name;
    out += "\",\"parameters\":";
    out += arguments;
    out += "}}\nThe file is written; next I'll run the tests.\n";
    return out;
}

/// Model text in the sentinel syntax: prose, then
/// `[[SEG_START {"type":"write_file","path":…}]]<raw content>[[SEG_END]]`, then prose.
inline std::string sentinel_embedded_text(std::size_t content_bytes)
{
    std::string out = "Writing the generated file now.\n";
    out += sentinel_start;
    out += " {\"type\":\"write_file\",\"path\":\"";
    out += write_file_path;
    out += "\"}]]";
    out += write_file_content(content_bytes);
    out += sentinel_end;
    out += "\nAll done.\n";
    return out;
}

} // namespace toolstream::bench
