// The JSON boundary. Every exception stops here and becomes an error value,
// so neither the CLI nor JavaScript ever sees a crash or a bare number.
#include "gpuplan/api.h"

#include <exception>
#include <utility>

#include "gpuplan/plan.h"
#include "gpuplan/request.h"
#include "messages.h"
#include "response_json.h"

namespace gpuplan {
namespace {

// An exception's text is not ours (a library's what() may not even be valid
// UTF-8); if the writer refuses it, the reply says so in words that it cannot.
JsonReply internal_error(const char* what) {
  Result<std::string> text = error_json_text(Error{"internal", "", message(Locale::en, "internal", {what})});
  if (!text.ok()) text = error_json_text(Error{"internal", "", message(Locale::en, "internal", {"(unprintable)"})});
  return {std::move(text.value()), 3};
}

// A written reply with its exit status, or, when the writer refused something
// (a bug: response_json.h), the internal error it names, exit 3. Its text is
// ASCII in ordered keys, so writing it cannot fail in turn.
JsonReply reply(Result<std::string> text, int exit_code) {
  if (text.ok()) return {std::move(text.value()), exit_code};
  return {error_json_text(text.error()).value(), 3};
}

}  // namespace

JsonReply plan_json(std::string_view request_json, const Catalog& catalog) {
  // The writer reports its failures as values; what can still throw here is
  // the request and catalog readers' own errors they did not catch, and
  // std::bad_alloc.
  try {
    Result<Request> request = parse_request(request_json, catalog);
    if (!request.ok()) return reply(error_json_text(request.error()), 2);
    return reply(response_json_text(plan(request.value(), catalog)), 0);
  } catch (const std::exception& e) {
    return internal_error(e.what());
  } catch (...) {
    return internal_error("unknown");
  }
}

}  // namespace gpuplan
