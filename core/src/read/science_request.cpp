#include "science_request.h"

#include "messages.h"

namespace gpuplan {

ScienceWorkload read_science(const Reader& r, const Catalog& catalog) {
  Locale l = r.locale();
  ScienceWorkload w;
  if (auto v = r.choice("kind", {"md", "cfd", "fem", "other"})) w.kind = ScienceKind(*v);
  // Defaults follow the kind: MD engines run mixed single precision and are
  // compute-bound; CFD and FEM solvers are fp64 and bandwidth-bound.
  if (w.kind == ScienceKind::cfd || w.kind == ScienceKind::fem) {
    w.precision = SciencePrecision::fp64;
    w.bound = ScienceBound::bandwidth;
  }
  if (auto v = r.choice("precision", {"fp64", "fp32", "mixed"})) w.precision = SciencePrecision(*v);
  if (auto v = r.choice("bound", {"compute", "bandwidth"})) w.bound = ScienceBound(*v);
  auto baseline = r.object("baseline");
  if (!baseline) {
    std::string p = r.child_path("baseline");
    fail(l, "missing_field", p, message(l, "missing_field", {p, message(l, "why.science_baseline")}));
  }
  w.baseline.gpu = baseline->string("gpu").value_or("");
  if (!catalog.find_gpu(w.baseline.gpu)) {
    std::string p = baseline->child_path("gpu");
    fail(l, "unknown_gpu", p, message(l, "unknown_gpu", {p, describe(baseline->json().value("gpu", nlohmann::json()))}));
  }
  if (auto v = baseline->integer("count", 1, 4096)) w.baseline.count = *v;
  if (auto v = baseline->choice("unit", {"ns/day", "steps/s", "hours"})) w.baseline.unit = RateUnit(*v);
  auto rate = baseline->number("rate", 1e-9, 1e12);
  if (!rate) {
    std::string p = baseline->child_path("rate");
    fail(l, "missing_field", p, message(l, "missing_field", {p, message(l, "why.science_baseline")}));
  }
  w.baseline.rate = *rate;
  if (auto v = r.number("job", 0, 1e15)) w.job = *v;
  if (auto v = r.number("memory_gb", 0, 1e5)) w.memory_bytes = *v * 1e9;
  return w;
}

}  // namespace gpuplan
