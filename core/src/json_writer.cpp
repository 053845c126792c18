#include "json_writer.h"

#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>

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

JsonWriter::JsonWriter() { out_.reserve(4096); }

void JsonWriter::separate() {
  if (need_comma_) out_ += ',';
  need_comma_ = true;
}

void JsonWriter::begin_object() {
  separate();
  out_ += '{';
  need_comma_ = false;
  last_keys_.emplace_back();
}

void JsonWriter::end_object() {
  out_ += '}';
  need_comma_ = true;
  last_keys_.pop_back();
}

void JsonWriter::begin_array() {
  separate();
  out_ += '[';
  need_comma_ = false;
  last_keys_.emplace_back();
}

void JsonWriter::end_array() {
  out_ += ']';
  need_comma_ = true;
  last_keys_.pop_back();
}

JsonWriter& JsonWriter::key(std::string_view name) {
  std::string_view& last = last_keys_.back();
  if (!last.empty() && name <= last)
    throw std::logic_error("response key \"" + std::string(name) + "\" written after \"" + std::string(last) +
                           "\": keys must be in ascending order");
  last = name;
  value(name);
  out_ += ':';
  need_comma_ = false;
  return *this;
}

void JsonWriter::value(std::string_view s) {
  separate();
  out_ += '"';
  size_t plain = 0;  // start of the run of bytes copied as they are
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const size_t n = utf8_length(s, i);
      if (n == 0) throw std::runtime_error("invalid UTF-8 in a response string");
      i += n;
      continue;
    }
    if (c >= 0x20 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    out_.append(s.data() + plain, i - plain);
    switch (c) {
      case '"': out_ += "\\\""; break;
      case '\\': out_ += "\\\\"; break;
      case '\b': out_ += "\\b"; break;
      case '\f': out_ += "\\f"; break;
      case '\n': out_ += "\\n"; break;
      case '\r': out_ += "\\r"; break;
      case '\t': out_ += "\\t"; break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        const char escaped[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
        out_.append(escaped, sizeof escaped);
      }
    }
    plain = ++i;
  }
  out_.append(s.data() + plain, s.size() - plain);
  out_ += '"';
}

void JsonWriter::value(bool b) {
  separate();
  out_ += b ? "true" : "false";
}

void JsonWriter::value(double x) {
  if (!std::isfinite(x)) throw std::runtime_error("non-finite number in the response");
  separate();
  std::array<char, 64> buffer;  // the size nlohmann's serializer uses
  const char* end = nlohmann::detail::to_chars(buffer.data(), buffer.data() + buffer.size(), x);
  out_.append(buffer.data(), static_cast<size_t>(end - buffer.data()));
}

void JsonWriter::value(int64_t i) {
  separate();
  std::array<char, 24> buffer;
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), i);
  out_.append(buffer.data(), static_cast<size_t>(result.ptr - buffer.data()));
}

}  // namespace gpuplan
