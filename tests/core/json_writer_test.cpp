// The streaming response writer must print exactly what nlohmann::json::dump()
// prints for the same values (the response text was produced by dump() before,
// and saved outputs, share links and native/wasm parity rely on the bytes).
// nlohmann is the independent reference here: every check compares against it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include "gpuplan/catalog.h"
#include "text/json_writer.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

std::string written(double x) {
  JsonWriter w;
  w.value(x);
  return w.take();
}

TEST(JsonWriter, DoublesAsNlohmannDumpsThem) {
  const double cases[] = {0.0, -0.0, 1.0, -1.0, 0.1, 0.3, 1.5, 100.0, 1e15, 1e16, 123456789012345678.0, 1e-4,
                          1e-5, 1.0 / 3.0, 2.0 / 3.0, 97.70375082551972, 5e-324, 1.7976931348623157e308,
                          -2.5e-7, 4.0e21, 0.30000000000000004, 1e100, 65536.0, 9.2233720368547748e18};
  for (double x : cases) EXPECT_EQ(written(x), nlohmann::json(x).dump()) << x;
  // Random bit patterns over the whole finite range, and random "money" values.
  std::mt19937_64 rng(20261130);
  std::uniform_real_distribution<double> money(0, 100000);
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = rng();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (std::isfinite(x)) {
      EXPECT_EQ(written(x), nlohmann::json(x).dump()) << bits;
    }
    const double m = std::round(money(rng) * 100) / 100;
    EXPECT_EQ(written(m), nlohmann::json(m).dump()) << m;
  }
}

TEST(JsonWriter, IntegersAndBooleans) {
  const int64_t cases[] = {0, 1, -1, 42, 65536, 1 << 24, std::numeric_limits<int64_t>::max(),
                           std::numeric_limits<int64_t>::min(), 414992331407};
  for (int64_t i : cases) {
    JsonWriter w;
    w.value(i);
    EXPECT_EQ(w.take(), nlohmann::json(i).dump());
  }
  JsonWriter w;
  w.begin_array();
  w.value(true);
  w.value(false);
  w.value(7);
  w.end_array();
  EXPECT_EQ(w.take(), "[true,false,7]");
}

TEST(JsonWriter, StringsEscapedAsNlohmannDumpsThem) {
  std::string all_ascii;
  for (int c = 1; c < 0x80; ++c) all_ascii += char(c);
  const std::string cases[] = {"", "plain", "quote \" and backslash \\", "\b\f\n\r\t", std::string("nul\0in", 6),
                               all_ascii, "中文 显存 😀 ½ é", "\x7f", "mix\x01中\x1f\"end"};
  for (const auto& s : cases) {
    JsonWriter w;
    w.value(s);
    EXPECT_EQ(w.take(), nlohmann::json(s).dump()) << s;
  }
}

// The writer throws nothing (it is compiled without exceptions): a broken rule
// is recorded as its first failure, which the API turns into the "internal"
// error, and a document that broke none stays ok().
TEST(JsonWriter, InvalidUtf8IsAFailure) {
  // dump() refuses these too (type_error 316).
  for (const std::string bad : {"\xff", "\xc0\x80", "\xed\xa0\x80", "\xe4\xb8", "\xf4\x90\x80\x80", "a\x80"}) {
    JsonWriter w;
    w.value(bad);
    EXPECT_FALSE(w.ok()) << bad;
    EXPECT_EQ(w.failure(), "invalid UTF-8 in a response string") << bad;
    // nlohmann refuses it too: its replacing handler (the suite, like the core,
    // is built with JSON_NOEXCEPTION, so its throwing one would abort) writes
    // U+FFFD where the byte was.
    EXPECT_NE(nlohmann::json(bad).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).find("\xef\xbf\xbd"),
              std::string::npos) << bad;
  }
  JsonWriter w;
  w.value("中文 😀 \xf4\x8f\xbf\xbf");  // the largest code point, U+10FFFF, is valid
  EXPECT_TRUE(w.ok()) << w.failure();
}

TEST(JsonWriter, NonFiniteIsAFailureAndNull) {
  for (double x : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                   -std::numeric_limits<double>::infinity()}) {
    JsonWriter w;
    w.begin_array();
    w.value(x);
    w.value(1.5);  // writing goes on harmlessly after a failure
    w.end_array();
    EXPECT_FALSE(w.ok()) << x;
    EXPECT_EQ(w.failure(), "non-finite number in the response") << x;
    EXPECT_EQ(w.take(), "[null,1.5]") << x;
  }
  // In an object the failure names the member's key; the first one is kept.
  JsonWriter w;
  w.begin_object();
  w.member("a", 2.5);
  EXPECT_TRUE(w.ok());
  w.member("hours", std::numeric_limits<double>::quiet_NaN());
  w.member("total_cost", std::numeric_limits<double>::infinity());
  w.end_object();
  EXPECT_FALSE(w.ok());
  EXPECT_EQ(w.failure(), "non-finite value in hours");
  EXPECT_EQ(w.take(), R"({"a":2.5,"hours":null,"total_cost":null})");
}

TEST(JsonWriter, BytesRoundAndSaturate) {
  auto written = [](double bytes) {
    JsonWriter w;
    w.begin_object();
    w.member("b", Bytes{bytes});
    w.end_object();
    EXPECT_TRUE(w.ok()) << bytes;
    return w.take();
  };
  EXPECT_EQ(written(1536.4), R"({"b":1536})");
  EXPECT_EQ(written(1536.5), R"({"b":1537})");
  EXPECT_EQ(written(25769803776.0), R"({"b":25769803776})");
  // Beyond int64: 2^63 - 1024 (the largest double below 2^63), not a wrapped or negative count.
  EXPECT_EQ(written(1e20), R"({"b":9223372036854774784})");
  EXPECT_EQ(written(9.2233720368547758e18), R"({"b":9223372036854774784})");
  JsonWriter w;
  w.begin_object();
  w.member("memory", Bytes{std::numeric_limits<double>::infinity()});
  w.end_object();
  EXPECT_EQ(w.failure(), "non-finite value in memory");
  EXPECT_EQ(w.take(), R"({"memory":null})");
}

TEST(JsonWriter, NestedStructureAndKeyOrder) {
  JsonWriter w;
  w.begin_object();
  w.key("a").begin_array();
  w.begin_object();
  w.member("x", 1);
  w.member("y", 2.5);
  w.end_object();
  w.begin_array();
  w.end_array();
  w.end_array();
  w.key("b").begin_object();
  w.end_object();
  w.member("b_c", "s");
  w.end_object();
  const std::string text = w.take();
  EXPECT_EQ(text, R"({"a":[{"x":1,"y":2.5},[]],"b":{},"b_c":"s"})");
  EXPECT_EQ(nlohmann::json::parse(text).dump(), text);
}

TEST(JsonWriter, MisorderedOrRepeatedKeyIsAFailure) {
  JsonWriter w;
  w.begin_object();
  w.member("hours_low", 1);
  EXPECT_TRUE(w.ok());
  w.key("hours_high");  // nlohmann sorts "hours_high" first
  EXPECT_FALSE(w.ok());
  EXPECT_EQ(w.failure(), "response key \"hours_high\" written after \"hours_low\": keys must be in ascending order");
  JsonWriter v;
  v.begin_object();
  v.member("id", 1);
  v.key("id");
  EXPECT_EQ(v.failure(), "response key \"id\" written after \"id\": keys must be in ascending order");
  // Keys are checked per object: an inner object starts afresh, the outer one resumes after it.
  JsonWriter n;
  n.begin_object();
  n.key("b").begin_object();
  n.member("a", 1);
  n.end_object();
  n.member("c", 2);
  n.end_object();
  EXPECT_TRUE(n.ok()) << n.failure();
}

// Every response the project ships as an example, and a few that reach the
// optional sections (OOM doctor patches, science, spot, group, rent vs buy):
// re-serialising the text through nlohmann gives the same bytes, so the keys
// are in nlohmann's order and every value prints as dump() prints it.
void expect_round_trip(const std::string& request, const std::string& name) {
  const JsonReply reply = plan_json(request);
  ASSERT_NE(reply.exit_code, 3) << name << ": " << reply.json;
  EXPECT_EQ(nlohmann::json::parse(reply.json).dump(), reply.json) << name;
}

TEST(ResponseJson, EveryExampleRequestRoundTripsThroughNlohmann) {
  int seen = 0;
  for (const char* folder : {"tests/data/requests", "fuzz/seeds/request"}) {
    for (const auto& entry : std::filesystem::directory_iterator(std::string(GPUPLAN_SOURCE_DIR) + "/" + folder)) {
      if (entry.path().extension() != ".json") continue;
      expect_round_trip(read_file(std::string(folder) + "/" + entry.path().filename().string()),
                        entry.path().string());
      ++seen;
    }
  }
  EXPECT_GE(seen, 20);
}

TEST(ResponseJson, OptionalSectionsRoundTripThroughNlohmann) {
  const char* requests[] = {
      R"({"model":{"preset":"llama-3.1-8b"},"workload":{"mode":"train","method":"lora","micro_batch":4,"seq_len":2048},
          "data":{"samples":50000,"epochs":3},"stages":[{"stage":"debug","runs":10},{"stage":"formal","runs":12},
          {"stage":"revision","runs":4}],"budget":{"amount":5000,"currency":"CNY"},
          "prefs":{"deadline_days":30,"dataset_gb":20,"group_size":4}})",
      R"({"locale":"en","model":{"preset":"llama-3.1-8b"},"workload":{"mode":"train","method":"full","micro_batch":8,
          "seq_len":4096},"data":{"samples":50000,"epochs":3},"stages":[{"stage":"debug","runs":2},
          {"stage":"formal","runs":3}],"budget":{"amount":50,"currency":"CNY"},"prefs":{"deadline_days":1}})",
      R"({"model":{"preset":"llama-3.1-8b"},"workload":{"mode":"train","method":"full","micro_batch":8,"seq_len":4096,
          "precision":"fp32"},"hardware":{"gpu":"rtx-3090","count":1}})",
      R"({"workload":{"mode":"science"},"science":{"kind":"md","baseline":{"gpu":"rtx-3090","rate":100,"unit":"ns/day"},
          "job":500,"memory_gb":2}})",
      R"({"model":{"preset":"llama-3.1-8b"},"hardware":{"gpu":"a\"b\\c\n\t\u0001中😀","count":1}})",
  };
  for (const char* r : requests) expect_round_trip(r, r);
}

// A figure that is not finite never reaches the output: plan_json gives the
// "internal" error naming it, exit 3, the reply a throw from the writer gave
// before it stopped throwing. Forced here through plan_json's catalog
// parameter: a card whose FP32 peak is NaN after validation (which would
// refuse it), asked for in bf16, where the FP32 peak is only reported.
TEST(ResponseJson, NonFiniteFigureIsTheInternalErrorThroughPlanJson) {
  nlohmann::json c = minimal_catalog();
  c["gpus"][0]["tflops"]["bf16_tensor"] = 100;
  Result<Catalog> catalog = parse_catalog(c.dump());
  ASSERT_TRUE(catalog.ok()) << catalog.error().message;
  const std::string request =
      R"({"model":{"preset":"m1"},"workload":{"mode":"train","method":"lora","precision":"bf16-mixed","micro_batch":1,"seq_len":64},"hardware":{"gpu":"g1","count":1}})";
  const JsonReply sound = plan_json(request, catalog.value());
  ASSERT_EQ(sound.exit_code, 0) << sound.json;
  catalog.value().gpus[0].tflops.fp32 = std::numeric_limits<double>::quiet_NaN();
  const JsonReply reply = plan_json(request, catalog.value());
  EXPECT_EQ(reply.exit_code, 3);
  EXPECT_EQ(reply.json,
            R"({"error":{"code":"internal","message":"Internal error: non-finite value in fp32_peak_tflops","path":""}})");
}

// The OOM doctor's byte counts saturate as the response's do: a request at the
// edge of the allowed ranges (16M-token sequences of a 16M-word vocabulary)
// needs more than an int64 holds, which llround alone turned negative.
TEST(ResponseJson, OomDoctorByteCountsSaturateLikeTheResponse) {
  const nlohmann::json r = run(nlohmann::json::parse(
      R"({"model":{"params":1e14,"layers":2,"hidden":4096,"heads":32,"vocab":16000000},
          "workload":{"mode":"train","method":"full","micro_batch":4096,"seq_len":16000000},
          "hardware":{"gpu":"rtx-3090","count":1}})"));
  ASSERT_TRUE(r.contains("oom_doctor")) << r.dump();
  EXPECT_EQ(r["memory"]["per_gpu"]["total_bytes"].get<int64_t>(), 9223372036854774784);
  EXPECT_EQ(r["oom_doctor"]["total_bytes"].get<int64_t>(), 9223372036854774784);
  EXPECT_GT(r["oom_doctor"]["capacity_bytes"].get<int64_t>(), 0);
}

}  // namespace
}  // namespace gpuplan::test
