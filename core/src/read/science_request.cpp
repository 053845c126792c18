#include "read/science_request.h"

#include "text/field_words.h"
#include "text/messages.h"

namespace gpuplan {
namespace {

constexpr std::string_view kBaselineFields[] = {"gpu", "count", "unit", "rate"};

}  // namespace

ScienceWorkload read_science(const Reader& r, const Catalog& catalog) {
  Locale l = r.locale();
  ScienceWorkload w;
  if (auto v = r.spelled("kind", kScienceKindSpellings)) w.kind = *v;
  // Defaults follow the kind: MD engines run mixed single precision and are
  // compute-bound; CFD and FEM solvers are fp64 and bandwidth-bound.
  if (w.kind == ScienceKind::cfd || w.kind == ScienceKind::fem) {
    w.precision = SciencePrecision::fp64;
    w.bound = ScienceBound::bandwidth;
  }
  if (auto v = r.spelled("precision", kSciencePrecisionSpellings)) w.precision = *v;
  if (auto v = r.spelled("bound", kScienceBoundSpellings)) w.bound = *v;
  auto baseline = r.object("baseline", kBaselineFields);
  if (!baseline) {
    std::string p = r.child_path("baseline");
    fail(l, "missing_field", p, message(l, "missing_field", {field_words(l, p), message(l, "why.science_baseline")}));
    return w;
  }
  w.baseline.gpu = baseline->string("gpu").value_or("");
  if (!catalog.find_gpu(w.baseline.gpu)) {
    std::string p = baseline->child_path("gpu");
    fail(l, "unknown_gpu", p, message(l, "unknown_gpu", {field_words(l, p), describe(baseline->json().value("gpu", nlohmann::json()))}));
    return w;
  }
  if (auto v = baseline->integer(limit::science_count)) w.baseline.count = *v;
  if (auto v = baseline->spelled("unit", kRateUnitSpellings)) w.baseline.unit = *v;
  auto rate = baseline->number(limit::science_rate);
  if (!rate) {
    std::string p = baseline->child_path("rate");
    fail(l, "missing_field", p, message(l, "missing_field", {field_words(l, p), message(l, "why.science_baseline")}));
    return w;
  }
  w.baseline.rate = *rate;
  if (auto v = r.number(limit::science_job)) w.job = *v;
  if (auto v = r.number(limit::science_memory_gb)) w.memory_bytes = *v * 1e9;
  return w;
}

}  // namespace gpuplan
