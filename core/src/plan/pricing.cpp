// Cost arithmetic: billing rounding, packages, spot expected time, storage,
// upload and rent-versus-buy (formulas in gpuplan/pricing.h and docs/api.md).
#include "gpuplan/pricing.h"

#include <algorithm>
#include <cmath>

namespace gpuplan {

double convert_currency(double amount, std::string_view from, std::string_view to, const ExchangeRate& fx) {
  if (from == to || fx.cny_per_usd <= 0) return amount;
  if (from == "USD" && to == "CNY") return amount * fx.cny_per_usd;
  if (from == "CNY" && to == "USD") return amount / fx.cny_per_usd;
  return amount;
}

double billed_seconds(double used_seconds, double granularity_seconds, double minimum_charge_seconds) {
  if (!(used_seconds > 0)) return 0;
  double unit = std::max(1.0, granularity_seconds);
  // A tiny tolerance keeps 3600.0000001 s (rounding noise) from billing a second hour.
  double units = std::ceil(used_seconds / unit - 1e-9);
  return std::max(units * unit, minimum_charge_seconds);
}

double package_billed_hours(double used_hours, Billing billing) {
  const double period = package_period_hours(billing);
  if (period <= 0 || !(used_hours > 0)) return std::max(0.0, used_hours);
  return std::ceil(used_hours / period - 1e-9) * period;
}

SpotEstimate estimate_spot(double work_seconds, double checkpoint_seconds, double restart_seconds,
                           double interruptions_per_hour) {
  SpotEstimate s;
  if (!(interruptions_per_hour > 0) || !(work_seconds > 0)) return s;
  const double mtbf_seconds = kSecondsPerHour / interruptions_per_hour;
  const double c = std::max(0.0, checkpoint_seconds);
  // Young (1974): τ = √(2·C·M). A job shorter than τ needs no checkpoint at all.
  double tau = std::sqrt(2 * c * mtbf_seconds);
  if (tau <= 0 || tau > work_seconds) tau = work_seconds;
  const double writes = tau < work_seconds ? c / tau : 0;
  const double loss_per_second = (tau / 2 + std::max(0.0, restart_seconds)) / mtbf_seconds;
  if (loss_per_second >= 0.9) {  // progress below a tenth of the wall time: not a plan
    s.feasible = false;
    return s;
  }
  const double wall = work_seconds * (1 + writes) / (1 - loss_per_second);
  s.checkpoint_interval_seconds = tau;
  s.overhead_fraction = wall / work_seconds - 1;
  s.expected_interruptions = wall / mtbf_seconds;
  return s;
}

double spot_interruptions_per_hour(const Platform& p) {
  return p.spot_interruptions_per_hour > 0 ? p.spot_interruptions_per_hour : kAssumedSpotInterruptionsPerHour;
}

RentalTerms rental_terms(const Platform& p, Billing billing, double price_per_gpu_hour, double storage_per_gb_month) {
  RentalTerms t;
  t.price_per_gpu_hour = price_per_gpu_hour;
  t.billing = billing;
  t.granularity_seconds = p.billing_granularity_seconds;
  t.minimum_charge_seconds = p.minimum_charge_seconds;
  t.storage_per_gb_month = storage_per_gb_month;
  t.free_storage_gb = p.free_storage_gb;
  t.interruptions_per_hour = billing == Billing::spot ? spot_interruptions_per_hour(p) : 0;
  return t;
}

RunTime run_time(const RentalTerms& t, double work_hours, double checkpoint_bytes, int gpus) {
  RunTime r;
  r.wall_hours = r.billed_hours = work_hours;
  if (t.billing == Billing::spot) {
    // Each GPU writes its shard of the checkpoint in parallel.
    r.checkpoint_seconds = checkpoint_bytes / (kCheckpointWriteBytesPerSecond * gpus);
    r.spot = estimate_spot(work_hours * kSecondsPerHour, r.checkpoint_seconds, kRestartSeconds, t.interruptions_per_hour);
    if (!r.spot.feasible) {
      r.feasible = false;
      return r;
    }
    r.wall_hours = r.billed_hours = work_hours * (1 + r.spot.overhead_fraction);
  } else if (t.billing == Billing::off_peak) {
    r.wall_hours = work_hours / kOffPeakWindowFraction;
  }
  return r;
}

RentalCost price_rental(const RentalTerms& t, const Rental& r) {
  RentalCost c;
  const bool package = is_package(t.billing);
  const double billed = package ? package_billed_hours(r.used_hours, t.billing)
                                : billed_seconds(r.used_hours * kSecondsPerHour, t.granularity_seconds,
                                                 t.minimum_charge_seconds) /
                                      kSecondsPerHour;
  c.billed_hours = billed * r.instances;
  if (package && t.price_per_gpu_period) {
    // Whole periods at the listed package price, never the rounded hourly figure times the period.
    const double periods = std::round(billed / package_period_hours(t.billing)) * r.instances;
    c.compute_cost = *t.price_per_gpu_period * periods * r.gpus * r.parallel;
  } else {
    c.compute_cost = t.price_per_gpu_hour * c.billed_hours * r.gpus * r.parallel;
    // Each start bills at least the platform's minimum (AutoDL: per second, at least 0.01 CNY).
    if (r.used_hours > 0 && t.price_per_gpu_hour > 0)
      c.compute_cost = std::max(c.compute_cost, t.minimum_charge * r.instances * r.parallel);
  }
  c.storage_cost = r.disks * storage_cost(r.disk_gb, t.free_storage_gb, t.storage_per_gb_month, r.disk_hours);
  c.cost = c.compute_cost + c.storage_cost;
  return c;
}

CostRange price_rental_range(const RentalTerms& low, const RentalTerms& high, const Rental& r, double time_low,
                             double time_high) {
  // The run's part of the time scales, the setup (a fixed quarter hour) does not.
  auto scaled = [&](double factor) {
    Rental s = r;
    const double run = std::max(0.0, r.used_hours - kSetupHours);
    s.used_hours = std::min(r.used_hours, kSetupHours) + run * factor;
    s.disk_hours = r.disk_hours * factor;
    return s;
  };
  CostRange out;
  out.low = price_rental(low, scaled(std::min(1.0, time_low))).cost;
  out.high = price_rental(high, scaled(std::max(1.0, time_high))).cost;
  return out;
}

OneRun price_one_run(const RentalTerms& t, double work_hours, int gpus, double checkpoint_bytes, double disk_gb) {
  OneRun o;
  o.time = run_time(t, work_hours, checkpoint_bytes, gpus);
  if (!o.time.feasible) return o;
  Rental r;
  r.gpus = gpus;
  r.used_hours = kSetupHours + o.time.billed_hours;
  r.disk_gb = disk_gb;
  r.disk_hours = kSetupHours + o.time.wall_hours;
  o.cost = price_rental(t, r);
  return o;
}

double machine_month_cost(const RentalTerms& t, int gpus) {
  Rental r;
  r.gpus = std::max(1, gpus);
  r.used_hours = kHoursPerMonth;
  // A year's package spread over its months: a month of it is a twelfth, not a year.
  if (package_period_hours(t.billing) > kHoursPerMonth) return t.price_per_gpu_hour * kHoursPerMonth * r.gpus;
  RentalTerms whole = t;
  whole.granularity_seconds = 1;  // a month is a whole number of any unit
  whole.minimum_charge_seconds = 0;
  whole.minimum_charge = 0;
  return price_rental(whole, r).compute_cost;
}

double hourly_cost(double per_hour, int units, double hours) {
  return std::max(0.0, per_hour) * std::max(0, units) * std::max(0.0, hours);
}

double storage_cost(double gb, double free_gb, double per_gb_month, double hours) {
  double billable = std::max(0.0, gb - std::max(0.0, free_gb));
  return billable * std::max(0.0, per_gb_month) * std::max(0.0, hours) / kHoursPerMonth;
}

StoppedDiskTerms stopped_disk_terms(const Platform& p) {
  StoppedDiskTerms t;
  // A stopped price, a disk said to bill while stopped, or one that bills
  // even after release: it bills. Said not to: it does not. Else unknown.
  if (p.storage_stopped_per_gb_month > 0 || p.rules.disk_bills_while_stopped.value_or(false) || p.disk_bills_after_release)
    t.bills = true;
  else if (p.rules.disk_bills_while_stopped.has_value())
    t.bills = false;
  if (t.bills.value_or(false))
    t.per_gb_month = p.storage_stopped_per_gb_month > 0 ? p.storage_stopped_per_gb_month : p.storage_per_gb_month;
  t.free_gb = p.free_storage_gb;
  t.wiped_after_days = p.rules.release_after_stopped_days;
  return t;
}

double stopped_disk_cost(const StoppedDiskTerms& t, double gb, double days) {
  if (!t.bills.value_or(false)) return 0;
  return storage_cost(gb, t.free_gb, t.per_gb_month, std::max(0.0, days) * 24);
}

double upload_hours(double gb, double upload_mbps) {
  if (!(gb > 0) || !(upload_mbps > 0)) return 0;
  return gb * 8e9 / (upload_mbps * 1e6) / kSecondsPerHour;
}

RentVsBuy rent_vs_buy(const RentVsBuyInput& in) {
  RentVsBuy r;
  const int cards = std::max(1, in.gpus);
  r.electricity_per_gpu_hour = in.watts_per_gpu / 1000 * in.electricity_per_kwh;
  r.rent_cost = in.rent_per_gpu_hour * in.gpu_hours;
  r.buy_cost = cards * in.purchase_per_gpu * (1 - std::clamp(in.resale_fraction, 0.0, 1.0)) +
               r.electricity_per_gpu_hour * in.gpu_hours;
  // Per card: rent·H = purchase + electricity·H  →  H = purchase / (rent − electricity).
  double margin = in.rent_per_gpu_hour - r.electricity_per_gpu_hour;
  r.break_even_gpu_hours = margin > 0 ? in.purchase_per_gpu / margin : 0;
  double life_hours = std::max(0.0, in.service_years) * kHoursPerYear;
  r.utilization_to_break_even = life_hours > 0 ? r.break_even_gpu_hours / life_hours : 0;
  r.depreciation_per_year = in.service_years > 0 ? cards * in.purchase_per_gpu / in.service_years : 0;
  r.rent_is_cheaper = r.rent_cost <= r.buy_cost;
  return r;
}

}  // namespace gpuplan
