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
  double period = billing == Billing::monthly ? kHoursPerMonth : billing == Billing::yearly ? kHoursPerYear : 0;
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
  const bool package = t.billing == Billing::monthly || t.billing == Billing::yearly;
  const double billed = package ? package_billed_hours(r.used_hours, t.billing)
                                : billed_seconds(r.used_hours * kSecondsPerHour, t.granularity_seconds,
                                                 t.minimum_charge_seconds) /
                                      kSecondsPerHour;
  c.billed_hours = billed * r.instances;
  c.compute_cost = t.price_per_gpu_hour * c.billed_hours * r.gpus * r.parallel;
  c.storage_cost = r.disks * storage_cost(r.disk_gb, t.free_storage_gb, t.storage_per_gb_month, r.disk_hours);
  c.cost = c.compute_cost + c.storage_cost;
  return c;
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

double storage_cost(double gb, double free_gb, double per_gb_month, double hours) {
  double billable = std::max(0.0, gb - std::max(0.0, free_gb));
  return billable * std::max(0.0, per_gb_month) * std::max(0.0, hours) / kHoursPerMonth;
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
