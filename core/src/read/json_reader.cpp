#include "read/json_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "text/json_writer.h"
#include "text/field_words.h"
#include "text/messages.h"

namespace gpuplan {
namespace {

// nlohmann's own DOM builder, the one json::parse(text, nullptr, false) runs
// when no callback is given, told to return errors rather than throw them, and
// keeping the byte where the input went wrong. Parsing through sax_parse with
// it compiles one parser where json::parse compiles two (its callback builder
// too), and the position comes from the one parse instead of a second,
// throwing one; both cut the page's wasm (docs/performance.md).
class DomBuilder : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
  using Base = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;

 public:
  explicit DomBuilder(nlohmann::json& result) : Base(result, /*allow_exceptions=*/false) {}

  // Where the parser is, kept so that an error the lexer finds inside a value
  // (a number too large for a double) can name its field like any other.
  bool start_object(std::size_t n) { return enter(false) && Base::start_object(n); }
  bool start_array(std::size_t n) { return enter(true) && Base::start_array(n); }
  bool end_object() { return leave() && Base::end_object(); }
  bool end_array() { return leave() && Base::end_array(); }
  bool null() { return next() && Base::null(); }
  bool boolean(bool v) { return next() && Base::boolean(v); }
  bool number_integer(nlohmann::json::number_integer_t v) { return next() && Base::number_integer(v); }
  bool number_unsigned(nlohmann::json::number_unsigned_t v) { return next() && Base::number_unsigned(v); }
  bool number_float(nlohmann::json::number_float_t v, const std::string& s) { return next() && Base::number_float(v, s); }
  bool string(std::string& v) { return next() && Base::string(v); }
  bool binary(nlohmann::json::binary_t& v) { return next() && Base::binary(v); }
  bool key(std::string& k) {
    frames_.back().key = k;
    return Base::key(k);
  }

  template <class Exception>
  bool parse_error(std::size_t position, const std::string& last_token, const Exception& ex) {
    error_byte = position;
    // The one error nlohmann reports here besides syntax: a number beyond a
    // double's range (out_of_range 406). It is the user's value, so it gets
    // the field's path and an out-of-range message instead of "internal".
    if constexpr (std::is_same_v<Exception, nlohmann::json::out_of_range>) {
      number_overflow = true;
      overflow_token = last_token;
    }
    return Base::parse_error(position, last_token, ex);
  }

  // The path of the value being read when parsing stopped: "a.b[2].c".
  std::string path() const {
    std::string p;
    for (size_t i = 1; i < frames_.size(); ++i) p += segment(frames_[i - 1], p.empty(), 1);  // containers entered
    const Frame& here = frames_.back();
    if (here.array || !here.key.empty()) p += segment(here, p.empty(), 0);  // the value being lexed
    return p;
  }

  std::size_t error_byte = 0;
  bool number_overflow = false;
  std::string overflow_token;

 private:
  struct Frame {
    bool array = false;
    std::size_t index = 0;  // elements started so far, for arrays
    std::string key;        // the member being read, for objects
  };

  // Elements of an array are counted as they start, so a container being read
  // is element count - 1, and a value still being lexed is element count.
  static std::string segment(const Frame& f, bool first, std::size_t started) {
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
    std::string out;
    if (f.array) {
      out += '[';
      out += std::to_string(f.index - started);
      out += ']';
    } else {
      if (!first) out += '.';
      out += f.key;
    }
    return out;
  }

  bool next() {
    if (frames_.back().array) ++frames_.back().index;
    return true;
  }
  bool enter(bool array) {
    next();
    frames_.push_back({array, 0, {}});
    return true;
  }
  bool leave() {
    frames_.pop_back();
    return true;
  }

  std::vector<Frame> frames_ = {Frame{}};
};

// A parsed value written back as compact JSON: dump()'s text (same key order,
// number and string forms: json_writer.h), through the response's writer so
// the page's module carries one serializer, not nlohmann's as well. Strings in
// a parsed document are valid UTF-8 (nlohmann's lexer rejects anything else),
// which the writer requires.
void write_value(JsonWriter& w, const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::object:
      w.begin_object();
      for (auto it = v.begin(); it != v.end(); ++it) {  // std::map order: what key() requires
        w.key(it.key());
        write_value(w, it.value());
      }
      w.end_object();
      break;
    case nlohmann::json::value_t::array:
      w.begin_array();
      for (const auto& element : v) write_value(w, element);
      w.end_array();
      break;
    case nlohmann::json::value_t::string: w.value(v.get_ref<const std::string&>()); break;
    case nlohmann::json::value_t::boolean: w.value(v.get<bool>()); break;
    case nlohmann::json::value_t::number_integer: w.value(v.get<std::int64_t>()); break;
    case nlohmann::json::value_t::number_unsigned: w.value(v.get<std::uint64_t>()); break;
    case nlohmann::json::value_t::number_float: w.value(v.get<double>()); break;
    default: w.null(); break;  // null; a parsed document holds no other kind
  }
}

// A long text cut to at most kMax bytes on a UTF-8 boundary, with "…".
std::string cut_text(std::string text) {
  constexpr size_t kMax = 60;
  if (text.size() <= kMax) return text;
  size_t cut = kMax;
  // Do not split a UTF-8 sequence: back up to a lead byte.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "…";
}

// Names compared the way a typo is made: case and '-' against '_' do not count.
std::string folded(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    if (c == '-' || c == ' ') c = '_';
  }
  return out;
}

// Optimal string alignment distance (Levenshtein with adjacent transpositions,
// Damerau 1964): "micro_bach" is 1 from "micro_batch", "seqlne" 1 from "seqlen".
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> before(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t substitution = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], before[j - 2] + 1);
    }
    before.swap(prev);
    prev.swap(cur);
  }
  return prev[b.size()];
}

// Word by word, one name abbreviates the other: "grad_checkpointing" and
// "gradient_checkpointing", "lr_warmup" and "lr_warmup_steps" do not (a
// different count of words).
bool abbreviates(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i <= a.size() && j <= b.size()) {
    const size_t ea = std::min(a.find('_', i), a.size()), eb = std::min(b.find('_', j), b.size());
    const std::string_view wa(a.data() + i, ea - i), wb(b.data() + j, eb - j);
    const std::string_view shorter = wa.size() < wb.size() ? wa : wb, longer = wa.size() < wb.size() ? wb : wa;
    if (shorter.size() < 3 || longer.substr(0, shorter.size()) != shorter) return false;
    i = ea + 1;
    j = eb + 1;
    if ((i > a.size()) != (j > b.size())) return false;
  }
  return true;
}

}  // namespace

std::string_view closest_name(std::string_view name, FieldNames known) {
  // Past a name's length a typo is no longer the likely story (and a hostile
  // megabyte key must not cost a megabyte times the table).
  if (name.empty() || name.size() > 64) return {};
  const std::string n = folded(name);
  std::string_view best;
  size_t best_distance = SIZE_MAX;
  for (std::string_view k : known) {
    const std::string f = folded(k);
    size_t d = edit_distance(n, f);
    // About one slip per four letters, at most three; or one name holding the
    // other whole ("batch" for "micro_batch") or abbreviating it word by word
    // ("gradient_checkpointing"), counted as a distance just over that.
    const size_t allowed = std::clamp<size_t>((std::min(n.size(), f.size()) + 1) / 4, 1, 3);
    if (d > allowed) {
      const bool contained = std::min(n.size(), f.size()) >= 4 &&
                             (f.find(n) != std::string::npos || n.find(f) != std::string::npos);
      if (!contained && !abbreviates(n, f)) continue;
      d = allowed + 1;
    }
    if (d < best_distance) {
      best_distance = d;
      best = k;
    }
  }
  return best;
}

Locale sniff_locale(std::string_view text) {
  // One pass over the text's structure: strings skipped whole, depth counted,
  // and at depth 1 of an object the member names read. Bounded by the text,
  // not by its nesting, so it also serves texts too deep or too broken to parse.
  Locale found = Locale::zh_CN;
  int depth = 0;
  bool expect_key = false;
  auto read_string = [&](size_t& i) {  // at the opening quote; leaves i on the closing one
    size_t start = ++i;
    while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
    return text.substr(start, std::min(i, text.size()) - start);
  };
  auto skip_space = [&](size_t& i) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      const bool key = depth == 1 && expect_key;
      std::string_view s = read_string(i);
      if (!key || s != "locale") continue;
      size_t j = i + 1;
      skip_space(j);
      if (j >= text.size() || text[j] != ':') continue;
      ++j;
      skip_space(j);
      // The last "locale" wins, as in the parsed object; only a string counts.
      if (j < text.size() && text[j] == '"') {
        Locale named = Locale::zh_CN;
        found = locale_named(read_string(j), named) ? named : Locale::zh_CN;
        i = j;
      } else {
        found = Locale::zh_CN;
      }
      expect_key = false;
    } else if (c == '{' || c == '[') {
      ++depth;
      expect_key = c == '{' && depth == 1;
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (depth == 1 && c == ',') {
      expect_key = true;
    } else if (depth == 1 && c == ':') {
      expect_key = false;
    }
  }
  return found;
}

namespace {

// The innermost ReadErrors alive on this thread: the parse in progress.
thread_local ReadErrors* current_errors = nullptr;

}  // namespace

ReadErrors::ReadErrors() : outer_(current_errors) { current_errors = this; }
ReadErrors::~ReadErrors() { current_errors = outer_; }

bool read_failed() { return current_errors && !current_errors->ok(); }

void fail(Locale locale, std::string code, std::string path, std::string text) {
  // A read outside any parse is a bug with nowhere to report to.
  if (!current_errors) std::abort();
  if (!current_errors->ok()) return;
  // A request's message opens with the field's words (text/field_words.h): a
  // capital in English. A catalog's opens with its path, as written.
  if (locale == Locale::en && !text.empty() && text[0] >= 'a' && text[0] <= 'z' && (path.empty() || text.rfind(path, 0) != 0))
    text[0] = char(text[0] - 'a' + 'A');
  current_errors->record(Error{std::move(code), std::move(path), std::move(text)});
}

std::string describe(const nlohmann::json& value) {
  JsonWriter w;
  write_value(w, value);
  return cut_text(w.take());
}

nlohmann::json parse_json_text(std::string_view text, Locale locale, size_t max_bytes, int max_depth) {
  if (text.size() > max_bytes) {
    fail(locale, "too_large", "", message(locale, "too_large", {format_number(double(text.size())), format_number(double(max_bytes))}));
    return nullptr;
  }
  // Depth pre-scan: brackets outside strings. Cheap, linear, and keeps a
  // 200 000-deep array from ever reaching the parser.
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '\0') {
      // The parser reads a NUL as the end of its input: what follows one
      // would be ignored. No JSON text holds one (inside a string it must be
      // escaped), so it is where the text stops being JSON.
      fail(locale, "invalid_json", "", message(locale, "invalid_json", {message(locale, "at_byte", {std::to_string(i)})}));
      return nullptr;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        fail(locale, "too_deep", "", message(locale, "too_deep", {std::to_string(max_depth)}));
        return nullptr;
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  nlohmann::json parsed;
  DomBuilder builder(parsed);
  if (!nlohmann::json::sax_parse(text.begin(), text.end(), &builder)) {
    if (builder.number_overflow) {
      std::string p = builder.path();
      fail(locale, "out_of_range", p, message(locale, "out_of_range", {field_words(locale, p), "-1.8e308", "1.8e308", cut_text(builder.overflow_token)}));
      return nullptr;
    }
    fail(locale, "invalid_json", "", message(locale, "invalid_json", {message(locale, "at_byte", {std::to_string(builder.error_byte)})}));
    return nullptr;
  }
  return parsed;
}

Reader::Reader(const nlohmann::json& object, std::string path, Locale locale)
    : object_(&object), path_(std::move(path)), locale_(locale) {}

Reader::Reader(const nlohmann::json& object, std::string path, Locale locale, FieldNames fields)
    : object_(&object), path_(std::move(path)), locale_(locale), strict_(true), fields_(fields) {
  reject_unknown();
}

void Reader::reject_unknown() const {
  if (read_failed() || !object_->is_object()) return;
  for (auto it = object_->begin(); it != object_->end(); ++it) {
    const std::string& key = it.key();
    if (std::find(fields_.begin(), fields_.end(), key) != fields_.end()) continue;
    // The name as written (cut when absurdly long), and the closest known one.
    const std::string p = child_path(cut_text(key));
    const std::string_view near = closest_name(key, fields_);
    if (!near.empty()) {
      fail(locale_, "unknown_field", p,
           message(locale_, "unknown_field", {words(cut_text(key)), message(locale_, "unknown_field.near", {std::string(near), words(near)})}));
      return;
    }
    std::string list;
    for (std::string_view k : fields_) list += (list.empty() ? "" : ", ") + std::string(k);
    fail(locale_, "unknown_field", p,
         message(locale_, list.empty() ? "unknown_field.none" : "unknown_field.list", {words(cut_text(key)), list}));
    return;
  }
}

const nlohmann::json* Reader::get(std::string_view key) const {
  // After the parse's first error nothing is read: every field is absent.
  if (read_failed()) return nullptr;
  // A strict view reads only what its table declares: a read of anything else
  // is a parser that forgot its table line (docs/api.md, "Strict input").
  if (strict_ && std::find(fields_.begin(), fields_.end(), key) == fields_.end()) {
    fail(locale_, "internal", child_path(key),
         message(locale_, "internal", {std::string(key) + " is read but missing from its field table"}));
    return nullptr;
  }
  auto it = object_->find(key);
  if (it == object_->end() || it->is_null()) return nullptr;
  return &*it;
}

bool Reader::has(std::string_view key) const { return get(key) != nullptr; }

// The request's fields in words; the catalog's files (lenient views, read by
// their developers) by their path.
std::string Reader::words(std::string_view key) const {
  return strict_ ? field_words(locale_, child_path(key), words_) : child_path(key);
}

std::string Reader::child_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void Reader::wrong_type(std::string_view key, const char* type_code, const nlohmann::json& got) const {
  std::string p = child_path(key);
  fail(locale_, "wrong_type", p, message(locale_, "wrong_type", {words(key), message(locale_, type_code), describe(got)}));
}

std::optional<Reader> Reader::object(std::string_view key) const { return object(key, FieldNames{}); }

std::optional<Reader> Reader::object(std::string_view key, FieldNames fields) const {
  const auto* v = get(key);
  if (!v) return std::nullopt;
  if (!v->is_object()) {
    wrong_type(key, "type.object", *v);
    return std::nullopt;
  }
  if (strict_) return Reader(*v, child_path(key), locale_, fields);
  return Reader(*v, child_path(key), locale_);
}

std::optional<std::string> Reader::string(std::string_view key) const {
  const auto* v = get(key);
  if (!v) return std::nullopt;
  if (!v->is_string()) {
    wrong_type(key, "type.string", *v);
    return std::nullopt;
  }
  return v->get<std::string>();
}

std::optional<bool> Reader::boolean(std::string_view key) const {
  const auto* v = get(key);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) {
    wrong_type(key, "type.boolean", *v);
    return std::nullopt;
  }
  return v->get<bool>();
}

std::optional<double> Reader::number(std::string_view key, double min, double max) const {
  const auto* v = get(key);
  if (!v) return std::nullopt;
  if (!v->is_number()) {
    wrong_type(key, "type.number", *v);
    return std::nullopt;
  }
  double x = v->get<double>();
  if (!std::isfinite(x) || x < min || x > max) {
    std::string p = child_path(key);
    fail(locale_, "out_of_range", p,
         message(locale_, "out_of_range", {words(key), field_amount(locale_, p, min), field_amount(locale_, p, max),
                                           field_has_unit(p) && std::isfinite(x) ? field_amount(locale_, p, x) : describe(*v)}));
    return std::nullopt;
  }
  return x;
}

std::optional<int> Reader::integer(std::string_view key, int64_t min, int64_t max) const {
  const auto* v = get(key);
  if (!v) return std::nullopt;
  if (!v->is_number()) {
    wrong_type(key, "type.integer", *v);
    return std::nullopt;
  }
  double x = v->get<double>();
  std::string p = child_path(key);
  if (!std::isfinite(x) || x != std::floor(x)) {
    fail(locale_, "not_integer", p, message(locale_, "not_integer", {words(key), describe(*v)}));
    return std::nullopt;
  }
  if (x < double(min) || x > double(max)) {
    fail(locale_, "out_of_range", p,
         message(locale_, "out_of_range", {words(key), format_number(double(min)), format_number(double(max)), describe(*v)}));
    return std::nullopt;
  }
  return static_cast<int>(x);
}

std::optional<size_t> Reader::choice(std::string_view key, std::initializer_list<std::string_view> allowed) const {
  auto s = string(key);
  if (!s) return std::nullopt;
  size_t i = 0;
  for (auto a : allowed) {
    if (*s == a) return i;
    ++i;
  }
  std::string list;
  for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
  unknown_value(key, list);
  return std::nullopt;
}

void Reader::unknown_value(std::string_view key, const std::string& allowed) const {
  std::string p = child_path(key);
  fail(locale_, "unknown_value", p, message(locale_, "unknown_value", {words(key), allowed, describe(*get(key))}));
}

const nlohmann::json* Reader::array(std::string_view key) const {
  const auto* v = get(key);
  if (!v) return nullptr;
  if (!v->is_array()) {
    wrong_type(key, "type.array", *v);
    return nullptr;
  }
  return v;
}

const nlohmann::json* Reader::array(std::string_view key, size_t max_items) const {
  const auto* v = array(key);
  if (v && v->size() > max_items) {
    std::string p = child_path(key);
    fail(locale_, "out_of_range", p,
         message(locale_, "out_of_range.items", {words(key), std::to_string(max_items), std::to_string(v->size())}));
    return nullptr;
  }
  return v;
}

namespace {

const nlohmann::json& element_object(const nlohmann::json& array, const std::string& path, size_t index, Locale locale,
                                     bool strict) {
  const auto& v = array[index];
  if (!v.is_object()) {
    fail(locale, "wrong_type", path,
         message(locale, "wrong_type", {strict ? field_words(locale, path) : path, message(locale, "type.object"), describe(v)}));
    // What the caller reads on, finding nothing, until it checks read_failed().
    static const nlohmann::json empty = nlohmann::json::object();
    return empty;
  }
  return v;
}

}  // namespace

Reader element(const nlohmann::json& array, size_t index, const std::string& array_path, Locale locale) {
  std::string p = array_path + "[" + std::to_string(index) + "]";
  return Reader(element_object(array, p, index, locale, false), p, locale);
}

Reader element(const nlohmann::json& array, size_t index, const std::string& array_path, Locale locale,
               FieldNames fields) {
  std::string p = array_path + "[" + std::to_string(index) + "]";
  return Reader(element_object(array, p, index, locale, true), p, locale, fields);
}

}  // namespace gpuplan
