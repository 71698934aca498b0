#include <toolstream/parse/formats/detail/xml_arguments.hpp>

#include "catch_compat.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace test_xml_arguments {

namespace {

using toolstream::error;
using toolstream::detail::append_xml_text;
using toolstream::detail::parse_xml_arguments;

// Compact JSON of the result (key order included, as Python dicts keep it), or the error.
std::string args(std::string_view xml, std::size_t max_depth = 64)
{
    const auto r = parse_xml_arguments(xml, max_depth);
    if (!r)
        return "error: " + r.error().message();
    return boost::json::serialize(*r);
}

std::string text(std::string_view raw)
{
    std::string out = "[";
    append_xml_text(raw, out);
    return out;
}

std::string repeat(std::string_view s, std::size_t n)
{
    std::string out;
    out.reserve(s.size() * n);
    for (std::size_t i = 0; i < n; ++i)
        out += s;
    return out;
}

} // namespace

TEST_CASE("xml arguments: every row of the Python reference table", "[xml][arguments]")
{
    CHECK(args(R"(<arguments><arg name="path">/tmp/a.txt</arg><arg name="content">hello</arg></arguments>)")
          == R"({"path":"/tmp/a.txt","content":"hello"})");
    CHECK(args("<path>/tmp/b.txt</path><content>hi</content>") == R"({"path":"/tmp/b.txt","content":"hi"})");
    CHECK(args(R"(<arguments><arg name="cfg"><arg name="a">1</arg><arg name="b">x</arg></arg></arguments>)")
          == R"({"cfg":{"a":"1","b":"x"}})");
    CHECK(args(R"(<arguments><arg name="tasks"><item><arg name="task_name">a</arg><arg name="deps">)"
               R"(<item>1</item><item>2</item></arg></item><item><arg name="task_name">b</arg></item>)"
               R"(</arg></arguments>)")
          == R"({"tasks":[{"task_name":"a","deps":["1","2"]},{"task_name":"b"}]})");
    CHECK(args(R"(<arguments><arg name="tags"><item>x</item></arg></arguments>)") == R"({"tags":["x"]})");
    CHECK(args(R"(<arguments><arg name="empty"></arg><arg name="ws">  padded  </arg></arguments>)")
          == R"({"empty":"","ws":"padded"})");
    CHECK(args(R"(<arg name="q">a &amp; b &lt; c &gt; d &quot;e&quot; &#65;</arg>)")
          == R"({"q":"a & b < c > d \"e\" A"})");
    CHECK(args(R"(<arg name="q">a & b</arg>)") == R"({"q":"a & b"})");
    CHECK(args(R"(<arg name="description">Handle n <= 0 case</arg>)") == R"({"description":"Handle n <= 0 case"})");
    CHECK(args(R"(<arg name="code"><![CDATA[if (a < b && c > d) { x(); }]]></arg>)")
          == R"({"code":"if (a < b && c > d) { x(); }"})");
    CHECK(args(R"(<arg name="html"><div class="x">hi</div></arg>)") == R"({"html":{"div":"hi"}})");
    CHECK(args(R"(<arg name="n">42</arg><arg name="flag">true</arg>)") == R"({"n":"42","flag":"true"})");
    CHECK(args(R"(<arg name="a">1</arg><arg name="a">2</arg>)") == R"({"a":"2"})");
    CHECK(args(R"(<arg name="mixed">text<b>bold</b>tail</arg>)") == R"({"mixed":{"b":"bold"}})");
    CHECK(args(R"(<ARGUMENTS><arg name="x">1</arg></ARGUMENTS>)") == R"({"x":"1"})");
    CHECK(args(R"(<arguments><arg name="broken">unclosed</arguments>)") == "{}");
    CHECK(args("city=NYC") == "{}");
    CHECK(args("") == "{}");
    CHECK(args(R"(<arg name="list"><item><name>a</name></item><item><name>b</name></item></arg>)")
          == R"({"list":[{"name":"a"},{"name":"b"}]})");
}

TEST_CASE("xml arguments: the Python-only nested tasks example", "[xml][arguments]")
{
    CHECK(args(R"(<arguments><arg name="tasks"><item><arg name="task_name">implement_fibonacci</arg>)"
               R"(<arg name="description">Handle n <= 0 case</arg></item></arg></arguments>)")
          == R"({"tasks":[{"task_name":"implement_fibonacci","description":"Handle n <= 0 case"}]})");
}

TEST_CASE("xml arguments: entities and CDATA", "[xml][arguments]")
{
    CHECK(args(R"(<arg name="e">&amp; &lt; &gt; &quot; &apos; &#65; &#x1F600;</arg>)")
          == "{\"e\":\"& < > \\\" ' A \xF0\x9F\x98\x80\"}");
    // Not entities (unknown name, uppercase X, no ';', not an XML character, out of range).
    CHECK(args(R"(<arg name="e">&nbsp; &#X41; &#65 &#0; &#6; &#xD800; &#1114112; &#99999999999999999999;</arg>)")
          == R"({"e":"&nbsp; &#X41; &#65 &#0; &#6; &#xD800; &#1114112; &#99999999999999999999;"})");
    CHECK(args(R"(<arg name="c"><![CDATA[ <a> &amp; ]] ]]></arg>)") == R"({"c":"<a> &amp; ]]"})");
    CHECK(args(R"(<arg name="c">x <![CDATA[&]]> &amp; y</arg>)") == R"({"c":"x & & y"})");
    CHECK(args(R"(<arg name="a&amp;b">v</arg>)") == R"({"a&b":"v"})");

    CHECK(text("a &amp; &lt;b&gt; &#x41;&#66; <![CDATA[&lt; <x>]]> & &bogus;")
          == "[a & <b> AB &lt; <x> & &bogus;");
    CHECK(text("<![CDATA[never closed &amp;") == "[<![CDATA[never closed &");
    CHECK(text("<b>&#xe9;</b>") == "[<b>\xC3\xA9</b>");
    CHECK(text("") == "[");
}

TEST_CASE("xml arguments: tag syntax", "[xml][arguments]")
{
    CHECK(args(R"(<arg name='single'>1</arg><arg name="double">2</arg>)") == R"({"single":"1","double":"2"})");
    CHECK(args(R"(<arg  name = "path">/x</arg><arg name= 'q' >y</arg >)") == R"({"path":"/x","q":"y"})");
    CHECK(args(R"(<arg name="x"/><arg name="y" /><z/>)") == R"({"x":"","y":"","z":""})");
    CHECK(args(R"(<arg name="a">x</ARG><Path>p</PATH>)") == R"({"a":"x","Path":"p"})");
    CHECK(args(R"(<arg id="1" name="k" title='t'>v</arg>)") == R"({"k":"v"})");
    CHECK(args(R"(<arg name="">v</arg><arg title="t">w</arg>)") == R"({"arg":"w"})");
    // Comments and processing instructions vanish; the text around them joins up.
    CHECK(args(R"(<!-- c --><arg name="a">x<!-- <arg name="no">--> y<?pi data?>z</arg><?php echo 1; ?>)")
          == R"({"a":"x yz"})");
}

TEST_CASE("xml arguments: the arguments wrapper", "[xml][arguments]")
{
    CHECK(args("\n  <arguments>\n    <arg name=\"a\">1</arg>\n  </arguments>\n") == R"({"a":"1"})");
    CHECK(args(R"(<Arguments version="1"><arg name="a">1</arg></arguments >)") == R"({"a":"1"})");
    // Whatever follows the wrapper is ignored, even when it is broken.
    CHECK(args(R"(<arguments><arg name="a">1</arg></arguments></tool> trailing <b>)") == R"({"a":"1"})");
    // Elements before it are dropped, as the Python regex only keeps the wrapper's inside.
    CHECK(args(R"(<path>x</path> <arguments><arg name="a">1</arg></arguments>)") == R"({"a":"1"})");
    CHECK(args("<arguments/>") == "{}");
    CHECK(args("<arguments>   </arguments>") == "{}");
    // Only a top-level element is a wrapper; deeper down it is an ordinary argument.
    CHECK(args(R"(<arg name="a"><arguments>x</arguments></arg>)") == R"({"a":{"arguments":"x"}})");
    // Directly inside the wrapper, <item> children are keyed like any element.
    CHECK(args("<arguments><item>a</item></arguments>") == R"({"item":"a"})");
}

TEST_CASE("xml arguments: values and structure", "[xml][arguments]")
{
    // Items win over sibling elements, and items holding items are nested arrays.
    CHECK(args(R"(<arg name="l"><item>a</item><other>b</other><item> c </item></arg>)") == R"({"l":["a","c"]})");
    CHECK(args(R"(<arg name="m"><item><item>1</item><item>2</item></item><item/></arg>)")
          == R"({"m":[["1","2"],""]})");
    CHECK(args(R"(<arg name="l"><ITEM>x</ITEM></arg>)") == R"({"l":{"ITEM":"x"}})");
    CHECK(args(R"(<arg name="o"> <arg name="a">1</arg> <arg name="a">2</arg> <b/> </arg>)")
          == R"({"o":{"a":"2","b":""}})");
    CHECK(args(R"(<arg name="p">x<br/>y</arg>)") == R"({"p":{"br":""}})");
    // str.strip() semantics: Unicode spaces go too, inner whitespace stays.
    CHECK(args("<arg name=\"s\">\xC2\xA0\t a \n b \xE3\x80\x80\r\n</arg>") == "{\"s\":\"a \\n b\"}");
    CHECK(args(R"(<arg name="s">&#32;x&#160;</arg>)") == R"({"s":"x"})");
    // Values are bytes as written: no line-end normalisation.
    CHECK(args("<arg name=\"s\">a\r\nb</arg>") == R"({"s":"a\r\nb"})");
}

TEST_CASE("xml arguments: lenient text", "[xml][arguments]")
{
    CHECK(args(R"(<arg name="q">a < b</arg>)") == R"({"q":"a < b"})");
    CHECK(args(R"(<arg name="q">x <y z> w <1> </ a> <a b=c> <a x="1"y="2"></arg>)")
          == R"({"q":"x <y z> w <1> </ a> <a b=c> <a x=\"1\"y=\"2\">"})");
    CHECK(args(R"(<arg name="q">x <!-- never closed</arg>)") == R"({"q":"x <!-- never closed"})");
    CHECK(args(R"(<arg name="q"><![CDATA[ never closed</arg>)") == R"({"q":"<![CDATA[ never closed"})");
    CHECK(args(R"(<arg name="q">a <? b <!DOCTYPE x></arg>)") == R"({"q":"a <? b <!DOCTYPE x>"})");
    CHECK(args(R"(<arg name="q">if (x &&y) < 3</arg>)") == R"({"q":"if (x &&y) < 3"})");
}

TEST_CASE("xml arguments: broken structure gives an empty object", "[xml][arguments]")
{
    CHECK(args(R"(<arg name="a">1</arg><arg name="b">x <br> y</arg>)") == "{}");
    CHECK(args(R"(<arg name="a">1</b>)") == "{}");
    CHECK(args(R"(</stray><arg name="a">1</arg>)") == "{}");
    CHECK(args(R"(<arg name="a">1</arg></arg>)") == "{}");
    CHECK(args(R"(<arg name="a"><arg name="b">1</arg>)") == "{}");
    CHECK(args(R"(<arguments><arg name="a">1</arg>)") == "{}");
}

TEST_CASE("xml arguments: errors", "[xml][arguments]")
{
    // Invalid UTF-8 anywhere: stray continuation, overlong '/', a surrogate, truncated sequence.
    for (const std::string_view bad : {"<a>\x80</a>", "<a>\xC0\xAF</a>", "<a>\xED\xA0\x80</a>", "<a>x</a>\xE2\x82"})
        CHECK(parse_xml_arguments(bad).error() == error::invalid_arguments);
    CHECK(args("<a>\xE2\x82\xAC \xF4\x8F\xBF\xBF</a>") == "{\"a\":\"\xE2\x82\xAC \xF4\x8F\xBF\xBF\"}");

    // max_depth counts elements, the wrapper included.
    const std::string three = R"(<arguments><arg name="a"><arg name="b">x</arg></arg></arguments>)";
    CHECK(args(three, 3) == R"({"a":{"b":"x"}})");
    CHECK(parse_xml_arguments(three, 2).error() == error::nesting_too_deep);
    CHECK(parse_xml_arguments("<a/>", 0).error() == error::nesting_too_deep);
    CHECK(args("plain text", 0) == "{}");
}

TEST_CASE("xml arguments: 100,000 nested elements", "[xml][arguments][limits]")
{
    constexpr std::size_t n = 100'000;
    const std::string deep =
        "<arguments>" + repeat(R"(<arg name="a">)", n) + "x" + repeat("</arg>", n) + "</arguments>";
    CHECK(parse_xml_arguments(deep).error() == error::nesting_too_deep);
    const std::string items = repeat("<item>", n) + repeat("</item>", n);
    CHECK(parse_xml_arguments(items).error() == error::nesting_too_deep);
    // With the limit lifted, the parser's own stack is explicit: 100,000 open elements are fine.
    CHECK(args(repeat("<item>", n), n + 1) == "{}");
}

TEST_CASE("xml arguments: 1 MB inputs and never-finished openers parse whole", "[xml][arguments][limits]")
{
    std::string many = "<arguments>";
    constexpr int count = 20'000;
    for (int i = 0; i < count; ++i)
        many += "<arg name=\"k" + std::to_string(i) + "\">value &amp; more text " + std::to_string(i) + "</arg>\n";
    many += "</arguments>";
    REQUIRE(many.size() > 1'000'000);
    const auto flat = parse_xml_arguments(many);
    REQUIRE(flat.has_value());
    CHECK(flat->size() == count);
    CHECK(flat->at("k12345").as_string() == "value & more text 12345");

    const std::string body = repeat("0123456789&lt;", 80'000);
    const auto big = parse_xml_arguments("<arg name=\"big\">" + body + "</arg>");
    REQUIRE(big.has_value());
    CHECK(big->at("big").as_string() == boost::json::string(repeat("0123456789<", 80'000)));

    // Openers that never finish would be rescanned to the end each time by a naive parser.
    for (const std::string_view unit : {"<!--", "<![CDATA[", "<?pi", "<a x=\"", "&#1234567", "<a "}) {
        const std::string junk = repeat(unit, 1'100'000 / unit.size()) + ".";   // "." survives strip()
        const auto r = parse_xml_arguments("<arg name=\"j\">" + junk + "</arg>");
        REQUIRE(r.has_value());
        CHECK(r->at("j").as_string().size() == junk.size());
    }
}

TEST_CASE("xml arguments: mutated inputs never crash and always give valid JSON", "[xml][arguments][fuzz]")
{
    const std::string_view seeds[] = {
        R"(<arguments><arg name="tasks"><item><arg name="t">a</arg>)"
        R"(<arg name="d"><item>1</item></arg></item></arg></arguments>)",
        R"(<arg name='code'><![CDATA[if (a < b && c > d) {}]]></arg><arg name="e">&amp;&#x1F600;&#65;</arg>)",
        R"(<path>/x</path><!-- c --><content>a < b &x <?pi?></content><arg  name = "s"/>)",
    };
    const std::string_view tokens[] = {"<", ">", "&", "/", "\"", "'", "<![CDATA[", "]]>", "<!--", "-->",
                                       "</arg>", "<item>", "&#x", ";", "\xC3", "\xA9", "<arguments>",
                                       std::string_view("\0", 1)};
    std::uint64_t state = 0x9E3779B97F4A7C15ULL;   // fixed seed: failures reproduce
    const auto next = [&](std::uint64_t bound) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state % bound;
    };
    const auto check = [](const std::string& s) {
        const auto r = parse_xml_arguments(s, 4);   // the first seed is 5 deep
        if (r) {
            // Boost.JSON's parser checks UTF-8, so this proves every key and value is valid.
            const std::string json = boost::json::serialize(*r);
            CHECK(boost::json::parse(json) == boost::json::value(*r));
        } else {
            CHECK((r.error() == error::invalid_arguments || r.error() == error::nesting_too_deep));
        }
    };
    for (int round = 0; round < 20'000; ++round) {
        std::string s(seeds[next(std::size(seeds))]);
        for (auto edits = next(6) + 1; edits > 0; --edits) {
            const std::size_t at = next(s.size() + 1);
            switch (next(4)) {
            case 0: s.insert(at, 1, static_cast<char>(next(128))); break;   // lone \xC3/\xA9 break UTF-8
            case 1: if (at < s.size()) s.erase(at, next(8) + 1); break;
            case 2: s.insert(at, tokens[next(std::size(tokens))]); break;
            default: s.insert(at, s.substr(next(s.size() + 1), next(16)));
            }
        }
        check(s);
    }
    // Plain garbage over the whole byte range, biased towards markup characters.
    for (int round = 0; round < 2'000; ++round) {
        std::string s(next(200), '\0');
        for (char& c : s)
            c = next(3) == 0 ? "<>&/;\"'![]-?"[next(13)] : static_cast<char>(next(256));
        check(s);
    }
}

} // namespace test_xml_arguments
