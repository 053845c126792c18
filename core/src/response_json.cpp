#include "response_json.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace gpuplan {
namespace {

// NaN or Infinity must never reach a user: a non-finite figure is a bug, and
// the boundary turns it into an "internal" error rather than printing null.
double finite(double x, const char* what) {
  if (!std::isfinite(x)) throw std::runtime_error(std::string("non-finite value in ") + what);
  return x;
}

int64_t bytes(double x, const char* what) { return static_cast<int64_t>(std::llround(finite(x, what))); }

nlohmann::json memory_json(const MemoryEstimate& m) {
  nlohmann::json components = nlohmann::json::array();
  for (const auto& c : m.components) components.push_back({{"id", c.id}, {"bytes", bytes(c.bytes, "components")}});
  return {{"per_gpu",
           {{"allocated_bytes", bytes(m.allocated_bytes, "allocated_bytes")},
            {"reserved_bytes", bytes(m.reserved_bytes, "reserved_bytes")},
            {"total_bytes", bytes(m.total_bytes, "total_bytes")}}},
          {"components", components}};
}

nlohmann::json throughput_json(const Throughput& t) {
  return {{"samples_per_s", finite(t.samples_per_s, "samples_per_s")},
          {"tokens_per_s", finite(t.tokens_per_s, "tokens_per_s")},
          {"step_seconds", finite(t.step_seconds, "step_seconds")},
          {"utilization", finite(t.utilization, "utilization")},
          {"scaling_efficiency", finite(t.scaling_efficiency, "scaling_efficiency")},
          {"low_factor", finite(t.low_factor, "low_factor")},
          {"high_factor", finite(t.high_factor, "high_factor")},
          // Time model extras (docs/time-model.md): the unit the precision runs on and
          // the per-GPU rates seed 004's cost-effectiveness coefficient divides by price.
          {"compute_unit", std::string(compute_unit_name(t.unit))},
          {"peak_tflops", finite(t.peak_tflops, "peak_tflops")},
          {"achieved_tflops", finite(t.achieved_tflops, "achieved_tflops")},
          {"fp32_peak_tflops", finite(t.fp32_peak_tflops, "fp32_peak_tflops")},
          {"bandwidth_bound", t.bandwidth_bound},
          {"step_breakdown_seconds",
           {{"compute", finite(t.step.compute_seconds, "step.compute")},
            {"memory", finite(t.step.memory_seconds, "step.memory")},
            {"optimizer", finite(t.step.optimizer_seconds, "step.optimizer")},
            {"kernel_tail", finite(t.step.kernel_tail_seconds, "step.kernel_tail")},
            {"host", finite(t.step.host_seconds, "step.host")},
            {"communication", finite(t.step.communication_seconds, "step.communication")},
            {"exposed_communication", finite(t.step.exposed_communication_seconds, "step.exposed_communication")}}}};
}

}  // namespace

nlohmann::json to_json(const Response& r) {
  nlohmann::json out;
  nlohmann::json memory = memory_json(r.memory);
  memory["headroom"] = finite(r.headroom, "headroom");
  memory["recommended_bytes"] = bytes(r.recommended_bytes, "recommended_bytes");
  out["memory"] = memory;
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& g : r.gpus) {
    gpus.push_back({{"id", g.id},
                    {"fits", g.fits},
                    {"count", g.count},
                    {"memory_total_bytes", bytes(g.memory.total_bytes, "gpus.memory")},
                    {"throughput", throughput_json(g.throughput)},
                    {"hours", finite(g.hours, "hours")},
                    {"hours_low", finite(g.hours / std::max(1e-9, g.throughput.high_factor), "hours_low")},
                    {"hours_high", finite(g.hours / std::max(1e-9, g.throughput.low_factor), "hours_high")}});
  }
  out["gpus"] = gpus;
  nlohmann::json warnings = nlohmann::json::array();
  for (const auto& w : r.warnings) warnings.push_back({{"code", w.code}, {"message", w.message}});
  out["warnings"] = warnings;
  return out;
}

nlohmann::json to_json(const Error& e) {
  return {{"error", {{"code", e.code}, {"path", e.path}, {"message", e.message}}}};
}

}  // namespace gpuplan
