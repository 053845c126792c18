// What renting costs: billing rules, spot as an expected cost, storage, upload
// and rent-versus-buy. Pure arithmetic on figures the catalog or the request
// supplies; formulas and their sources: docs/api.md ("Cost model").
#pragma once

#include <optional>
#include <string_view>

#include "gpuplan/catalog.h"

namespace gpuplan {

inline constexpr double kSecondsPerHour = 3600;
inline constexpr double kHoursPerMonth = 720;   // a monthly package (包月) runs 30 days on the Chinese marketplaces
inline constexpr double kHoursPerYear = 8760;
// Hours one package period of a billing buys (0: billed by use, not by period):
// daily and weekly packages (contract v1.1) are 24 and 168 hours.
constexpr double package_period_hours(Billing b) {
  switch (b) {
    case Billing::daily: return 24;
    case Billing::weekly: return 7 * 24;
    case Billing::monthly: return kHoursPerMonth;
    case Billing::yearly: return kHoursPerYear;
    case Billing::on_demand:
    case Billing::spot:
    case Billing::off_peak: return 0;
  }
  return 0;
}
constexpr bool is_package(Billing b) { return package_period_hours(b) > 0; }

// What a price is (contract v1.2: `offer` on plan.stages[] and gpus[]): where
// it comes from, what kind of figure it is, how good and how old.
struct OfferRef {
  std::string platform;
  std::string gpu;
  Billing billing = Billing::on_demand;
  PriceKind price_kind = PriceKind::list;
  std::string as_of;       // as precise as the source; empty for a quote without a date
  std::string confidence;  // "high", "medium", "low"; "quote" for the student's own
  std::string source;      // as the page may show it (page_source_label); "quote" for a quote
  bool stale = false;      // as_of more than six months before the catalog's date
  bool derived = false;    // spot / off-peak computed from the platform's stated discount
};

// `amount` in `from` expressed in `to` (CNY or USD) at the catalog's rate.
double convert_currency(double amount, std::string_view from, std::string_view to, const ExchangeRate& fx);

// Seconds a platform bills for `used_seconds` of one instance: rounded up to
// the billing granularity, and never below the minimum charge. A zero-length
// use bills nothing (no instance was started).
double billed_seconds(double used_seconds, double granularity_seconds, double minimum_charge_seconds);

// Hours a package bills for `used_hours`: whole days, weeks, months or years,
// since a package is paid up front whatever the use.
double package_billed_hours(double used_hours, Billing billing);

// Spot / preemptible instances as an expected cost. With interruptions at rate
// λ (MTBF M = 1/λ), checkpoints that take C seconds to write and R seconds to
// restart after a reclaim, the checkpoint interval that minimises lost time is
// Young's τ = √(2·C·M) (J. W. Young, "A first order approximation to the
// optimum checkpoint interval", CACM 17(9), 1974; Daly, FGCS 22(3), 2006 shows
// it is the first-order term of the exact optimum). The expected wall time for
// W seconds of work is then, to first order,
//   wall = W·(1 + C/τ) / (1 − (τ/2 + R)/M)
// (checkpoint writes, plus on each interruption half an interval of lost work
// and the restart). When the denominator is not positive, interruptions come
// faster than the job can make progress, and spot is infeasible.
struct SpotEstimate {
  bool feasible = true;
  double checkpoint_interval_seconds = 0;  // τ; 0 when there are no interruptions
  double overhead_fraction = 0;            // wall / work − 1
  double expected_interruptions = 0;       // over the whole wall time
};
SpotEstimate estimate_spot(double work_seconds, double checkpoint_seconds, double restart_seconds,
                           double interruptions_per_hour);

// ---- One rental, priced (one pricing path). The planner's
// every candidate and each gpus[] row's `cost` come from price_rental, so the
// GPU table and the plan cannot disagree on the same card, platform and billing.

// One rental's start: create the instance, load the image, mount the data.
// Fixing an environment by hand usually takes under half an hour; with a
// saved image it is minutes. A quarter hour is billed per rental.
inline constexpr double kSetupHours = 0.25;
// Checkpoints are written to the instance's cloud disk. Alibaba Cloud ESSD PL0
// gives up to 180 MB/s and PL1 350 MB/s (help.aliyun.com/document_detail/122389,
// "ESSD 性能"); 200 MB/s is a typical data disk.
inline constexpr double kCheckpointWriteBytesPerSecond = 200e6;
// After a reclaim: a new instance, the image and the checkpoint read back.
inline constexpr double kRestartSeconds = 600;
// Off-peak windows (nights and weekends, seeds 000 and 003): a job that runs
// only inside them progresses about half of the wall-clock time.
inline constexpr double kOffPeakWindowFraction = 0.5;
// Where a platform sells spot capacity but publishes no reclaim rate (none of
// the catalog's do; AWS's Spot Instance Advisor gives only monthly buckets),
// the planner assumes one reclaim per day of running, and says so
// (`interruptions_assumed`). Pass a rate in the catalog to replace it.
inline constexpr double kAssumedSpotInterruptionsPerHour = 1.0 / 24;

// The reclaim rate spot is priced at on `p`: the catalog's, else the assumption above.
double spot_interruptions_per_hour(const Platform& p);

// What one offer bills, in the plan's currency.
struct RentalTerms {
  double price_per_gpu_hour = 0;   // discounts applied; 0 is a price (a free campus centre)
  Billing billing = Billing::on_demand;
  double granularity_seconds = 3600;
  double minimum_charge_seconds = 0;
  double minimum_charge = 0;  // smallest compute charge of one start, plan currency (AutoDL: 0.01 CNY)
  double storage_per_gb_month = 0;
  double free_storage_gb = 0;
  double interruptions_per_hour = 0;  // spot only
  // A package's price for one GPU for its whole period, as the platform lists
  // it (946 a month, not 720 × 1.3139): a package bills whole periods at this.
  // nullopt for hourly billing, or a package known only by its hourly figure.
  std::optional<double> price_per_gpu_period;
};
RentalTerms rental_terms(const Platform& p, Billing billing, double price_per_gpu_hour, double storage_per_gb_month);

// One run's `work_hours` (the time model's, on-demand) on these terms: spot
// adds its expected loss (estimate_spot) to wall and billed time alike,
// off-peak only stretches the wall time over its windows.
struct RunTime {
  bool feasible = true;        // false: spot interruptions outpace progress
  double wall_hours = 0;
  double billed_hours = 0;     // the hours the instance runs (before rounding)
  double checkpoint_seconds = 0;
  SpotEstimate spot;
};
RunTime run_time(const RentalTerms& t, double work_hours, double checkpoint_bytes, int gpus);

// A rental: `instances` alike, each with `gpus` × `parallel` cards running
// `used_hours` (setup included), and `disks` data disks of `disk_gb` kept for
// `disk_hours`. Billing rounds each instance's time (billed_seconds), a
// package bills whole periods (package_billed_hours).
struct Rental {
  int gpus = 1;
  int parallel = 1;
  int instances = 1;
  double used_hours = 0;
  double disk_gb = 0;
  double disks = 1;
  double disk_hours = 0;
};
struct RentalCost {
  double billed_hours = 0;   // instance hours, all instances
  double compute_cost = 0;
  double storage_cost = 0;
  double cost = 0;
};
RentalCost price_rental(const RentalTerms& t, const Rental& r);

// The cost range of a rental (contract v1.2, plan.stages[].cost_low /
// cost_high): the same rental priced at the low and high ends of its price
// (`low` / `high` terms) with its run time at the low and high ends of the
// time model's range (the run's hours, setup excluded, times `time_low` and
// `time_high`: the throughput's 1 / high_factor and 1 / low_factor). A
// package's whole periods and the per-second rounding apply as they do to
// the point figure, so the range is what each end would bill.
struct CostRange {
  double low = 0;
  double high = 0;
};
CostRange price_rental_range(const RentalTerms& low, const RentalTerms& high, const Rental& r, double time_low,
                             double time_high);

// One run of `work_hours` on its own rental: setup, the run (spot loss
// included), its disk. The figure of gpus[].cost and of a one-run stage.
struct OneRun {
  RunTime time;
  RentalCost cost;
};
OneRun price_one_run(const RentalTerms& t, double work_hours, int gpus, double checkpoint_bytes, double disk_gb);

// A machine of `gpus` cards kept a 30-day month on `t` (a group's shared
// machine): a monthly package at its listed price, a longer or shorter
// package at the periods a month takes, hourly billing at 720 hours.
double machine_month_cost(const RentalTerms& t, int gpus);

// `units` of something billed `per_hour` kept `hours` (GPUs kept attached
// during an upload, or a GPU-less mode), unrounded: an estimate to compare.
double hourly_cost(double per_hour, int units, double hours);

// Storage billed for `gb` kept `hours` at `per_gb_month`, less the free allowance.
double storage_cost(double gb, double free_gb, double per_gb_month, double hours);

// A stopped instance's data disk on `p` (contract v1.2 `disk_after_stop`):
// whether it bills while the instance is stopped (nullopt: the catalog does
// not say), at what price per GB-month in the platform's currency (its
// stopped price, else its running one; 0: unknown), and after how many days
// stopped the platform releases the instance and erases its data.
struct StoppedDiskTerms {
  std::optional<bool> bills;
  double per_gb_month = 0;
  double free_gb = 0;
  std::optional<double> wiped_after_days;
};
StoppedDiskTerms stopped_disk_terms(const Platform& p);
// What keeping `gb` on that stopped disk for `days` costs, in the platform's
// currency (0 where it does not bill or its price is unknown).
double stopped_disk_cost(const StoppedDiskTerms& t, double gb, double days);

// Hours to upload `gb` (10^9 bytes) at `upload_mbps` (10^6 bit/s).
double upload_hours(double gb, double upload_mbps);

// Rent versus buy for the GPU hours a project needs. Buying pays the card (less
// what it resells for) and its electricity; renting pays per GPU hour.
struct RentVsBuyInput {
  double rent_per_gpu_hour = 0;
  double purchase_per_gpu = 0;
  double watts_per_gpu = 0;        // what the card (or its share of the machine) draws under load
  double electricity_per_kwh = 0;  // same currency as the prices
  double resale_fraction = 0;      // of the purchase price, recovered at the end
  double service_years = 3;        // the life over which the card is written off
  double gpu_hours = 0;            // what the project uses
  int gpus = 1;                    // cards bought
};
struct RentVsBuy {
  double rent_cost = 0;
  double buy_cost = 0;                  // purchase − resale + electricity for the project's hours
  double electricity_per_gpu_hour = 0;
  double break_even_gpu_hours = 0;      // per card: where buying outright (no resale) equals renting; 0 if never
  double utilization_to_break_even = 0; // break-even hours over the card's service life
  double depreciation_per_year = 0;     // straight line over service_years, all cards
  bool rent_is_cheaper = true;
};
RentVsBuy rent_vs_buy(const RentVsBuyInput& in);

}  // namespace gpuplan
