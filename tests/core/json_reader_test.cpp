// The request/catalog reader's two JSON steps that stand in for nlohmann's own
// calls (core/src/read/json_reader.cpp, to keep the page's wasm small): parsing
// through nlohmann's SAX DOM builder must give json::parse's document and, on
// bad input, the byte json::parse's exception names; describe() must show a
// value exactly as dump() prints it. nlohmann is the reference in every check.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <utility>

#include "json_reader.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

constexpr size_t kMaxBytes = 1 << 24;
constexpr int kMaxDepth = 64;

// describe() cuts at 60 bytes (on a UTF-8 boundary) and adds "…"; below that
// it is dump() itself.
std::string dumped_and_cut(const nlohmann::json& v) {
  std::string text = v.dump();
  if (text.size() <= 60) return text;
  size_t cut = 60;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "…";
}

TEST(JsonReader, ParsesWhatNlohmannParses) {
  const char* docs[] = {
      R"({"a":1,"b":[true,false,null],"c":{"d":-2.5e-7,"e":"x\u00e9\n"}})",
      R"([1, 2.0, -0, -0.0, 1e20, 12345678901234567890, -9223372036854775808])",
      R"("just a string")",
      R"(  {"z":{}, "y":[], "":""}  )",
      R"(3.141592653589793)",
  };
  for (const char* doc : docs) {
    const nlohmann::json ours = parse_json_text(doc, Locale::en, kMaxBytes, kMaxDepth);
    const nlohmann::json theirs = nlohmann::json::parse(doc);
    EXPECT_EQ(ours, theirs) << doc;
    EXPECT_EQ(ours.dump(), theirs.dump()) << doc;  // same number kinds, not only equal values
  }
  // Every example request and the catalog.
  for (const auto& entry : std::filesystem::directory_iterator(std::string(GPUPLAN_SOURCE_DIR) + "/tests/data/requests")) {
    const std::string text = read_file("tests/data/requests/" + entry.path().filename().string());
    nlohmann::json theirs = nlohmann::json::parse(text, nullptr, false);
    if (theirs.is_discarded()) continue;
    EXPECT_EQ(parse_json_text(text, Locale::en, kMaxBytes, kMaxDepth).dump(), theirs.dump()) << entry.path();
  }
}

TEST(JsonReader, SyntaxErrorNamesTheByteNlohmannNames) {
  const char* bad[] = {"", "{", "[1,2", "{\"a\":tru}", "{\"a\":1}}", "{\"a\":\"\\ud800\"}", "[01]",
                       "{\"a\" 1}", "\"\xff\xfe\"", "[1,]", "nul", "{\"a\":1,}", "  \n  x"};
  for (const char* text : bad) {
    size_t byte = 0;
    try {
      const nlohmann::json accepted = nlohmann::json::parse(text);
      ADD_FAILURE() << "nlohmann accepted " << text;
    } catch (const nlohmann::json::parse_error& e) {
      byte = e.byte;
    }
    try {
      (void)parse_json_text(text, Locale::en, kMaxBytes, kMaxDepth);
      ADD_FAILURE() << "accepted " << text;
    } catch (const InputError& e) {
      EXPECT_EQ(e.error.code, "invalid_json") << text;
      EXPECT_NE(e.error.message.find("byte " + std::to_string(byte)), std::string::npos)
          << text << ": " << e.error.message;
    }
  }
}

TEST(JsonReader, NumberTooLargeForADoubleIsOutOfRangeAtItsPath) {
  // Not a syntax error: nlohmann's lexer reports it as out_of_range 406; the
  // reader answers like any out-of-range field, with the path it was read at.
  const std::pair<const char*, const char*> cases[] = {
      {"[1e400]", "[0]"},
      {R"({"a":{"b":[0,-1e400]}})", "a.b[1]"},
      {R"({"a":[{"x":1},[true,"s"],{"y":1e999}]})", "a[2].y"},
      {R"({"a":1,"b":[[],[null,1e400]]})", "b[1][1]"},
  };
  for (const auto& [text, path] : cases) {
    try {
      (void)parse_json_text(text, Locale::en, kMaxBytes, kMaxDepth);
      ADD_FAILURE() << "accepted " << text;
    } catch (const InputError& e) {
      EXPECT_EQ(e.error.code, "out_of_range") << text;
      EXPECT_EQ(e.error.path, path) << text;
    }
  }
}

TEST(JsonReader, DescribeShowsWhatDumpPrints) {
  const char* docs[] = {
      R"(null)", R"(true)", R"(false)", R"(0)", R"(-0.0)", R"(1.0)", R"(-17)", R"(12345678901234567890)",
      R"(-9223372036854775808)", R"(1e20)", R"(1e-9)", R"(0.1)", R"(2.5e-7)", R"("")",
      R"("quote \" backslash \\ controls \u0001\u001f\b\f\n\r\t é 中文 😀")",
      R"([])", R"({})", R"([1,[2,[3,{"b":1,"a":[null]}]]])",
      R"({"z":1,"a":12345678901234567890,"m":-9223372036854775808,"f":1.5,"g":1e20,"h":1e-9})",
      R"({"":0,"A":1,"a":2,"aa":3,"é":4,"~":5})",
      R"("a long string of sixty or more bytes that describe() must cut at sixty ...")",
      R"("中文中文中文中文中文中文中文中文中文中文中文中文中文中文中文中文中文中文中文中文")",
  };
  for (const char* doc : docs) {
    const nlohmann::json v = nlohmann::json::parse(doc);
    EXPECT_EQ(describe(v), dumped_and_cut(v)) << doc;
  }
  // Random doubles over the finite range, as values and inside containers.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 5000; ++i) {
    const uint64_t bits = rng();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (!std::isfinite(x)) continue;
    const nlohmann::json v = {{"k", x}, {"a", {x, -x}}};
    EXPECT_EQ(describe(v), dumped_and_cut(v)) << bits;
  }
}

}  // namespace
}  // namespace gpuplan::test
