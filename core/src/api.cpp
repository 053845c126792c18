// The JSON boundary. Every exception stops here and becomes an error value,
// so neither the CLI nor JavaScript ever sees a crash or a bare number.
#include "gpuplan/api.h"

#include <exception>
#include <utility>

#include "gpuplan/plan.h"
#include "gpuplan/request.h"
#include "text/messages.h"
#include "write/response_json.h"

namespace gpuplan {
namespace {

// The texts that reach it are ASCII: what() of libc++'s bad_alloc and
// length_error, the only exceptions left once the readers' InputError is
// caught (nlohmann never throws on these paths: core/CMakeLists.txt), so the
// writer cannot refuse them, and the page carries no fallback for a case
// that cannot occur.
JsonReply internal_error(Locale locale, const char* what) {
  return {error_json_text(Error{"internal", "", message(locale, "internal", {what})}).value(), 3};
}

// A written reply with its exit status, or, when the writer refused something
// (a bug: response_json.h), the internal error it names, exit 3. Its text is
// ASCII in ordered keys, so writing it cannot fail in turn.
JsonReply reply(Result<std::string> text, int exit_code) {
  if (text.ok()) return {std::move(text.value()), exit_code};
  return {error_json_text(text.error()).value(), 3};
}

}  // namespace

JsonReply too_large_json(std::string_view head, std::size_t size_bytes) {
  const Locale l = request_locale(head);
  const std::string limit = format_number(double(kMaxRequestBytes));
  const std::string text = size_bytes ? message(l, "too_large", {format_number(double(size_bytes)), limit}) : message(l, "too_large.over", {limit});
  return reply(error_json_text(Error{"too_large", "", text}), 2);
}

JsonReply plan_json(std::string_view request_json, const Catalog& catalog) {
  // The writer reports its failures as values; what can still throw here is
  // the request and catalog readers' own errors they did not catch, and
  // std::bad_alloc.
  try {
    Result<Request> request = parse_request(request_json, catalog);
    if (!request.ok()) return reply(error_json_text(request.error()), 2);
    return reply(response_json_text(plan(request.value(), catalog)), 0);
  } catch (const std::exception& e) {
    // In the request's language like every other error (read from its raw
    // text: the parsed request may be what failed).
    return internal_error(request_locale(request_json), e.what());
  } catch (...) {
    return internal_error(request_locale(request_json), "unknown");
  }
}

}  // namespace gpuplan
