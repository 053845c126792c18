#include "text/names.h"

namespace gpuplan {
namespace {

// The tables' names are string literals, so their data() is NUL-terminated.
template <class E, std::size_t N>
const char* written(const Spelling<E> (&table)[N], E v) {
  const std::string_view name = spelling_of(table, v);
  return name.empty() ? "" : name.data();
}

}  // namespace

const char* name_of(Mode v) { return written(kModeSpellings, v); }
const char* name_of(Method v) { return written(kMethodSpellings, v); }
const char* name_of(Precision v) { return written(kPrecisionSpellings, v); }
const char* name_of(Optimizer v) { return written(kOptimizerSpellings, v); }
const char* name_of(Sharding v) { return written(kShardingSpellings, v); }
const char* name_of(LoraTargets v) { return written(kLoraTargetsSpellings, v); }
const char* name_of(Loss v) { return written(kLossSpellings, v); }
const char* name_of(Billing v) { return written(kBillingSpellings, v); }
const char* name_of(PriceKind v) { return written(kPriceKindSpellings, v); }
const char* name_of(Stage v) { return written(kStageSpellings, v); }
const char* name_of(ModelKind v) { return written(kModelKindSpellings, v); }
const char* name_of(PlatformKind v) { return written(kPlatformKindSpellings, v); }

}  // namespace gpuplan
