// Errors are values: a stable code, the JSON path of the offending field and a
// message in the request's locale (after nlohmann/json's exception ids and
// zxing-cpp's Error). Nothing in the public API throws.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace gpuplan {

struct Error {
  std::string code;     // stable id, e.g. "unknown_preset", "out_of_range"
  std::string path;     // JSON path of the field, e.g. "workload.micro_batch"
  std::string message;  // what was expected and what was given, localized
};

// A value or an error; the small subset of std::expected (C++23) we need.
template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}
  bool ok() const { return v_.index() == 0; }
  const T& value() const { return std::get<0>(v_); }
  T& value() { return std::get<0>(v_); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace gpuplan
