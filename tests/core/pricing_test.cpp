// The cost arithmetic on its own: billing rounding, packages, spot expected
// time (Young/Daly), storage, upload and rent versus buy, including the seeds'
// worked example (seed 000: 200 h × ~20 CNY ≈ 4000 CNY against a card of
// 100k+ CNY).
#include <gtest/gtest.h>

#include <cmath>

#include "gpuplan/catalog.h"
#include "gpuplan/pricing.h"

namespace gpuplan::test {
namespace {

TEST(Pricing, CurrencyConversionUsesTheCatalogRate) {
  ExchangeRate fx{7.2, "2026-11", "test"};
  EXPECT_DOUBLE_EQ(convert_currency(10, "USD", "CNY", fx), 72);
  EXPECT_DOUBLE_EQ(convert_currency(72, "CNY", "USD", fx), 10);
  EXPECT_DOUBLE_EQ(convert_currency(5, "CNY", "CNY", fx), 5);
}

TEST(Pricing, BillingRoundsUpToTheGranularityAndTheMinimum) {
  EXPECT_DOUBLE_EQ(billed_seconds(61, 60, 0), 120);        // per minute
  EXPECT_DOUBLE_EQ(billed_seconds(3601, 3600, 0), 7200);   // per hour
  EXPECT_DOUBLE_EQ(billed_seconds(3600, 3600, 0), 3600);   // exact hours are not rounded up
  EXPECT_DOUBLE_EQ(billed_seconds(10, 1, 60), 60);         // AWS: 60 s minimum, then per second
  EXPECT_DOUBLE_EQ(billed_seconds(90.5, 1, 60), 91);
  EXPECT_DOUBLE_EQ(billed_seconds(0, 3600, 3600), 0);      // nothing started, nothing billed
}

TEST(Pricing, PackagesBillWholePeriods) {
  EXPECT_DOUBLE_EQ(package_billed_hours(20, Billing::monthly), kHoursPerMonth);
  EXPECT_DOUBLE_EQ(package_billed_hours(kHoursPerMonth + 1, Billing::monthly), 2 * kHoursPerMonth);
  EXPECT_DOUBLE_EQ(package_billed_hours(100, Billing::yearly), kHoursPerYear);
  EXPECT_DOUBLE_EQ(package_billed_hours(20, Billing::on_demand), 20);
  // Daily and weekly packages (包天 / 包周, contract v1.1): whole days and weeks.
  EXPECT_DOUBLE_EQ(package_billed_hours(5, Billing::daily), 24);
  EXPECT_DOUBLE_EQ(package_billed_hours(25, Billing::daily), 48);
  EXPECT_DOUBLE_EQ(package_billed_hours(30, Billing::weekly), 168);
  EXPECT_DOUBLE_EQ(package_billed_hours(169, Billing::weekly), 336);
  EXPECT_TRUE(is_package(Billing::daily) && is_package(Billing::weekly) && is_package(Billing::monthly));
  EXPECT_FALSE(is_package(Billing::on_demand) || is_package(Billing::spot) || is_package(Billing::off_peak));
}

TEST(Pricing, SpotWithoutInterruptionsCostsNoExtraTime) {
  SpotEstimate s = estimate_spot(10 * 3600, 60, 600, 0);
  EXPECT_TRUE(s.feasible);
  EXPECT_DOUBLE_EQ(s.overhead_fraction, 0);
  EXPECT_DOUBLE_EQ(s.expected_interruptions, 0);
}

TEST(Pricing, SpotCheckpointIntervalIsYoungDaly) {
  // C = 120 s, MTBF = 10 h = 36000 s: τ = √(2·120·36000) ≈ 2939 s.
  SpotEstimate s = estimate_spot(100 * 3600, 120, 600, 0.1);
  ASSERT_TRUE(s.feasible);
  EXPECT_NEAR(s.checkpoint_interval_seconds, std::sqrt(2.0 * 120 * 36000), 1e-6);
  // wall = W(1 + C/τ) / (1 − (τ/2 + R)/M), from the first-order model.
  double tau = s.checkpoint_interval_seconds;
  double expected = (1 + 120 / tau) / (1 - (tau / 2 + 600) / 36000) - 1;
  EXPECT_NEAR(s.overhead_fraction, expected, 1e-12);
  EXPECT_NEAR(s.expected_interruptions, 100 * (1 + s.overhead_fraction) * 0.1, 1e-9);
}

TEST(Pricing, YoungDalyIntervalMinimisesTheOverhead) {
  // The overhead at τ must not exceed the overhead at other intervals: checked
  // by evaluating the same first-order model around the optimum.
  const double c = 300, m = 20 * 3600.0, r = 600;
  auto overhead = [&](double tau) { return (1 + c / tau) / (1 - (tau / 2 + r) / m) - 1; };
  SpotEstimate s = estimate_spot(1000 * 3600.0, c, r, 3600 / m);
  for (double f : {0.5, 0.8, 1.25, 2.0}) EXPECT_LE(s.overhead_fraction, overhead(s.checkpoint_interval_seconds * f) + 1e-3);
}

TEST(Pricing, SpotIsInfeasibleWhenReclaimsOutpaceProgress) {
  // A reclaim every 6 minutes against a 10-minute restart: no progress.
  EXPECT_FALSE(estimate_spot(10 * 3600, 60, 600, 10).feasible);
}

TEST(Pricing, StorageBillsBeyondTheFreeAllowanceProRata) {
  EXPECT_DOUBLE_EQ(storage_cost(150, 50, 0.3, kHoursPerMonth), 30);
  EXPECT_DOUBLE_EQ(storage_cost(150, 50, 0.3, kHoursPerMonth / 2), 15);
  EXPECT_DOUBLE_EQ(storage_cost(40, 50, 0.3, kHoursPerMonth), 0);
}

TEST(Pricing, UploadTimeFromBandwidth) {
  // 100 GB at 100 Mbit/s: 8·10^11 bit / 10^8 bit/s = 8000 s.
  EXPECT_NEAR(upload_hours(100, 100), 8000.0 / 3600, 1e-12);
  EXPECT_DOUBLE_EQ(upload_hours(0, 100), 0);
}

// Seed 000: "这个课题总训练时长约200小时，按A100单卡每小时约20元算，总花费四千元左右，
// 对比买一张A100显卡十几万元的预算，这笔支出基本可以忽略不计".
TEST(Pricing, SeedExampleRentingBeatsBuyingAnA100) {
  RentVsBuyInput in;
  in.rent_per_gpu_hour = 20;
  in.purchase_per_gpu = 100000;
  in.watts_per_gpu = 400;          // A100 SXM TDP
  in.electricity_per_kwh = 0.6;
  in.gpu_hours = 200;
  RentVsBuy r = rent_vs_buy(in);
  EXPECT_DOUBLE_EQ(r.rent_cost, 4000);
  EXPECT_TRUE(r.rent_is_cheaper);
  EXPECT_NEAR(r.electricity_per_gpu_hour, 0.24, 1e-12);
  // Break-even: 100000 / (20 − 0.24) ≈ 5061 GPU hours, about 25 such projects.
  EXPECT_NEAR(r.break_even_gpu_hours, 100000 / 19.76, 1e-6);
  EXPECT_GT(r.break_even_gpu_hours / in.gpu_hours, 25);
  // Over three years the card must be busy about a fifth of the time to pay off.
  EXPECT_NEAR(r.utilization_to_break_even, r.break_even_gpu_hours / (3 * kHoursPerYear), 1e-12);
}

TEST(Pricing, BuyingWinsForHeavyUse) {
  RentVsBuyInput in;
  in.rent_per_gpu_hour = 2.5;      // a rented RTX 4090
  in.purchase_per_gpu = 15000;
  in.watts_per_gpu = 450;
  in.electricity_per_kwh = 0.6;
  in.resale_fraction = 0.4;
  in.gpu_hours = 3 * kHoursPerYear * 0.8;
  RentVsBuy r = rent_vs_buy(in);
  EXPECT_FALSE(r.rent_is_cheaper);
  EXPECT_DOUBLE_EQ(r.buy_cost, 15000 * 0.6 + 0.27 * in.gpu_hours);
}

TEST(Pricing, NoBreakEvenWhenElectricityExceedsTheRent) {
  RentVsBuyInput in;
  in.rent_per_gpu_hour = 0.1;
  in.purchase_per_gpu = 1000;
  in.watts_per_gpu = 400;
  in.electricity_per_kwh = 1;
  in.gpu_hours = 10;
  EXPECT_DOUBLE_EQ(rent_vs_buy(in).break_even_gpu_hours, 0);
}

// ---- The one rental price (issue #17 item 2): the planner and gpus[].cost call it.

TEST(Pricing, ARentalBillsEachInstanceRoundedUpWithItsMinimumAndItsDisks) {
  RentalTerms t;
  t.price_per_gpu_hour = 2;
  t.granularity_seconds = 3600;
  t.minimum_charge_seconds = 7200;
  t.storage_per_gb_month = 0.72;  // 0.001 per GB-hour
  t.free_storage_gb = 10;
  Rental r;
  r.gpus = 2;
  r.parallel = 2;
  r.instances = 3;
  r.used_hours = 2.2;  // rounds up to 3 h; above the 2 h minimum
  r.disk_gb = 110;
  r.disks = 3;
  r.disk_hours = 5;
  RentalCost c = price_rental(t, r);
  EXPECT_DOUBLE_EQ(c.billed_hours, 9);
  EXPECT_DOUBLE_EQ(c.compute_cost, 2 * 9 * 2 * 2);
  EXPECT_NEAR(c.storage_cost, 3 * 100 * 0.001 * 5, 1e-12);
  EXPECT_DOUBLE_EQ(c.cost, c.compute_cost + c.storage_cost);
  r.used_hours = 0.5;  // below the minimum: the minimum
  EXPECT_DOUBLE_EQ(price_rental(t, r).billed_hours, 3 * 2);
  t.billing = Billing::monthly;  // a package bills whole months
  EXPECT_DOUBLE_EQ(price_rental(t, r).billed_hours, 3 * kHoursPerMonth);
}

TEST(Pricing, AFreePriceCostsNothingButItsDisk) {
  RentalTerms t;
  t.price_per_gpu_hour = 0;
  t.storage_per_gb_month = 0.72;
  const OneRun run = price_one_run(t, 10, 4, 0, 100);
  EXPECT_DOUBLE_EQ(run.cost.compute_cost, 0);
  EXPECT_GT(run.cost.billed_hours, 10);
  EXPECT_NEAR(run.cost.storage_cost, 100 * 0.001 * (10 + kSetupHours), 1e-12);
}

TEST(Pricing, SpotRunTimeCarriesItsExpectedLossIntoTheBill) {
  RentalTerms t;
  t.billing = Billing::spot;
  t.price_per_gpu_hour = 1;
  t.interruptions_per_hour = 0.1;
  const RunTime spot = run_time(t, 10, 20e9, 2);
  ASSERT_TRUE(spot.feasible);
  EXPECT_DOUBLE_EQ(spot.checkpoint_seconds, 20e9 / (kCheckpointWriteBytesPerSecond * 2));
  const SpotEstimate e = estimate_spot(10 * kSecondsPerHour, spot.checkpoint_seconds, kRestartSeconds, 0.1);
  EXPECT_DOUBLE_EQ(spot.wall_hours, 10 * (1 + e.overhead_fraction));
  EXPECT_DOUBLE_EQ(spot.billed_hours, spot.wall_hours);
  t.billing = Billing::off_peak;  // waits, but bills only the work
  const RunTime night = run_time(t, 10, 0, 1);
  EXPECT_DOUBLE_EQ(night.wall_hours, 10 / kOffPeakWindowFraction);
  EXPECT_DOUBLE_EQ(night.billed_hours, 10);
}

// AutoDL bills per second with a minimum charge of 0.01 CNY per start (its
// 充值与计费 page, as read 2026-09-08): a start of ten seconds on a 1.98 CNY/h
// card costs 0.01, not 0.0055; an hour costs its price. The catalog carries
// the rule with its source, date and confidence.
TEST(Pricing, AStartBillsAtLeastThePlatformsMinimumCharge) {
  const Platform* autodl = nullptr;
  for (const auto& p : embedded_catalog().platforms)
    if (p.id == "autodl") autodl = &p;
  ASSERT_NE(autodl, nullptr);
  ASSERT_TRUE(autodl->rules.minimum_charge);
  const MinimumCharge& m = *autodl->rules.minimum_charge;
  EXPECT_DOUBLE_EQ(m.amount, 0.01);
  EXPECT_EQ(m.currency, "CNY");
  EXPECT_EQ(m.as_of, "2026-09-08");
  EXPECT_EQ(m.confidence, "medium");
  EXPECT_NE(m.source.find("https://www.autodl.com/docs/price/"), std::string::npos);
  EXPECT_DOUBLE_EQ(autodl->minimum_charge, 0.01);

  RentalTerms t = rental_terms(*autodl, Billing::on_demand, 1.98, 0);
  t.minimum_charge = autodl->minimum_charge;
  EXPECT_EQ(t.granularity_seconds, 1);
  Rental r;
  r.used_hours = 10.0 / kSecondsPerHour;
  EXPECT_DOUBLE_EQ(price_rental(t, r).compute_cost, 0.01);
  r.parallel = 3;  // three instances started side by side: each bills its minimum
  EXPECT_DOUBLE_EQ(price_rental(t, r).compute_cost, 0.03);
  r.parallel = 1;
  r.used_hours = 1;
  EXPECT_DOUBLE_EQ(price_rental(t, r).compute_cost, 1.98);
  r.used_hours = 0;  // nothing started, nothing billed
  EXPECT_DOUBLE_EQ(price_rental(t, r).compute_cost, 0);
}

}  // namespace
}  // namespace gpuplan::test
