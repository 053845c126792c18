// The one function behind the CLI, the wasm module and the page:
// a validated request in, the whole answer out.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/memory.h"
#include "gpuplan/planner.h"
#include "gpuplan/oom_doctor.h"
#include "gpuplan/request.h"
#include "gpuplan/science.h"
#include "gpuplan/throughput.h"

namespace gpuplan {

struct Warning {
  std::string code;
  std::string message;  // in the request's locale
};

// What one run of the request's `data` costs on a GPU at its count, on its
// cheapest in-scope offer, priced as the plan prices (gpuplan/pricing.h).
struct GpuCost {
  double cost = 0;            // in the plan's currency (the budget's, else CNY)
  std::string platform;
  Billing billing = Billing::on_demand;
  double price_per_gpu_hour = 0;  // the offer's, plan currency, discounts applied
  // Seed 004's coefficient on that price (throughput.h cost_effectiveness):
  // TFLOPS per (plan currency / GPU-hour), contract v1.2 gpus[].cost_effectiveness.
  CostEffectiveness effectiveness;
  OfferRef offer;             // the price it rests on (contract v1.2)
};

struct GpuResult {
  std::string id;
  bool fits = false;          // fit != no
  std::string fit = "no";     // "comfortable", "tight", "no" (evaluation.h fit_verdict)
  std::optional<GpuCost> cost;  // with `data` and an in-scope offer
  int count = 1;              // fewest GPUs of this type that run the workload
  MemoryEstimate memory;      // per GPU at `count`
  double engine_pool_bytes = 0;  // per GPU: what a serving engine pre-allocates (memory.h); 0 for other stacks
  Throughput throughput;      // at `count`
  double hours = 0;           // wall-clock hours for the request's data; 0 without data
  FitLimits limits;           // largest micro-batch / sequence that fit this card at `count` (memory.h)
  std::optional<ScienceResult> science;  // workload.mode "science" (docs/science.md)
};

// The display currency (prefs.display_currency, docs/api.md "Money"): what
// one unit of each currency is in it, at the catalog's rate; a currency with
// no usable rate is absent, and its figures stay in their own currency.
struct DisplayRates {
  std::string currency;
  std::string as_of;  // the rate's date (catalog fx)
  std::vector<std::pair<std::string, double>> rates;
};

struct Response {
  MemoryEstimate memory;      // per GPU under the request's own GPU count and sharding
  double headroom = kDefaultHeadroom;
  double recommended_bytes = 0;
  std::vector<GpuResult> gpus;
  std::vector<Warning> warnings;
  Locale locale = Locale::zh_CN;       // of every text in the response
  std::optional<Diagnosis> oom_doctor;  // with `hardware`: what makes it fit that card (docs/oom-doctor.md)
  std::optional<PlanResult> plan;       // with `stages`: the plan (gpuplan/planner.h, docs/api.md)
  DisplayRates display;                 // prefs.display_currency (default CNY) and its rates
};

Response plan(const Request& request, const Catalog& catalog);

}  // namespace gpuplan
