#include "text/json_writer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

// nlohmann's float formatter alone (the header the serializer uses), so the
// digits are the ones dump() printed before: Grisu2 is not always the shortest
// form std::to_chars would give, and a single different digit would break the
// byte-identical output (native vs wasm parity, saved outputs, share links).
#include <nlohmann/detail/conversions/to_chars.hpp>

namespace gpuplan {
namespace {

// Length of the UTF-8 sequence starting at s[i] (RFC 3629: no overlong forms,
// no surrogates, at most U+10FFFF), or 0 when it is not valid there. The same
// sequences nlohmann's decoder accepts.
size_t utf8_length(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  const unsigned b0 = byte(0);
  const auto cont = [&](size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) {
    const unsigned b = byte(k);
    return b >= lo && b <= hi;
  };
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? 2 : 0;
  if (b0 == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
  if ((b0 >= 0xE1 && b0 <= 0xEC) || b0 == 0xEE || b0 == 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (b0 == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;
  if (b0 == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xF1 && b0 <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

}  // namespace

JsonWriter::JsonWriter() { grow(4096); }

void JsonWriter::grow(size_t n) {
  cap_ = std::max(2 * cap_, len_ + n);
  out_.resize(cap_);
  buf_ = out_.data();
}

void JsonWriter::put(const char* s, size_t n) {
  if (n == 0) return;  // s may be null for an empty string_view
  if (cap_ - len_ < n) grow(n);
  std::memcpy(buf_ + len_, s, n);
  len_ += n;
}

void JsonWriter::separate() {
  if (need_comma_) put(',');
  need_comma_ = true;
}

void JsonWriter::begin_object() {
  separate();
  put('{');
  need_comma_ = false;
  last_keys_.emplace_back();
}

void JsonWriter::end_object() {
  put('}');
  need_comma_ = true;
  last_keys_.pop_back();
}

void JsonWriter::begin_array() {
  separate();
  put('[');
  need_comma_ = false;
  last_keys_.emplace_back();
}

void JsonWriter::end_array() {
  put(']');
  need_comma_ = true;
  last_keys_.pop_back();
}

JsonWriter& JsonWriter::key(std::string_view name) {
  std::string_view& last = last_keys_.back();
  if (!last.empty() && name <= last)
    fail("response key \"" + std::string(name) + "\" written after \"" + std::string(last) +
         "\": keys must be in ascending order");
  last = name;
  value(name);
  put(':');
  need_comma_ = false;
  return *this;
}

void JsonWriter::value(std::string_view s) {
  separate();
  put('"');
  const char* const data = s.data();
  const size_t size = s.size();
  size_t plain = 0;  // start of the run of bytes copied as they are
  for (size_t i = 0; i < size;) {
    const auto c = static_cast<unsigned char>(data[i]);
    if (c >= 0x80) {
      const size_t n = utf8_length(s, i);
      if (n == 0) fail("invalid UTF-8 in a response string");
      i += n == 0 ? 1 : n;
      continue;
    }
    if (c >= 0x20 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    put(data + plain, i - plain);
    switch (c) {
      case '"': put("\\\"", 2); break;
      case '\\': put("\\\\", 2); break;
      case '\b': put("\\b", 2); break;
      case '\f': put("\\f", 2); break;
      case '\n': put("\\n", 2); break;
      case '\r': put("\\r", 2); break;
      case '\t': put("\\t", 2); break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        const char escaped[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
        put(escaped, sizeof escaped);
      }
    }
    plain = ++i;
  }
  put(data + plain, size - plain);
  put('"');
}

void JsonWriter::value(bool b) {
  separate();
  if (b)
    put("true", 4);
  else
    put("false", 5);
}

void JsonWriter::value(double x) {
  if (!std::isfinite(x)) {
    // The key names the figure (the writer is in an object's member, or in
    // an array, which has none).
    const std::string_view key = last_keys_.empty() ? std::string_view() : last_keys_.back();
    fail(key.empty() ? std::string("non-finite number in the response") : "non-finite value in " + std::string(key));
    null();
    return;
  }
  separate();
  std::array<char, 64> buffer;  // the size nlohmann's serializer uses
  const char* end = nlohmann::detail::to_chars(buffer.data(), buffer.data() + buffer.size(), x);
  put(buffer.data(), static_cast<size_t>(end - buffer.data()));
}

void JsonWriter::value(int64_t i) {
  separate();
  std::array<char, 24> buffer;
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), i);
  put(buffer.data(), static_cast<size_t>(result.ptr - buffer.data()));
}

void JsonWriter::value(uint64_t i) {
  separate();
  std::array<char, 24> buffer;
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), i);
  put(buffer.data(), static_cast<size_t>(result.ptr - buffer.data()));
}

void JsonWriter::value(Bytes b) {
  if (!std::isfinite(b.count)) return value(b.count);
  value(static_cast<int64_t>(std::llround(std::min(b.count, 9.2233720368547748e18))));
}

void JsonWriter::null() {
  separate();
  put("null", 4);
}

}  // namespace gpuplan
