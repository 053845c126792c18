// The JSON boundary. Every exception stops here and becomes an error value,
// so neither the CLI nor JavaScript ever sees a crash or a bare number.
#include "gpuplan/api.h"

#include <exception>

#include "gpuplan/plan.h"
#include "gpuplan/request.h"
#include "messages.h"
#include "response_json.h"

namespace gpuplan {

JsonReply plan_json(std::string_view request_json, const Catalog& catalog) {
  try {
    Result<Request> request = parse_request(request_json, catalog);
    if (!request.ok()) return {error_json_text(request.error()), 2};
    return {response_json_text(plan(request.value(), catalog)), 0};
  } catch (const std::exception& e) {
    return {error_json_text(Error{"internal", "", message(Locale::en, "internal", {e.what()})}), 3};
  } catch (...) {
    return {error_json_text(Error{"internal", "", message(Locale::en, "internal", {"unknown"})}), 3};
  }
}

}  // namespace gpuplan
