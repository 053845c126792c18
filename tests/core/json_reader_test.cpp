// The request/catalog reader's two JSON steps that stand in for nlohmann's own
// calls (core/src/read/json_reader.cpp, to keep the page's wasm small): parsing
// through nlohmann's SAX DOM builder must give json::parse's document and, on
// bad input, the byte json::parse stops at; describe() must show a value
// exactly as dump() prints it. nlohmann is the reference in every check.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>

#include "read/json_reader.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

constexpr size_t kMaxBytes = 1 << 24;
constexpr int kMaxDepth = 64;

// The first error the reads in `read` record (json_reader.h), if any.
template <class Read>
std::optional<Error> first_error(Read read) {
  ReadErrors errors;
  read();
  if (errors.ok()) return std::nullopt;
  return errors.first();
}

// nlohmann's own DOM builder told not to throw (the suite, like the core, is
// built with JSON_NOEXCEPTION), keeping the byte its parser stops at.
class StopByte : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
  using Base = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;

 public:
  explicit StopByte(nlohmann::json& result) : Base(result, false) {}
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& ex) {
    byte = position;
    return Base::parse_error(position, token, ex);
  }
  size_t byte = SIZE_MAX;
};

// The byte nlohmann's parser stops at on bad input.
size_t nlohmann_error_byte(std::string_view text) {
  nlohmann::json parsed;
  StopByte builder(parsed);
  nlohmann::json::sax_parse(text.begin(), text.end(), &builder);
  return builder.byte;
}

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
  ReadErrors errors;
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
  EXPECT_TRUE(errors.ok()) << errors.first().message;
}

TEST(JsonReader, SyntaxErrorNamesTheByteNlohmannNames) {
  const char* bad[] = {"", "{", "[1,2", "{\"a\":tru}", "{\"a\":1}}", "{\"a\":\"\\ud800\"}", "[01]",
                       "{\"a\" 1}", "\"\xff\xfe\"", "[1,]", "nul", "{\"a\":1,}", "  \n  x"};
  for (const char* text : bad) {
    EXPECT_TRUE(nlohmann::json::parse(text, nullptr, false).is_discarded()) << "nlohmann accepted " << text;
    const size_t byte = nlohmann_error_byte(text);
    const auto e = first_error([&] { (void)parse_json_text(text, Locale::en, kMaxBytes, kMaxDepth); });
    ASSERT_TRUE(e) << "accepted " << text;
    EXPECT_EQ(e->code, "invalid_json") << text;
    EXPECT_NE(e->message.find("byte " + std::to_string(byte)), std::string::npos) << text << ": " << e->message;
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
    const char* read = text;  // clang 14 captures no structured binding
    const auto e = first_error([read] { (void)parse_json_text(read, Locale::en, kMaxBytes, kMaxDepth); });
    ASSERT_TRUE(e) << "accepted " << text;
    EXPECT_EQ(e->code, "out_of_range") << text;
    EXPECT_EQ(e->path, path) << text;
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

// Strict views (the request): a member not in the table fails when the view is
// made, with the closest known name; a read of a name not in the table is a
// parser bug, answered as `internal` (docs/api.md, "Strict input").
TEST(JsonReader, StrictViewRejectsUnknownMembersAndUndeclaredReads) {
  constexpr std::string_view fields[] = {"micro_batch", "seq_len"};
  const nlohmann::json doc = nlohmann::json::parse(R"({"micro_bach":4})");
  if (const auto e = first_error([&] { Reader r(doc, "workload", Locale::en, fields); })) {
    EXPECT_EQ(e->code, "unknown_field");
    EXPECT_EQ(e->path, "workload.micro_bach");
    // The name as written and the closest known one, in the student's words; the path is the error's own.
    EXPECT_NE(e->message.find("“micro_bach” in the workload settings"), std::string::npos) << e->message;
    EXPECT_NE(e->message.find("did you mean “micro_batch” (the micro-batch per GPU)?"), std::string::npos) << e->message;
    EXPECT_EQ(e->message.find("workload."), std::string::npos) << e->message;
  } else {
    ADD_FAILURE() << "accepted micro_bach";
  }
  const nlohmann::json ok = nlohmann::json::parse(R"({"seq_len":8,"other":null})");
  if (const auto e = first_error([&] { Reader r(ok, "workload", Locale::zh_CN, fields); })) {
    EXPECT_EQ(e->code, "unknown_field");
    EXPECT_NE(e->message.find("这里可用的字段：micro_batch, seq_len"), std::string::npos) << e->message;
  } else {
    ADD_FAILURE() << "a null member is still a member: its name must be known";
  }
  const nlohmann::json good = nlohmann::json::parse(R"({"seq_len":8,"micro_batch":null})");
  {
    ReadErrors errors;
    Reader r(good, "workload", Locale::en, fields);
    EXPECT_EQ(r.integer("seq_len", 1, 100), 8);
    EXPECT_EQ(r.integer("micro_batch", 1, 100), std::nullopt);  // null: the default
    EXPECT_TRUE(errors.ok());
    EXPECT_EQ(r.integer("image_size", 1, 100), std::nullopt);
    ASSERT_FALSE(errors.ok()) << "read a name its table lacks";
    EXPECT_EQ(errors.first().code, "internal");
    // Once the parse has failed, nothing more is read: the field it has is absent.
    EXPECT_EQ(r.integer("seq_len", 1, 100), std::nullopt);
  }
  // A strict view's child without a table holds no known member.
  const nlohmann::json nested = nlohmann::json::parse(R"({"seq_len":{"x":1}})");
  const auto child = first_error([&] {
    Reader parent(nested, "", Locale::en, fields);
    (void)parent.object("seq_len");
  });
  ASSERT_TRUE(child);
  EXPECT_EQ(child->code, "unknown_field");
  // Lenient views (the catalog) stay as they were.
  ReadErrors errors;
  Reader lenient(doc, "w", Locale::en);
  EXPECT_EQ(lenient.integer("micro_bach", 1, 10), 4);
  EXPECT_TRUE(errors.ok());
}

TEST(JsonReader, ClosestNameCatchesTyposOnly) {
  constexpr std::string_view known[] = {"micro_batch", "seq_len", "grad_checkpointing", "gpus", "precision", "epochs"};
  EXPECT_EQ(closest_name("micro_bach", known), "micro_batch");
  EXPECT_EQ(closest_name("micro-batch", known), "micro_batch");
  EXPECT_EQ(closest_name("Micro_Batch", known), "micro_batch");
  EXPECT_EQ(closest_name("seqlen", known), "seq_len");
  EXPECT_EQ(closest_name("seq_lne", known), "seq_len");
  EXPECT_EQ(closest_name("gradient_checkpointing", known), "grad_checkpointing");
  EXPECT_EQ(closest_name("gpu", known), "gpus");
  EXPECT_EQ(closest_name("batch", known), "micro_batch");
  EXPECT_EQ(closest_name("precison", known), "precision");
  EXPECT_EQ(closest_name("epoch", known), "epochs");
  EXPECT_EQ(closest_name("learning_rate", known), "");
  EXPECT_EQ(closest_name("x", known), "");
  EXPECT_EQ(closest_name(std::string(100000, 'a'), known), "");
}

// The locale from the raw text: what errors before parsing speak.
TEST(JsonReader, LocaleIsReadFromTheRawText) {
  EXPECT_EQ(sniff_locale(R"({"locale":"en","model":)"), Locale::en);  // cut off
  EXPECT_EQ(sniff_locale(R"({"model":{"preset":"x"}, "locale" : "en-GB"})"), Locale::en);
  EXPECT_EQ(sniff_locale(R"({"locale":"zh-CN"})"), Locale::zh_CN);
  EXPECT_EQ(sniff_locale(R"({"a":{"locale":"en"}})"), Locale::zh_CN);    // not the top level
  EXPECT_EQ(sniff_locale(R"({"a":"locale","b":"en"})"), Locale::zh_CN);  // a value, not a key
  EXPECT_EQ(sniff_locale(R"({"a":"\"locale\":\"en\""})"), Locale::zh_CN);
  EXPECT_EQ(sniff_locale(R"(["locale","en"])"), Locale::zh_CN);
  EXPECT_EQ(sniff_locale(R"({"x":[[[[[[1]]]]]],"locale":"en"})"), Locale::en);
  EXPECT_EQ(sniff_locale(R"({"locale":"en","locale":"zh-CN"})"), Locale::zh_CN);  // the last, as parsed
  EXPECT_EQ(sniff_locale(""), Locale::zh_CN);
  EXPECT_EQ(sniff_locale("{\"locale\""), Locale::zh_CN);
}

TEST(JsonReader, NothingAfterTheValueNotEvenAfterANul) {
  // nlohmann's lexer takes a NUL for the end of its input: what follows would be ignored.
  const std::string text = std::string("{\"a\":1}") + '\0' + "{\"ignored\": true}";
  for (Locale l : {Locale::en, Locale::zh_CN}) {
    const auto e = first_error([&] { (void)parse_json_text(text, l, kMaxBytes, kMaxDepth); });
    ASSERT_TRUE(e) << "accepted a text with a NUL";
    EXPECT_EQ(e->code, "invalid_json");
    EXPECT_NE(e->message.find(l == Locale::en ? "at byte 7" : "第 7 字节处出错"), std::string::npos) << e->message;
  }
}

TEST(JsonReader, InvalidJsonIsWhollyInTheMessagesLanguage) {
  const auto e = first_error([] { (void)parse_json_text("{\"a\": ", Locale::zh_CN, kMaxBytes, kMaxDepth); });
  ASSERT_TRUE(e);
  std::string m = e->message;
  m.erase(m.find("JSON"), 4);
  for (char c : m) EXPECT_FALSE((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) << e->message;
}

TEST(JsonReader, AHugeNumberIsCutInTheMessage) {
  const std::string digits(1 << 20, '9');
  const auto e = first_error([&] { (void)parse_json_text("{\"a\":" + digits + "}", Locale::en, kMaxBytes, kMaxDepth); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, "out_of_range");
  EXPECT_LT(e->message.size(), 200u) << e->message.substr(0, 200);
}

TEST(JsonReader, LocaleNamesInAnyCase) {
  Locale l = Locale::zh_CN;
  for (const char* en : {"en", "EN", "en-US", "en_US", "En-gb"}) {
    EXPECT_TRUE(locale_named(en, l)) << en;
    EXPECT_EQ(l, Locale::en) << en;
  }
  for (const char* zh : {"zh", "ZH", "zh-CN", "zh_Hans"}) {
    EXPECT_TRUE(locale_named(zh, l)) << zh;
    EXPECT_EQ(l, Locale::zh_CN) << zh;
  }
  for (const char* none : {"", "e", "english", "fr", "enx", "zhCN"}) EXPECT_FALSE(locale_named(none, l)) << none;
  EXPECT_EQ(sniff_locale("{\"locale\":\"EN\"}"), Locale::en);
}

}  // namespace
}  // namespace gpuplan::test
