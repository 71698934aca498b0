// Reads a boost::json::value into the C++ types of json_schema's mapping table, keeping the JSON
// Pointer of the value being read so that the first mismatch can say where it is.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/tools/detail/type_classes.hpp>
#include <toolstream/tools/field_info.hpp>

#include <boost/describe/enumerators.hpp>
#include <boost/json/error.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/system/errc.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

namespace toolstream::detail {

/// Shortest decimal text of a bound (`50`, `0.5`), for messages.
inline std::string bound_text(double bound)
{
    char buffer[32];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, bound);
    return ec == std::errc{} ? std::string(buffer, end) : std::string("?");
}

class argument_reader {
public:
    /// Reads every described member of `out` from `object`.
    template<described_struct T>
    bool read_members(const boost::json::object& object, T& out)
    {
        static_assert(field_docs_name_members<T>(), "toolstream::field_info<T> names a member that T does not describe");
        bool ok = true;
        boost::mp11::mp_for_each<described_members_of<T>>([&](auto member) {
            if (!ok)
                return;
            using M = std::remove_cvref_t<decltype(out.*member.pointer)>;
            const boost::json::value* value = object.if_contains(member.name);
            const std::size_t mark = enter_key(member.name);
            if (!value) {
                if constexpr (optional_type<M>)
                    (out.*member.pointer).reset();
                else
                    ok = fail("missing required field", error::missing_argument);
            } else {
                ok = read(*value, out.*member.pointer, find_field_doc<T>(member.name));
            }
            path_.resize(mark);
        });
        return ok;
    }

    template<class T>
    bool read(const boost::json::value& v, T& out, const field_doc* doc)
    {
        if constexpr (optional_type<T>) {
            if (v.is_null()) {
                out.reset();
                return true;
            }
            return read(v, out.emplace(), doc);
        } else if constexpr (described_struct<T>) {
            if (!v.is_object())
                return fail("expected object", boost::json::error::not_object);
            return read_members(v.get_object(), out);
        } else if constexpr (vector_type<T>) {
            return read_array(v, out, doc);
        } else if constexpr (string_map_type<T>) {
            if (!v.is_object())
                return fail("expected object", boost::json::error::not_object);
            const field_doc inner = element_doc(doc);
            out.clear();
            for (const auto& [key, item] : v.get_object()) {
                const std::size_t mark = enter_key(key);
                if (!read(item, out[std::string(key)], &inner))
                    return false;
                path_.resize(mark);
            }
            return true;
        } else if constexpr (described_enum<T>) {
            return read_enum(v, out);
        } else if constexpr (boolean_type<T>) {
            if (!v.is_bool())
                return fail("expected boolean", boost::json::error::not_bool);
            out = v.get_bool();
            return true;
        } else if constexpr (string_type<T>) {
            if (!v.is_string())
                return fail("expected string", boost::json::error::not_string);
            out.assign(v.get_string().data(), v.get_string().size());
            return true;
        } else if constexpr (integer_type<T>) {
            return read_integer(v, out) && check_bounds(static_cast<double>(out), doc);
        } else if constexpr (number_type<T>) {
            if (!v.is_number())
                return fail("expected number", boost::json::error::not_number);
            const double d = v.is_double() ? v.get_double() : v.is_int64() ? static_cast<double>(v.get_int64())
                                                                            : static_cast<double>(v.get_uint64());
            if (std::abs(d) > static_cast<double>(std::numeric_limits<T>::max()))
                return fail("number out of range", boost::json::error::not_exact);
            out = static_cast<T>(d);
            return check_bounds(d, doc);
        } else {
            static_assert(unsupported_type<T>,
                          "toolstream::arguments_as: this member type has no JSON Schema mapping (see the table in "
                          "toolstream/tools/json_schema.hpp)");
            return false;
        }
    }

    /// The error met, as `Error{path, message, code}`.
    template<class Error>
    Error error() &&
    {
        return Error{std::move(error_path_), std::move(message_), code_};
    }

private:
    /// Appends `/key` (escaped as RFC 6901 says) to the path; returns the length to restore.
    std::size_t enter_key(std::string_view key)
    {
        const std::size_t mark = path_.size();
        path_ += '/';
        for (char c : key) {
            if (c == '~')
                path_ += "~0";
            else if (c == '/')
                path_ += "~1";
            else
                path_ += c;
        }
        return mark;
    }

    bool fail(std::string message, error_code code)
    {
        error_path_ = path_;
        message_ = std::move(message);
        code_ = code;
        return false;
    }

    template<class T>
    bool read_array(const boost::json::value& v, T& out, const field_doc* doc)
    {
        if (!v.is_array())
            return fail("expected array", boost::json::error::not_array);
        const auto& items = v.get_array();
        if (doc && doc->min_items && items.size() < *doc->min_items)
            return fail("expected at least " + std::to_string(*doc->min_items) + " items",
                        boost::system::errc::make_error_code(boost::system::errc::argument_out_of_domain));
        if (doc && doc->max_items && items.size() > *doc->max_items)
            return fail("expected at most " + std::to_string(*doc->max_items) + " items",
                        boost::system::errc::make_error_code(boost::system::errc::argument_out_of_domain));
        const field_doc inner = element_doc(doc);
        out.clear();
        out.reserve(items.size());
        for (std::size_t i = 0; i < items.size(); ++i) {
            const std::size_t mark = path_.size();
            path_ += '/';
            path_ += std::to_string(i);
            typename T::value_type item{};   // not emplace_back(): vector<bool> has no references
            if (!read(items[i], item, &inner))
                return false;
            out.push_back(std::move(item));
            path_.resize(mark);
        }
        return true;
    }

    template<class E>
    bool read_enum(const boost::json::value& v, E& out)
    {
        bool found = false;
        std::string names;
        boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto e) {
            if (!found && v.is_string() && v.get_string() == std::string_view(e.name)) {
                out = e.value;
                found = true;
            }
            names += names.empty() ? "" : ", ";
            names += e.name;
        });
        if (found)
            return true;
        return fail("expected one of: " + names,
                    v.is_string() ? error_code(boost::json::error::unknown_name) : error_code(boost::json::error::not_string));
    }

    template<class T>
    bool read_integer(const boost::json::value& v, T& out)
    {
        using limits = std::numeric_limits<T>;
        bool in_range = false;
        if (v.is_int64()) {
            const std::int64_t i = v.get_int64();
            in_range = std::is_signed_v<T> ? i >= static_cast<std::int64_t>(limits::min()) && i <= static_cast<std::int64_t>(limits::max())
                                           : i >= 0 && static_cast<std::uint64_t>(i) <= static_cast<std::uint64_t>(limits::max());
            if (in_range)
                out = static_cast<T>(i);
        } else if (v.is_uint64()) {
            const std::uint64_t u = v.get_uint64();
            in_range = u <= static_cast<std::uint64_t>(limits::max());
            if (in_range)
                out = static_cast<T>(u);
        } else if (v.is_double()) {
            const double d = v.get_double();
            if (d != std::trunc(d))
                return fail("expected integer", boost::json::error::not_number);
            // 2^63 and 2^64 are exact doubles; the bounds are exclusive above.
            in_range = d >= static_cast<double>(limits::min()) && d < std::ldexp(1.0, limits::digits);
            if (in_range)
                out = static_cast<T>(d);
        } else {
            return fail("expected integer", boost::json::error::not_number);
        }
        if (!in_range)
            return fail("expected integer from " + std::to_string(limits::min()) + " to " + std::to_string(limits::max()),
                        boost::json::error::not_exact);
        return true;
    }

    bool check_bounds(double value, const field_doc* doc)
    {
        const auto out_of_domain = boost::system::errc::make_error_code(boost::system::errc::argument_out_of_domain);
        if (doc && doc->minimum && value < *doc->minimum)
            return fail("expected at least " + bound_text(*doc->minimum), out_of_domain);
        if (doc && doc->maximum && value > *doc->maximum)
            return fail("expected at most " + bound_text(*doc->maximum), out_of_domain);
        return true;
    }

    std::string path_;
    std::string error_path_;
    std::string message_;
    error_code code_;
};

} // namespace toolstream::detail
