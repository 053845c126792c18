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

// Written for size: fixed arrays and one std::string per call, since every
// distinct library routine costs the page's module its own code.
namespace gpuplan::number_text {
namespace {

// An unsigned big integer: 32-bit limbs, least significant first. 128 limbs
// hold the largest value either direction makes (about 3 800 bits: 801
// digits scaled by 10^310, or 10^1124 shifted by 126 bits).
struct Big {
  std::uint32_t limb[128];
  int n = 0;  // limbs in use; the top one is nonzero

  void set(std::uint64_t v) {
    for (n = 0; v; v >>= 32) limb[n++] = static_cast<std::uint32_t>(v);
  }
  int bits() const { return n ? 32 * (n - 1) + 32 - __builtin_clz(limb[n - 1]) : 0; }
  // this = this · factor + add (factor > 0).
  void mul_add(std::uint32_t factor, std::uint32_t add) {
    std::uint64_t carry = add;
    for (int i = 0; i < n; ++i) {
      carry += static_cast<std::uint64_t>(limb[i]) * factor;
      limb[i] = static_cast<std::uint32_t>(carry);
      carry >>= 32;
    }
    if (carry) limb[n++] = static_cast<std::uint32_t>(carry);
  }
  // this = this · base^count, in the largest powers a limb holds (5^13, 10^9).
  void mul_pow(std::uint32_t base, long count) {
    for (; count > 0; count -= base == 5 ? 13 : 9) {
      std::uint32_t factor = 1;
      for (long i = 0; i < count && i < (base == 5 ? 13 : 9); ++i) factor *= base;
      mul_add(factor, 0);
    }
  }
  void shift_left(int count) {
    if (!n || count <= 0) return;
    const int limbs = count / 32, b = count % 32;
    std::uint32_t top = b ? limb[n - 1] >> (32 - b) : 0;
    for (int i = n - 1; i >= 0; --i) {
      limb[i + limbs] = (limb[i] << b) | (b && i ? limb[i - 1] >> (32 - b) : 0);
    }
    for (int i = 0; i < limbs; ++i) limb[i] = 0;
    n += limbs;
    if (top) limb[n++] = top;
  }
  void shift_right_1() {
    for (int i = 0; i < n; ++i) limb[i] = (limb[i] >> 1) | (i + 1 < n ? limb[i + 1] << 31 : 0);
    trim();
  }
  // -1, 0 or 1 as this is below, equal to or above o.
  int compare(const Big& o) const {
    if (n != o.n) return n < o.n ? -1 : 1;
    for (int i = n - 1; i >= 0; --i) {
      if (limb[i] != o.limb[i]) return limb[i] < o.limb[i] ? -1 : 1;
    }
    return 0;
  }
  // this -= o, for o <= this.
  void subtract(const Big& o) {
    std::uint64_t borrow = 0;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t t = static_cast<std::uint64_t>(limb[i]) - (i < o.n ? o.limb[i] : 0) - borrow;
      limb[i] = static_cast<std::uint32_t>(t);
      borrow = t >> 63;
    }
    trim();
  }
  // this /= d; returns the remainder.
  std::uint32_t divide(std::uint32_t d) {
    std::uint64_t r = 0;
    for (int i = n - 1; i >= 0; --i) {
      r = (r << 32) | limb[i];
      limb[i] = static_cast<std::uint32_t>(r / d);
      r %= d;
    }
    trim();
    return static_cast<std::uint32_t>(r);
  }
  void trim() {
    while (n && !limb[n - 1]) --n;
  }
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Significant digits kept when reading: a halfway point between two doubles
// has at most 767 significant digits, so the digits past 800 only decide
// whether the value lies above the truncated one (`sticky`).
constexpr int kMaxDigits = 800;

// The double nearest digits[0..count) · 10^exp10 (+ a little when `sticky`).
double nearest(const char* digits, int count, long exp10, bool sticky) {
  if (!count) return 0.0;
  const long magnitude = count + exp10;  // the value is below 10^magnitude
  if (magnitude > 310) return HUGE_VAL;  // above DBL_MAX
  if (magnitude < -324) return 0.0;      // below 2^-1075, half the smallest
  // Clinger's fast path: both factors exact doubles, so one rounding.
  if (!sticky && count <= 15 && exp10 >= -22 && exp10 <= 22) {
    double w = 0, p = 1;
    for (int i = 0; i < count; ++i) w = w * 10 + (digits[i] - '0');
    for (long i = 0; i < (exp10 < 0 ? -exp10 : exp10); ++i) p *= 10;
    return exp10 < 0 ? w / p : w * p;
  }
  Big num, den;
  num.set(0);
  den.set(1);
  for (int i = 0; i < count; ++i) num.mul_add(10, static_cast<std::uint32_t>(digits[i] - '0'));
  (exp10 < 0 ? den : num).mul_pow(10, exp10 < 0 ? -exp10 : exp10);
  // Scale by 2^s so that q = floor(num · 2^s / den) has 63 or 64 bits.
  const int s = 63 - (num.bits() - den.bits());
  num.shift_left(s);
  den.shift_left(s < 0 ? 63 - s : 63);
  std::uint64_t q = 0;
  for (int bit = 63; bit >= 0; --bit, den.shift_right_1()) {
    if (num.compare(den) >= 0) {
      num.subtract(den);
      q |= std::uint64_t{1} << bit;
    }
  }
  // value = q · 2^-s; keep 53 bits, fewer below the normal range.
  const int exponent = 63 - __builtin_clzll(q) - s;  // value in [2^exponent, 2^(exponent+1))
  const int ulp = exponent - 52 > -1074 ? exponent - 52 : -1074;
  const int drop = ulp + s;  // low bits of q below the last kept one (>= 10)
  const std::uint64_t m = drop < 64 ? q >> drop : 0;
  const bool half = drop <= 64 && ((q >> (drop - 1)) & 1);
  const bool rest = sticky || num.n || (drop > 64 || (q & ((std::uint64_t{2} << (drop - 2)) - 1)));
  return std::ldexp(static_cast<double>(m + (half && (rest || (m & 1)))), ulp);  // exact; 2^1024 is inf
}

// --- printing ---------------------------------------------------------------

// The digits of a finite x > 0 rounded (ties to even) to `keep` significant
// digits, or, when `fixed`, down to the place 10^-keep: written to `out`
// most significant first (`count` of them; any further place is a zero), and
// the place of the first one returned (out[i] is the digit of 10^(first - i)).
// count is 0 when the value rounds to nothing at that place.
long rounded_digits(double x, long keep, bool fixed, char* out, int& count) {
  int e2 = 0;
  const double frac = std::frexp(x, &e2);  // x = frac · 2^e2, frac in [0.5, 1)
  auto m = static_cast<std::uint64_t>(std::ldexp(frac, 53));
  e2 -= 53;
  // Without m's trailing zero bits, at most 767 digits (a subnormal's 5^1074).
  for (; !(m & 1) && e2 < 0; m >>= 1) ++e2;
  Big n;
  n.set(m);
  // x = n · 2^e2 = n · 5^-e2 · 10^e2: an integer of decimal digits, scaled.
  if (e2 >= 0) n.shift_left(e2);
  else n.mul_pow(5, -e2);
  char low_first[800];  // the exact digits (<= 767, in 9-digit chunks), least significant first
  int length = 0;
  while (n.n) {
    std::uint32_t chunk = n.divide(1000000000u);
    for (int i = 0; i < 9; ++i, chunk /= 10) low_first[length++] = static_cast<char>('0' + chunk % 10);
  }
  while (low_first[length - 1] == '0') --length;
  long first = length - 1 + (e2 < 0 ? e2 : 0);
  const long wanted = fixed ? first + 1 + keep : keep;  // digits to keep
  count = 0;
  if (wanted < 0) return first;  // far below the last place: rounds to 0
  for (; count < wanted && count < length; ++count) out[count] = low_first[length - 1 - count];
  if (wanted < length) {
    // Round on the first dropped digit and whatever follows it.
    const int at = length - 1 - static_cast<int>(wanted);
    bool more = false;
    for (int i = 0; i < at; ++i) more |= low_first[i] != '0';
    const bool odd = count && (out[count - 1] - '0') % 2;
    if (low_first[at] > '5' || (low_first[at] == '5' && (more || odd))) {
      int i = count;
      while (i > 0 && out[i - 1] == '9') out[--i] = '0';
      if (i) {
        ++out[i - 1];
      } else {  // 9.99 -> 10.00: a digit more in front
        std::memmove(out + 1, out, static_cast<std::size_t>(count));
        out[0] = '1';
        ++count;
        ++first;
      }
    }
  }
  return first;
}

// Appends the text of %f, %e or %g (conversion 'f', 'e' or 'g') for a finite
// x >= 0, without its sign.
void float_body(std::string& out, double x, char conversion, int precision, bool upper) {
  char d[810];
  int count = 0;
  long first = 0;
  if (conversion == 'g') {
    const int p = precision < 0 ? 6 : precision ? precision : 1;
    if (x != 0) first = rounded_digits(x, p, false, d, count);
    const bool as_fixed = first < p && first >= -4;
    std::string body;
    float_body(body, x, as_fixed ? 'f' : 'e', as_fixed ? static_cast<int>(p - 1 - first) : p - 1, upper);
    std::size_t e = 0, point = std::string::npos;
    for (; e < body.size() && body[e] != 'e' && body[e] != 'E'; ++e) {
      if (body[e] == '.') point = e;
    }
    std::size_t cut = e;
    if (point != std::string::npos) {  // no trailing zeros, no bare point
      while (body[cut - 1] == '0') --cut;
      if (cut - 1 == point) --cut;
    }
    out.append(body, 0, cut);
    out.append(body, e, std::string::npos);
    return;
  }
  const bool fixed = conversion == 'f';
  if (x != 0) first = rounded_digits(x, fixed ? precision : precision + 1, fixed, d, count);
  const auto digit = [&](long i) { return i >= 0 && i < count ? d[i] : '0'; };  // i digits after the first
  if (fixed) {
    if (!count) first = 0;
    for (long place = first > 0 ? first : 0; place >= -precision; --place) {
      if (place == -1) out += '.';
      out += digit(first - place);
    }
    return;
  }
  out += digit(0);
  if (precision > 0) out += '.';
  for (long i = 1; i <= precision; ++i) out += digit(i);
  out += upper ? 'E' : 'e';
  out += first < 0 ? '-' : '+';
  const long e = first < 0 ? -first : first;
  if (e < 10) out += '0';
  char text[8];
  int length = 0;
  for (long v = e; v || !length; v /= 10) text[length++] = static_cast<char>('0' + v % 10);
  while (length) out += text[--length];
}

}  // namespace
double parse_double(const char* text, char** end) {
  const char* p = text;
  while (*p == ' ' || (*p >= '\t' && *p <= '\r')) ++p;
  const bool negative = *p == '-';
  if (*p == '+' || *p == '-') ++p;
  char digits[kMaxDigits];
  int count = 0;
  long exp10 = 0;
  bool sticky = false, any = false, fraction = false;
  // Leading zeros are not significant; digits past kMaxDigits only count.
  for (;; ++p) {
    if (*p == '.' && !fraction) {
      fraction = true;
      continue;
    }
    if (!is_digit(*p)) break;
    any = true;
    if (count < kMaxDigits && (count || *p != '0')) {
      digits[count++] = *p;
      exp10 -= fraction;
    } else if (count) {
      sticky |= *p != '0';
      exp10 += !fraction;
    } else {
      exp10 -= fraction;
    }
  }
  if (!any) {
    if (end) *end = const_cast<char*>(text);
    return 0.0;
  }
  if (*p == 'e' || *p == 'E') {
    const char* q = p + 1;
    const bool down = *q == '-';
    if (*q == '+' || *q == '-') ++q;
    if (is_digit(*q)) {
      long e = 0;
      for (; is_digit(*q); ++q) e = e < 100000000 ? e * 10 + (*q - '0') : e;  // far past any double
      exp10 += down ? -e : e;
      p = q;
    }
  }
  if (end) *end = const_cast<char*>(p);
  const double magnitude = nearest(digits, count, exp10, sticky);
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
    int precision = -1;  // none
    if (*f == '.') {
      precision = 0;
      if (*++f == '*') {
        precision = va_arg(args, int);
        ++f;
        if (precision < 0) precision = -1;  // a negative * precision means none
      } else {
        for (; is_digit(*f); ++f) precision = precision * 10 + (*f - '0');
      }
    }
    const char c = *f;
    switch (c) {
      case 'd': case 'i': case 'u': case 'x': case 'X': {
        const bool is_signed = c == 'd' || c == 'i';
        const int given = va_arg(args, int);
        const bool negative = is_signed && given < 0;
        std::uint32_t v = static_cast<std::uint32_t>(given);
        if (negative) v = 0 - v;
        const unsigned base = c == 'x' || c == 'X' ? 16 : 10;
        const char* symbols = c == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
        char digits[12];
        int n = 0;
        for (; v; v /= base) digits[n++] = symbols[v % base];
        if (negative) text += '-';
        for (int i = n; i < (precision < 0 ? 1 : precision); ++i) text += '0';
        while (n) text += digits[--n];
        break;
      }
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': {
        const double x = va_arg(args, double);
        const bool upper = c < 'a';
        if (std::signbit(x)) text += '-';
        if (std::isfinite(x)) {
          float_body(text, std::fabs(x), static_cast<char>(c | 0x20), c == 'g' || c == 'G' ? precision : precision < 0 ? 6 : precision, upper);
        } else {
          text += std::isnan(x) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
        }
        break;
      }
      case '%':
        text += '%';
        break;
      default:  // a flag, a width, a length or a conversion this module does not use: the text as written
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
