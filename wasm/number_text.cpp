// Exact decimal conversions for the page's module (number_text.h says why).
// Both directions reduce to integers: a double is m · 2^e with m < 2^53, and
// a decimal is D · 10^E; with big integers every comparison is exact, so the
// results are the correctly rounded ones IEEE 754 and C require of strtod and
// printf (ties to even). The method is the textbook one (Clinger, "How to read
// floating point numbers accurately", 1990, for the fast path; long division
// for the rest; Steele & White's exact digit generation for printing), not a
// port of any library.
#include "number_text.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace gpuplan::number_text {
namespace {

// An unsigned big integer: 32-bit limbs, least significant first, no
// leading zero limb (zero is the empty vector).
class Big {
 public:
  explicit Big(std::uint64_t v = 0) {
    for (; v; v >>= 32) limbs_.push_back(static_cast<std::uint32_t>(v));
  }
  bool zero() const { return limbs_.empty(); }
  int bits() const {
    return zero() ? 0 : 32 * static_cast<int>(limbs_.size() - 1) + 32 - __builtin_clz(limbs_.back());
  }
  // this = this · factor + add (factor > 0).
  void mul_add(std::uint32_t factor, std::uint32_t add = 0) {
    std::uint64_t carry = add;
    for (auto& limb : limbs_) {
      const std::uint64_t t = static_cast<std::uint64_t>(limb) * factor + carry;
      limb = static_cast<std::uint32_t>(t);
      carry = t >> 32;
    }
    if (carry) limbs_.push_back(static_cast<std::uint32_t>(carry));
  }
  // this = this · base^n for base 5 or 10, in the largest chunks a limb holds.
  void mul_pow(std::uint32_t base, int n) {
    const int per = base == 5 ? 13 : 9;  // 5^13 and 10^9 fit in 32 bits
    std::uint32_t chunk = 1;
    for (int i = 0; i < per; ++i) chunk *= base;
    for (; n >= per; n -= per) mul_add(chunk);
    std::uint32_t rest = 1;
    for (; n > 0; --n) rest *= base;
    if (rest > 1) mul_add(rest);
  }
  void shift_left(int bits) {
    if (zero() || bits <= 0) return;
    const int b = bits % 32;
    if (b) {
      std::uint32_t carry = 0;
      for (auto& limb : limbs_) {
        const std::uint32_t next = (limb << b) | carry;
        carry = limb >> (32 - b);
        limb = next;
      }
      if (carry) limbs_.push_back(carry);
    }
    limbs_.insert(limbs_.begin(), static_cast<std::size_t>(bits / 32), 0u);
  }
  void shift_right_1() {
    std::uint32_t carry = 0;
    for (std::size_t i = limbs_.size(); i-- > 0;) {
      const std::uint32_t next = (limbs_[i] >> 1) | (carry << 31);
      carry = limbs_[i] & 1;
      limbs_[i] = next;
    }
    trim();
  }
  friend bool operator<(const Big& a, const Big& b) {
    if (a.limbs_.size() != b.limbs_.size()) return a.limbs_.size() < b.limbs_.size();
    for (std::size_t i = a.limbs_.size(); i-- > 0;) {
      if (a.limbs_[i] != b.limbs_[i]) return a.limbs_[i] < b.limbs_[i];
    }
    return false;
  }
  // this -= b, for b <= this.
  void subtract(const Big& b) {
    std::int64_t borrow = 0;
    for (std::size_t i = 0; i < limbs_.size(); ++i) {
      std::int64_t t = static_cast<std::int64_t>(limbs_[i]) - (i < b.limbs_.size() ? b.limbs_[i] : 0) - borrow;
      borrow = t < 0;
      if (borrow) t += std::int64_t{1} << 32;
      limbs_[i] = static_cast<std::uint32_t>(t);
    }
    trim();
  }
  // this /= d; returns the remainder.
  std::uint32_t divide(std::uint32_t d) {
    std::uint64_t r = 0;
    for (std::size_t i = limbs_.size(); i-- > 0;) {
      const std::uint64_t t = (r << 32) | limbs_[i];
      limbs_[i] = static_cast<std::uint32_t>(t / d);
      r = t % d;
    }
    trim();
    return static_cast<std::uint32_t>(r);
  }
  // Decimal digits, most significant first ("" for zero).
  std::string decimal() const {
    Big n = *this;
    std::string reversed;
    while (!n.zero()) {
      std::uint32_t chunk = n.divide(1000000000u);
      for (int i = 0; i < 9; ++i, chunk /= 10) reversed += static_cast<char>('0' + chunk % 10);
    }
    while (!reversed.empty() && reversed.back() == '0') reversed.pop_back();
    return {reversed.rbegin(), reversed.rend()};
  }

 private:
  void trim() {
    while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
  }
  std::vector<std::uint32_t> limbs_;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Significant digits kept when reading: a halfway point between two doubles
// has at most 767 significant digits, so the digits past 800 only decide
// whether the value lies above the truncated one (`sticky`).
constexpr std::size_t kMaxDigits = 800;

// The double nearest digits · 10^exp10 (+ a little when `sticky`).
double nearest(const std::string& digits, long exp10, bool sticky) {
  if (digits.empty()) return 0.0;
  const long magnitude = static_cast<long>(digits.size()) + exp10;  // value < 10^magnitude
  if (magnitude > 310) return HUGE_VAL;                                // > DBL_MAX
  if (magnitude < -324) return 0.0;                                    // < 2^-1075, half the smallest
  // Clinger's fast path: both factors exact doubles, so one rounding.
  if (!sticky && digits.size() <= 15 && exp10 >= -22 && exp10 <= 22) {
    double w = 0, p = 1;
    for (char c : digits) w = w * 10 + (c - '0');
    for (long i = 0; i < (exp10 < 0 ? -exp10 : exp10); ++i) p *= 10;
    return exp10 < 0 ? w / p : w * p;
  }
  Big num, den(1);
  for (char c : digits) num.mul_add(10, static_cast<std::uint32_t>(c - '0'));
  if (exp10 >= 0) num.mul_pow(10, static_cast<int>(exp10));
  else den.mul_pow(10, static_cast<int>(-exp10));
  // Scale by 2^s so that q = floor(num · 2^s / den) has 63 or 64 bits.
  const int s = 63 - (num.bits() - den.bits());
  if (s > 0) num.shift_left(s);
  else den.shift_left(-s);
  den.shift_left(63);
  std::uint64_t q = 0;
  for (int bit = 63; bit >= 0; --bit, den.shift_right_1()) {
    if (!(num < den)) {
      num.subtract(den);
      q |= std::uint64_t{1} << bit;
    }
  }
  const bool inexact = sticky || !num.zero();
  // value = q · 2^-s; keep 53 bits, fewer below the normal range.
  const int length = 64 - __builtin_clzll(q);
  const int exponent = length - 1 - s;  // value in [2^exponent, 2^(exponent+1))
  const int ulp = exponent - 52 > -1074 ? exponent - 52 : -1074;
  const int drop = ulp + s;  // low bits of q below the last kept one (>= 10)
  std::uint64_t m = 0;
  bool half = false, rest = true;
  if (drop < 64) {
    m = q >> drop;
    half = (q >> (drop - 1)) & 1;
    rest = (q & ((std::uint64_t{1} << (drop - 1)) - 1)) != 0 || inexact;
  } else if (drop == 64) {
    half = q >> 63;
    rest = (q << 1) != 0 || inexact;
  }
  if (half && (rest || (m & 1))) ++m;
  return std::ldexp(static_cast<double>(m), ulp);  // exact; 2^1024 and up is inf
}

// --- printing ---------------------------------------------------------------

// The exact decimal value of a finite |x| > 0: digits · 10^exp10.
void exact_decimal(double x, std::string& digits, long& exp10) {
  int e2 = 0;
  const double frac = std::frexp(x, &e2);                                       // x = frac · 2^e2, frac in [0.5, 1)
  const auto m = static_cast<std::uint64_t>(std::ldexp(frac, 53));             // exact: 53 bits
  e2 -= 53;
  Big n(m);
  if (e2 >= 0) {
    n.shift_left(e2);
    exp10 = 0;
  } else {
    n.mul_pow(5, -e2);  // m · 2^e2 = m · 5^-e2 · 10^e2
    exp10 = e2;
  }
  digits = n.decimal();
}

// Rounds digits (value digits · 10^exp10) to its first `keep` digits, ties
// to even; returns the kept digits, one longer when rounding carried. keep
// may be 0 or negative (the value below the last kept place).
std::string round_to(const std::string& digits, long keep) {
  if (keep >= static_cast<long>(digits.size())) return digits + std::string(static_cast<std::size_t>(keep) - digits.size(), '0');
  if (keep < 0) return "";
  std::string kept = digits.substr(0, static_cast<std::size_t>(keep));
  const char first = digits[static_cast<std::size_t>(keep)];
  const bool more = digits.find_first_not_of('0', static_cast<std::size_t>(keep) + 1) != std::string::npos;
  const bool odd = !kept.empty() && (kept.back() - '0') % 2 == 1;
  if (first > '5' || (first == '5' && (more || odd))) {
    std::size_t i = kept.size();
    while (i > 0 && kept[i - 1] == '9') kept[--i] = '0';
    if (i == 0) kept.insert(kept.begin(), '1');
    else ++kept[i - 1];
  }
  return kept;
}

struct Spec {
  bool left = false, plus = false, space = false, alt = false, zero = false;
  int width = 0;
  int precision = -1;  // none
  char conversion = 0;
};

// The digits of |x| for %f: integer part, then `precision` decimals.
std::string fixed(double x, int precision, bool alt) {
  std::string digits;
  long exp10 = 0;
  std::string r;
  if (x != 0) {
    exact_decimal(x, digits, exp10);
    r = round_to(digits, static_cast<long>(digits.size()) + exp10 + precision);
  }
  // r is the value in units of 10^-precision.
  if (r.size() < static_cast<std::size_t>(precision) + 1) r.insert(0, static_cast<std::size_t>(precision) + 1 - r.size(), '0');
  if (precision > 0 || alt) r.insert(r.size() - static_cast<std::size_t>(precision), ".");
  return r;
}

// |x| rounded to `significant` digits: the digits and the decimal exponent of
// the first one (x = d.ddd · 10^exponent).
std::string significant_digits(double x, int significant, long& exponent) {
  if (x == 0) {
    exponent = 0;
    return std::string(static_cast<std::size_t>(significant), '0');
  }
  std::string digits;
  long exp10 = 0;
  exact_decimal(x, digits, exp10);
  exponent = static_cast<long>(digits.size()) + exp10 - 1;
  std::string r = round_to(digits, significant);
  if (r.size() > static_cast<std::size_t>(significant)) {  // 9.99 -> 10.0
    r.pop_back();
    ++exponent;
  }
  return r;
}

std::string exponential(double x, int precision, bool alt, bool upper) {
  long exponent = 0;
  std::string d = significant_digits(x, precision + 1, exponent);
  std::string out(1, d[0]);
  if (precision > 0 || alt) out += '.';
  out += d.substr(1);
  out += upper ? 'E' : 'e';
  out += exponent < 0 ? '-' : '+';
  const long e = exponent < 0 ? -exponent : exponent;
  if (e < 10) out += '0';
  out += std::to_string(e);
  return out;
}

std::string general(double x, int precision, bool alt, bool upper) {
  const int p = precision < 0 ? 6 : precision == 0 ? 1 : precision;
  long exponent = 0;
  significant_digits(x, p, exponent);
  std::string out = exponent < p && exponent >= -4 ? fixed(x, static_cast<int>(p - 1 - exponent), alt)
                                                  : exponential(x, p - 1, alt, upper);
  if (!alt) {
    const std::size_t e = out.find_first_of("eE");
    std::string mantissa = out.substr(0, e);
    const std::string tail = e == std::string::npos ? "" : out.substr(e);
    if (mantissa.find('.') != std::string::npos) {
      while (mantissa.back() == '0') mantissa.pop_back();
      if (mantissa.back() == '.') mantissa.pop_back();
    }
    out = mantissa + tail;
  }
  return out;
}

// Pads body (after its sign or prefix) to the width.
void emit(std::string& out, const Spec& s, const std::string& prefix, const std::string& body, bool zero_pad) {
  const std::size_t length = prefix.size() + body.size();
  const std::size_t pad = s.width > 0 && static_cast<std::size_t>(s.width) > length ? static_cast<std::size_t>(s.width) - length : 0;
  if (s.left) {
    out += prefix + body + std::string(pad, ' ');
  } else if (zero_pad) {
    out += prefix + std::string(pad, '0') + body;
  } else {
    out += std::string(pad, ' ') + prefix + body;
  }
}

void emit_float(std::string& out, const Spec& s, double x) {
  const bool upper = s.conversion >= 'A' && s.conversion <= 'Z';
  std::string prefix = std::signbit(x) ? "-" : s.plus ? "+" : s.space ? " " : "";
  const double a = std::fabs(x);
  if (!std::isfinite(a)) {
    emit(out, s, prefix, std::isnan(a) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"), false);
    return;
  }
  const int precision = s.precision < 0 ? 6 : s.precision;
  std::string body;
  switch (s.conversion) {
    case 'f': case 'F': body = fixed(a, precision, s.alt); break;
    case 'e': case 'E': body = exponential(a, precision, s.alt, upper); break;
    default: body = general(a, s.precision, s.alt, upper); break;
  }
  emit(out, s, prefix, body, s.zero && !s.left);
}

void emit_integer(std::string& out, const Spec& s, std::uint64_t magnitude, bool negative) {
  const char c = s.conversion;
  const unsigned base = c == 'o' ? 8 : (c == 'x' || c == 'X' || c == 'p') ? 16 : 10;
  const char* digit_chars = c == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string digits;
  for (std::uint64_t v = magnitude; v; v /= base) digits.insert(digits.begin(), digit_chars[v % base]);
  const std::size_t precision = s.precision < 0 ? 1 : static_cast<std::size_t>(s.precision);
  if (digits.size() < precision) digits.insert(0, precision - digits.size(), '0');
  if (c == 'o' && s.alt && (digits.empty() || digits[0] != '0')) digits.insert(digits.begin(), '0');
  std::string prefix;
  if (c == 'd' || c == 'i') prefix = negative ? "-" : s.plus ? "+" : s.space ? " " : "";
  if (((c == 'x' || c == 'X') && s.alt && magnitude) || c == 'p') prefix = c == 'X' ? "0X" : "0x";
  emit(out, s, prefix, digits, s.zero && !s.left && s.precision < 0);
}

}  // namespace

double parse_double(const char* text, char** end) {
  const char* p = text;
  while (*p == ' ' || (*p >= '\t' && *p <= '\r')) ++p;
  bool negative = false;
  if (*p == '+' || *p == '-') negative = *p++ == '-';
  std::string digits;
  long exp10 = 0;
  bool sticky = false, any = false;
  // Leading zeros are not significant; digits past kMaxDigits only count.
  auto take = [&](char c, bool fraction) {
    if (digits.empty() && c == '0') {
      if (fraction) --exp10;
      return;
    }
    if (digits.size() < kMaxDigits) {
      digits += c;
      if (fraction) --exp10;
    } else {
      sticky |= c != '0';
      if (!fraction) ++exp10;
    }
  };
  for (; is_digit(*p); ++p) {
    any = true;
    take(*p, false);
  }
  if (*p == '.') {
    const char* q = p + 1;
    for (; is_digit(*q); ++q) {
      any = true;
      take(*q, true);
    }
    if (any) p = q;
  }
  if (!any) {
    if (end) *end = const_cast<char*>(text);
    return 0.0;
  }
  if (*p == 'e' || *p == 'E') {
    const char* q = p + 1;
    bool down = false;
    if (*q == '+' || *q == '-') down = *q++ == '-';
    if (is_digit(*q)) {
      long e = 0;
      for (; is_digit(*q); ++q) {
        if (e < 100000000) e = e * 10 + (*q - '0');  // far past any double's range
      }
      exp10 += down ? -e : e;
      p = q;
    }
  }
  if (end) *end = const_cast<char*>(p);
  const double magnitude = nearest(digits, exp10, sticky);
  return negative ? -magnitude : magnitude;
}

int format(char* out, std::size_t size, const char* spec, std::va_list args) {
  std::string text;
  for (const char* f = spec; *f; ++f) {
    if (*f != '%') {
      text += *f;
      continue;
    }
    const char* start = f++;
    Spec s;
    for (;; ++f) {
      if (*f == '-') s.left = true;
      else if (*f == '+') s.plus = true;
      else if (*f == ' ') s.space = true;
      else if (*f == '#') s.alt = true;
      else if (*f == '0') s.zero = true;
      else break;
    }
    if (*f == '*') {
      s.width = va_arg(args, int);
      if (s.width < 0) {
        s.left = true;
        s.width = -s.width;
      }
      ++f;
    } else {
      for (; is_digit(*f); ++f) s.width = s.width * 10 + (*f - '0');
    }
    if (*f == '.') {
      ++f;
      s.precision = 0;
      if (*f == '*') {
        s.precision = va_arg(args, int);
        if (s.precision < 0) s.precision = -1;
        ++f;
      } else {
        for (; is_digit(*f); ++f) s.precision = s.precision * 10 + (*f - '0');
      }
    }
    // Length: 'l' twice or 'j' is 64 bits, 'l', 'z' and 't' are long-sized
    // (32 bits in wasm32), 'h' and 'hh' narrow what was passed as an int.
    int length = 0;  // 0 int, 1 long, 2 long long, -1 short, -2 char, 3 long double
    for (;; ++f) {
      if (*f == 'h') length = length == -1 ? -2 : -1;
      else if (*f == 'l') length = length == 1 ? 2 : 1;
      else if (*f == 'j') length = 2;
      else if (*f == 'z' || *f == 't') length = 1;
      else if (*f == 'L') length = 3;
      else break;
    }
    s.conversion = *f;
    switch (*f) {
      case 'd': case 'i': {
        long long v = length == 2 ? va_arg(args, long long) : length == 1 ? va_arg(args, long) : va_arg(args, int);
        if (length == -1) v = static_cast<short>(v);
        if (length == -2) v = static_cast<signed char>(v);
        const std::uint64_t mag = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
        emit_integer(text, s, mag, v < 0);
        break;
      }
      case 'u': case 'o': case 'x': case 'X': {
        unsigned long long v = length == 2 ? va_arg(args, unsigned long long)
                               : length == 1 ? va_arg(args, unsigned long) : va_arg(args, unsigned);
        if (length == -1) v = static_cast<unsigned short>(v);
        if (length == -2) v = static_cast<unsigned char>(v);
        emit_integer(text, s, v, false);
        break;
      }
      case 'p':
        emit_integer(text, s, reinterpret_cast<std::uintptr_t>(va_arg(args, void*)), false);
        break;
      case 'c':
        emit(text, s, "", std::string(1, static_cast<char>(va_arg(args, int))), false);
        break;
      case 's': {
        const char* str = va_arg(args, const char*);
        if (!str) str = "(null)";
        std::size_t n = std::strlen(str);
        if (s.precision >= 0 && static_cast<std::size_t>(s.precision) < n) n = static_cast<std::size_t>(s.precision);
        emit(text, s, "", std::string(str, n), false);
        break;
      }
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
        emit_float(text, s, length == 3 ? static_cast<double>(va_arg(args, long double)) : va_arg(args, double));
        break;
      case '%':
        text += '%';
        break;
      default:  // not a conversion this module uses: the text as written
        if (!*f) --f;
        text.append(start, f + 1);
        break;
    }
  }
  if (size > 0) {
    const std::size_t n = text.size() < size - 1 ? text.size() : size - 1;
    std::memcpy(out, text.data(), n);
    out[n] = '\0';
  }
  return static_cast<int>(text.size());
}

}  // namespace gpuplan::number_text
