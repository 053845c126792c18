// The offers a request may rent: the in-scope platforms' catalog prices and
// the user's own quotes (which win), in the plan's currency, with the spot,
// off-peak and education discounts applied. The planner and each gpus[] row's
// cost read the same list (docs/api.md, "Cost model").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/pricing.h"
#include "gpuplan/request.h"

namespace gpuplan {

struct PricedOffer {
  const Platform* platform = nullptr;
  size_t gpu = 0;  // index into catalog.gpus
  Billing billing = Billing::on_demand;
  double price = 0;                  // per GPU hour, plan currency; 0 only from a user's quote
  double storage_per_gb_month = 0;   // plan currency
  double minimum_charge = 0;         // the platform's smallest charge per start, plan currency
  bool education = false;
  bool user = false;                 // the user's quote, not the catalog's
  double price_low = 0;              // the price's own range, plan currency, discounts applied
  double price_high = 0;
  std::optional<PriceRange> per_period;  // a package's listed price per GPU and period, plan currency
  int max_gpus = 0;                  // cards one instance carries (0: the platform's machine)
  int vcpus_per_gpu = 0;             // vCPUs the instance gives each card (catalog `cpu`); 0: unknown
  OfferRef ref;                      // what the price is
};

// The cards one instance of `o` carries: the product's own limit (a
// single-GPU product) or the platform's machine.
int instance_gpus(const PricedOffer& o);
// Whether `o` rents `count` cards of `g` for one job (rentable, within the product's limit).
bool rentable(const PricedOffer& o, const Gpu& g, int count);
// `o`'s billing terms, at its price or at the low or high end of its range.
enum class PriceEnd { typical, low, high };
RentalTerms offer_terms(const PricedOffer& o, PriceEnd end = PriceEnd::typical);

// prefs.scope (contract v1.1): `cn` keeps the platforms that bill in CNY
// (Chinese marketplaces and clouds, campus centres), `global` every one. A
// platform the user lists in prefs.platforms is in scope whatever the scope.
bool platform_in_scope(const Request& q, const Platform& p);

// The request's offers in `currency`: one per (platform, GPU, billing), the
// user's quote before the catalog's; only the billing prefs.billing names,
// only the card `hardware` pins.
std::vector<PricedOffer> priced_offers(const Request& q, const Catalog& c, const std::string& currency);

// The in-scope catalog prices that may not price a plan (contract v1.2):
// floors, promotions and low-confidence figures, hourly billings only, in
// `currency` with the same discounts. Shown beside a plan as references
// ("may be as low as ..., unverified"), never as its cost.
std::vector<PricedOffer> reference_offers(const Request& q, const Catalog& c, const std::string& currency);

// Whether `p` rents `count` cards of `g` for one job: up to one machine, or
// whole machines where the platform joins them and the card is not a GeForce
// (no peer-to-peer; hosts sold one at a time). Machines, not counts.
bool rentable(const Platform& p, const Gpu& g, int count);

// One checkpoint's bytes (written on spot, kept on disk): the adapter's
// weights and optimizer, or the whole model state of the unsharded job.
double checkpoint_bytes(const Request& q);
// Disk kept for data, checkpoints and outputs: prefs.storage_gb, else the
// dataset and the last and best checkpoints.
double storage_gb(const Request& q, double checkpoint_bytes);

}  // namespace gpuplan
