// The bodies of compact_json.hpp's number and value writers: inline in every TU, or compiled once
// by <toolstream/src.hpp> with TOOLSTREAM_SEPARATE_COMPILATION.
#pragma once

#include <toolstream/detail/compact_json.hpp>

#include <boost/json/value.hpp>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>

namespace toolstream::detail {

TOOLSTREAM_DECL void append_js_number(std::string& out, double d)
{
    if (std::isinf(d)) {
        out += "null";
        return;
    }
    if (d == 0 || std::isnan(d)) {   // also -0, which JSON.stringify writes as 0
        out += '0';
        return;
    }
    char sci[32];   // "-d.ddddddddddddddde-308" at most
    const auto end = std::to_chars(sci, sci + sizeof sci, d, std::chars_format::scientific).ptr;
    const char* p = sci;
    if (*p == '-') {
        out += '-';
        ++p;
    }
    char digits[20];
    int k = 0;
    for (; *p != 'e'; ++p)
        if (*p != '.')
            digits[k++] = *p;
    ++p;   // 'e'
    const bool negative_exp = *p == '-';
    int e = 0;
    std::from_chars(p + 1, end, e);
    const int n = (negative_exp ? -e : e) + 1;   // the decimal point sits after n digits
    const std::string_view ds(digits, static_cast<std::size_t>(k));
    if (k <= n && n <= 21) {
        out += ds;
        out.append(static_cast<std::size_t>(n - k), '0');
    } else if (0 < n && n <= 21) {
        out += ds.substr(0, static_cast<std::size_t>(n));
        out += '.';
        out += ds.substr(static_cast<std::size_t>(n));
    } else if (-6 < n && n <= 0) {
        out += "0.";
        out.append(static_cast<std::size_t>(-n), '0');
        out += ds;
    } else {
        out += ds[0];
        if (k > 1) {
            out += '.';
            out += ds.substr(1);
        }
        out += n - 1 < 0 ? "e-" : "e+";
        char exp[8];
        const auto exp_end = std::to_chars(exp, exp + sizeof exp, n - 1 < 0 ? 1 - n : n - 1).ptr;
        out.append(exp, exp_end);
    }
}

TOOLSTREAM_DECL void append_json_number(std::string& out, const boost::json::value& v)
{
    char buf[24];
    if (v.is_int64()) {
        out.append(buf, std::to_chars(buf, buf + sizeof buf, v.get_int64()).ptr);
    } else if (v.is_uint64()) {
        out.append(buf, std::to_chars(buf, buf + sizeof buf, v.get_uint64()).ptr);
    } else {
        append_js_number(out, v.get_double());
    }
}

TOOLSTREAM_DECL void append_compact_json(std::string& out, const boost::json::value& v)
{
    switch (v.kind()) {
    case boost::json::kind::null: out += "null"; break;
    case boost::json::kind::bool_: out += v.get_bool() ? "true" : "false"; break;
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
    case boost::json::kind::double_: append_json_number(out, v); break;
    case boost::json::kind::string:
        out += '"';
        append_json_escaped(out, v.get_string());
        out += '"';
        break;
    case boost::json::kind::array: {
        out += '[';
        bool first = true;
        for (const auto& item : v.get_array()) {
            if (!first)
                out += ',';
            first = false;
            append_compact_json(out, item);
        }
        out += ']';
        break;
    }
    case boost::json::kind::object: {
        out += '{';
        bool first = true;
        for (const auto& member : v.get_object()) {
            if (!first)
                out += ',';
            first = false;
            out += '"';
            append_json_escaped(out, member.key());
            out += "\":";
            append_compact_json(out, member.value());
        }
        out += '}';
        break;
    }
    }
}

} // namespace toolstream::detail
