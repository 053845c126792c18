// A streaming JSON writer into one std::string: the response is written once,
// front to back, instead of being built as an nlohmann::json tree (a std::map
// per object, an allocation per value) and then serialised. It writes exactly
// the text nlohmann::json::dump() writes for the same values, so the output
// stayed byte-identical when the response moved to it (docs/performance-log.md):
//
// - object keys must come in the order nlohmann's std::map keeps them
//   (byte-wise ascending); key() checks it, so a misordered key is a failing
//   test, never silently different output;
// - doubles through nlohmann's own Grisu2 formatter (detail::to_chars: shortest
//   round-trip digits, "1.0" for integral values, exponent form outside
//   1e-5..1e15); integers as plain decimals; a non-finite double is refused
//   (the response's "no NaN/Infinity ever reaches output" rule);
// - strings escaped as dump() does with ensure_ascii = false: \" \\ \b \f \n
//   \r \t, other bytes below 0x20 as \u00xx, UTF-8 passed through after a
//   validity check (dump() throws on invalid UTF-8 too).
//
// A broken rule is a bug in the caller, not bad input. The writer does not
// throw (it is compiled without exceptions: core/CMakeLists.txt): it records
// the first failure, keeps writing harmlessly (a refused number as null, an
// invalid byte as it is), and the caller checks ok() before using the text;
// the API boundary turns failure() into its "internal" error (exit 3), the
// same reply a throw gave before.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpuplan {

// A byte count, written as an integer: a request at the edge of the allowed
// ranges (a 16M-token sequence of a 16M-word vocabulary) can ask for more
// than an int64 holds, so it saturates at 2^63 - 1024 (more than any
// machine) instead of converting out of range (llround's result is
// unspecified there).
struct Bytes {
  double count;
};

class JsonWriter {
 public:
  JsonWriter();

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();

  // The next member's key; keys of one object must be strictly ascending.
  JsonWriter& key(std::string_view name);

  void value(std::string_view s);
  void value(const char* s) { value(std::string_view(s)); }
  void value(const std::string& s) { value(std::string_view(s)); }
  void value(bool b);
  // A non-finite number is written as null and recorded as the failure,
  // naming the member's key ("non-finite value in hours").
  void value(double x);
  void value(Bytes b);
  void value(int64_t i);
  void value(uint64_t i);
  void null();
  template <typename Int>
    requires(std::is_integral_v<Int> && !std::is_same_v<Int, bool>)
  void value(Int i) {
    value(static_cast<int64_t>(i));
  }

  // key(name) then value(v): the common case in one call.
  template <typename T>
  void member(std::string_view name, const T& v) {
    key(name);
    value(v);
  }


  // Whether every rule held; if not, the first failure, in words.
  bool ok() const { return failure_.empty(); }
  const std::string& failure() const { return failure_; }
  void fail(std::string what) {
    if (failure_.empty()) failure_ = std::move(what);
  }

  std::string take() {
    out_.resize(len_);
    return std::move(out_);
  }

 private:
  void separate();
  // Bytes go into out_'s buffer through a raw pointer: at -Oz (the wasm
  // preset) clang calls std::string's operator[], push_back and size() out of
  // line, which made them the top of the wasm profile.
  void grow(size_t n);
  void put(char c) {
    if (len_ == cap_) grow(1);
    buf_[len_++] = c;
  }
  void put(const char* s, size_t n);

  std::string out_;
  char* buf_ = nullptr;
  size_t len_ = 0, cap_ = 0;
  bool need_comma_ = false;
  // The last key of each open object (empty at the start, and for arrays), to
  // check the order nlohmann::json would have sorted them in.
  std::vector<std::string_view> last_keys_;
  std::string failure_;
};

}  // namespace gpuplan
