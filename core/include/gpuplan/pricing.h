// What renting costs: billing rules, spot as an expected cost, storage, upload
// and rent-versus-buy. Pure arithmetic on figures the catalog or the request
// supplies; formulas and their sources: docs/api.md ("Cost model").
#pragma once

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

// `amount` in `from` expressed in `to` (CNY or USD) at the catalog's rate.
double convert_currency(double amount, std::string_view from, std::string_view to, const ExchangeRate& fx);

// Seconds a platform bills for `used_seconds` of one instance: rounded up to
// the billing granularity, and never below the minimum charge. A zero-length
// use bills nothing (no instance was started).
double billed_seconds(double used_seconds, double granularity_seconds, double minimum_charge_seconds);

// Hours a package bills for `used_hours`: whole months or years, since a
// monthly or yearly package is paid up front whatever the use.
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

// Storage billed for `gb` kept `hours` at `per_gb_month`, less the free allowance.
double storage_cost(double gb, double free_gb, double per_gb_month, double hours);

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
