// The planning section (contract "Planning section"): from the
// experiment's stages to a GPU, count, platform and billing option per stage,
// their cost, the budget split and what to change when it does not fit.
// Every choice carries its reason; the policy follows the seed articles and is
// documented in docs/api.md ("How the planner decides").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/pricing.h"
#include "gpuplan/request.h"

namespace gpuplan {

enum class Category { single_gpu_small, single_gpu_large, multi_gpu, inference_eval };
const char* category_id(Category c);

// Spot / preemptible details of an option (gpuplan/pricing.h, estimate_spot).
struct SpotDetail {
  double interruptions_per_hour = 0;
  bool interruptions_assumed = false;      // the platform publishes no rate: the planner's assumption
  double checkpoint_seconds = 0;           // time to write one checkpoint
  double checkpoint_interval_hours = 0;    // Young/Daly √(2·C·MTBF)
  double overhead_fraction = 0;            // extra wall time over the on-demand run
  double expected_interruptions = 0;
};

// A change the planner made to the request's workload (contract v1.1
// `plan.stages[].workload_changes`): the field as the request spells it and
// its new value as JSON text (true, "adamw-8bit", 2).
struct WorkloadChange {
  std::string field;
  std::string value;
};

// One way to run a stage.
struct StageOption {
  std::string gpu;
  std::string platform;
  Billing billing = Billing::on_demand;
  int gpus_per_run = 1;          // data-parallel GPUs one run uses
  int parallel_runs = 1;         // runs side by side on one instance
  bool separate_rentals = false; // one instance per run instead of one for the stage
  int count = 1;                 // GPUs per instance: gpus_per_run × parallel_runs
  int instances = 1;
  double price_per_gpu_hour = 0; // in the plan's currency, discounts applied
  double run_hours = 0;          // wall hours of one run, spot overhead included
  double wall_hours = 0;         // the stage from first start to last result
  double hours = 0;              // billed instance hours, all instances summed
  double compute_cost = 0;
  double storage_cost = 0;
  double cost = 0;               // compute + storage − credit
  double credit = 0;             // education credits spent on this stage (chosen option only)
  bool tight_memory = false;     // fits only inside the safety headroom
  std::string fit = "comfortable";  // "comfortable" or "tight" (the one verdict, evaluation.h)
  double memory_bytes = 0;       // per GPU (what nvidia-smi shows) of one run, workload_changes applied
  Sharding sharding = Sharding::none;
  // The sharding as the response names it (contract v1.2): the training
  // names ("none", "ddp", "zero1".."zero3"), and for inference over several
  // cards what runs: "tensor" (tensor-parallel), "layers" (a layer split,
  // the cards one after another) or "replicas" (a copy on each card).
  std::string sharding_name = "none";
  bool alters_results = false;   // a change that moves the numbers (8-bit optimizer states)
  std::vector<WorkloadChange> workload_changes;  // what the planner changed so that it fits
  bool education_discount = false;
  std::optional<SpotDetail> spot;
  OfferRef offer;                // the price this option rests on (contract v1.2)
  double cost_low = 0;           // the cost range: the price's range and the time model's (contract v1.2)
  double cost_high = 0;
  // The lab's cards or its campus queue (plan/lab_options.cpp): the wait
  // before the stage starts (in wall_hours too), and the power the lab's
  // cards draw when the lab charges it.
  double wait_hours = 0;
  std::optional<ElectricityCharge> electricity;
};

// A price that may not price a plan (a floor, a promotion, a low-confidence
// figure) for the stage's card, lower than the plan's: shown beside the
// stage as "may be as low as ..., unverified", never as its cost.
struct PriceReference {
  OfferRef offer;
  double price_per_gpu_hour = 0;  // plan currency
  double cost = 0;                // the chosen option's rental at this price
  std::string message;            // in the request's locale
};

struct Alternative {
  std::string kind;  // "cheapest", "fastest", "best-value"
  StageOption option;
};

// The data disk a stage finds where an earlier stage left it (contract v1.2
// warning `disk_after_stop`; docs/api.md, "Between stages"): the instance
// sits stopped in between, and the platform may bill or erase the disk.
// Not in the plan's total: copying the data off and deleting the disk is
// the other way.
struct DiskAfterStop {
  std::string platform;
  double disk_gb = 0;
  std::optional<double> gap_days;        // nullopt: not known (a revision waits for the reviews)
  std::optional<bool> bills;             // nullopt: the catalog does not say
  std::optional<double> per_month;       // plan currency; nullopt: not billed, or its price unknown
  std::optional<double> cost;            // for the gap, plan currency; nullopt: the gap or the price unknown
  std::optional<double> wiped_after_days;  // the platform erases a disk stopped this long
  bool wiped = false;                    // the gap outlasts it (or, unknown, may)
};

struct StagePlan {
  Stage stage = Stage::formal;
  int runs = 1;
  double data_fraction = 1;
  bool feasible = false;         // some option exists
  StageOption chosen;
  std::vector<Alternative> alternatives;
  std::vector<StageOption> pareto;  // cost vs wall time, cheapest first
  double upload_hours = 0;       // dataset upload before this stage (a new platform)
  double share = 0;              // of the total cost
  std::optional<PriceReference> reference;
  std::string why;               // the reason for the choice, in the request's locale
  std::optional<DiskAfterStop> disk_after_stop;
  // A debug stage: seed 003's shrunk run beside the full-size one (the model's
  // hidden size halved, on the stage's share of the data), planned as its own
  // stage; its workload_changes name the model's changed dimensions.
  std::optional<StageOption> shrunk;
};

// A change that would bring an over-budget plan down, with its saving.
struct BudgetChange {
  std::string code;     // "qlora", "grad-accumulation", "spot", "fewer-runs", "campus"
  double saving = 0;    // in the plan's currency
  double new_total = 0;
  bool saving_is_upper_bound = false;
  std::string message;
  // The change as a JSON merge patch (RFC 7396) on the request, so that a
  // page or a script applies exactly what was priced: request fields
  // ("workload.method", "prefs.platforms") with their JSON values, and, when
  // the change sets runs, the request's whole stage list as changed (a merge
  // patch replaces an array). Both empty: no patch (a campus centre whose
  // rate the student has not given yet).
  std::vector<WorkloadChange> patch;
  std::vector<StageRequest> stages;
};

struct RentVsBuyPlan {
  std::string gpu;
  double gpu_hours = 0;
  double rent_per_gpu_hour = 0;
  double purchase_per_gpu = 0;
  double electricity_per_kwh = 0;
  double watts_per_gpu = 0;
  double rent_cost = 0;
  double buy_cost = 0;
  double break_even_gpu_hours = 0;
  double utilization_to_break_even = 0;
  double depreciation_per_year = 0;
  std::string cheaper;  // "rent" or "buy"
  std::string source;   // where the purchase price came from
};

struct GroupRentalPlan {
  int people = 1;
  int gpus = 8;
  std::string gpu;
  std::string platform;
  Billing billing = Billing::on_demand;
  double machine_per_month = 0;
  double per_person_per_month = 0;
  double per_person_gpu_hours_per_month = 0;  // the member's own GPU hours (this plan's) per month of the rental
  double hourly_equivalent_per_month = 0;  // the member's own GPU hours rented by the hour
  double saving_fraction = 0;              // 1 − per_person / hourly_equivalent; negative when sharing costs more
  double group_gpu_hours = 0;              // people × this plan's GPU hours
  double months = 1;                       // whole months of the machine the group's hours need
  double utilization = 0;                  // group_gpu_hours / (months × gpus × 720)
};

struct Advice {
  std::string code;
  std::string message;
};

struct PlanWarning {
  std::string code;
  std::string message;
};

struct PlanResult {
  Category category = Category::single_gpu_small;
  bool feasible = true;                     // false: some requested stage has no option
  std::string category_advice;
  std::vector<StagePlan> stages;
  double total_cost = 0;
  double total_cost_low = 0;     // the stages' cost ranges summed (contract v1.2)
  double total_cost_high = 0;
  std::vector<Billing> billings;            // what the in-scope offers have, whatever prefs.billing asks (spelling order)
  std::vector<std::string> platforms;       // the catalog's platforms in the request's scope (prefs.scope, prefs.platforms), catalog order
  std::string currency = "CNY";
  bool within_budget = true;
  std::optional<double> budget;             // in `currency`
  double deadline_hours = 0;                // 0: none
  double wall_hours = 0;                    // all stages and uploads, one after another
  bool meets_deadline = true;
  std::vector<BudgetChange> changes;        // ranked by saving, when over budget
  std::vector<Advice> advice;
  std::optional<RentVsBuyPlan> rent_vs_buy;
  std::optional<GroupRentalPlan> group;
  std::vector<PlanWarning> warnings;
};

// Plans the request's stages against the catalog; empty stages give an empty plan.
PlanResult plan_stages(const Request& request, const Catalog& catalog);

}  // namespace gpuplan
