// The OOM doctor's part of the response: remedies as request patches with
// their new memory and time, and the speed tips, in the request's locale.
#pragma once

#include "gpuplan/locale.h"
#include "gpuplan/oom_doctor.h"
#include "text/json_writer.h"

namespace gpuplan {

// Writes the diagnosis as one JSON object (keys in ascending order, json_writer.h).
// Its figures go through the writer's finite() and bytes(), like the rest of
// the response: a non-finite factor is the writer's failure (the "internal"
// error), never a 0 or a null; a byte count beyond int64 saturates.
void write_json(JsonWriter& writer, const Diagnosis& diagnosis, Locale locale);

}  // namespace gpuplan
