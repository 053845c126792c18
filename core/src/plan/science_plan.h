// plan() for workload.mode "science": per card, the baseline moved by the
// bounding resource, the job's hours, and whether the card starves FP64 work.
#pragma once

#include "gpuplan/plan.h"

namespace gpuplan {

Response plan_science(const Request& request, const Catalog& catalog);

}  // namespace gpuplan
