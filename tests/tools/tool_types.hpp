// Described argument structs shared by the typed-tools tests: one per row of the mapping table,
// and the tools of the providers' documentation examples used by the golden files.
#pragma once

#include <toolstream/tools/field_info.hpp>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tools_test {

enum class write_mode { overwrite, append };
BOOST_DESCRIBE_ENUM(write_mode, overwrite, append)

struct write_file_args {
    std::string path;
    std::string content;
    std::optional<write_mode> mode;
};
BOOST_DESCRIBE_STRUCT(write_file_args, (), (path, content, mode))

struct scalars {
    bool flag;
    std::int8_t i8;
    std::int16_t i16;
    int i32;
    std::int64_t i64;
    std::uint8_t u8;
    unsigned u32;
    std::uint64_t u64;
    float f;
    double d;
    std::string s;
};
BOOST_DESCRIBE_STRUCT(scalars, (), (flag, i8, i16, i32, i64, u8, u32, u64, f, d, s))

struct line_item {
    std::string sku;
    int qty;
};
BOOST_DESCRIBE_STRUCT(line_item, (), (sku, qty))

struct audited {
    std::string author;
};
BOOST_DESCRIBE_STRUCT(audited, (), (author))

/// A base, a nested struct array, maps, optional and nullable elements.
struct order_args : audited {
    std::vector<line_item> items;
    std::map<std::string, double> prices;
    std::unordered_map<std::string, int> stock;
    std::vector<std::optional<int>> slots;
    std::optional<line_item> gift;
    std::vector<std::string> tags;
};
BOOST_DESCRIBE_STRUCT(order_args, (audited), (items, prices, stock, slots, gift, tags))

struct empty_args {};
BOOST_DESCRIBE_STRUCT(empty_args, (), ())

struct search_args {
    std::string query;
    std::optional<int> limit;
    std::vector<std::string> sites;
};
BOOST_DESCRIBE_STRUCT(search_args, (), (query, limit, sites))

// The providers' documentation examples (OpenAI and Anthropic: get_weather; Gemini: set_light_values).
enum class temperature_unit { celsius, fahrenheit };
BOOST_DESCRIBE_ENUM(temperature_unit, celsius, fahrenheit)

struct get_weather_args {
    std::string location;
    std::optional<temperature_unit> unit;
};
BOOST_DESCRIBE_STRUCT(get_weather_args, (), (location, unit))

enum class color_temperature { daylight, cool, warm };
BOOST_DESCRIBE_ENUM(color_temperature, daylight, cool, warm)

struct set_light_values_args {
    int brightness;
    color_temperature color_temp;
};
BOOST_DESCRIBE_STRUCT(set_light_values_args, (), (brightness, color_temp))

} // namespace tools_test

template<>
struct toolstream::field_info<tools_test::search_args> {
    static constexpr field_doc fields[] = {
        {.name = "query", .description = "What to search for", .pattern = "^[^\\n]+$"},
        {.name = "limit", .description = "How many results", .minimum = 1, .maximum = 50},
        {.name = "sites", .description = "Sites to search", .pattern = "^[a-z.]+$", .min_items = 1, .max_items = 3},
    };
};

template<>
struct toolstream::field_info<tools_test::line_item> {
    static constexpr field_doc fields[] = {
        {.name = "qty", .minimum = 1},
    };
};

template<>
struct toolstream::field_info<tools_test::get_weather_args> {
    static constexpr field_doc fields[] = {
        {.name = "location", .description = "The city and state, e.g. San Francisco, CA"},
        {.name = "unit", .description = "The unit of temperature, either 'celsius' or 'fahrenheit'"},
    };
};

template<>
struct toolstream::field_info<tools_test::set_light_values_args> {
    static constexpr field_doc fields[] = {
        {.name = "brightness",
         .description = "Light level from 0 to 100. Zero is off and 100 is full brightness",
         .minimum = 0,
         .maximum = 100},
        {.name = "color_temp",
         .description = "Color temperature of the light fixture, which can be `daylight`, `cool` or `warm`."},
    };
};
