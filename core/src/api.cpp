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
    if (!request.ok()) return {to_json(request.error()).dump(), 2};
    return {to_json(plan(request.value(), catalog)).dump(), 0};
  } catch (const std::exception& e) {
    return {to_json(Error{"internal", "", message(Locale::en, "internal", {e.what()})}).dump(), 3};
  } catch (...) {
    return {to_json(Error{"internal", "", message(Locale::en, "internal", {"unknown"})}).dump(), 3};
  }
}

}  // namespace gpuplan
