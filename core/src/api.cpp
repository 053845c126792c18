// The JSON boundary. Every failure reaches it as an error value: the readers
// record theirs (read/json_reader.h), the writer its own (text/json_writer.h),
// and the core is built without exceptions (core/CMakeLists.txt), so neither
// the CLI nor JavaScript ever sees a crash or a bare number.
#include "gpuplan/api.h"

#include <utility>

#include "gpuplan/plan.h"
#include "gpuplan/request.h"
#include "text/messages.h"
#include "write/response_json.h"

namespace gpuplan {
namespace {

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
  Result<Request> request = parse_request(request_json, catalog);
  if (!request.ok()) return reply(error_json_text(request.error()), 2);
  return reply(response_json_text(plan(request.value(), catalog)), 0);
}

}  // namespace gpuplan
