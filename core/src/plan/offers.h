// The offers a request may rent: the in-scope platforms' catalog prices and
// the user's own quotes (which win), in the plan's currency, with the spot,
// off-peak and education discounts applied. The planner and each gpus[] row's
// cost read the same list (docs/api.md, "Cost model").
#pragma once

#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/request.h"

namespace gpuplan {

struct PricedOffer {
  const Platform* platform = nullptr;
  size_t gpu = 0;  // index into catalog.gpus
  Billing billing = Billing::on_demand;
  double price = 0;                  // per GPU hour, plan currency; 0 only from a user's quote
  double storage_per_gb_month = 0;   // plan currency
  bool education = false;
  bool user = false;                 // the user's quote, not the catalog's
};

// prefs.scope (contract v1.1): `cn` keeps the platforms that bill in CNY
// (Chinese marketplaces and clouds, campus centres), `global` every one. A
// platform the user lists in prefs.platforms is in scope whatever the scope.
bool platform_in_scope(const Request& q, const Platform& p);

// The request's offers in `currency`: one per (platform, GPU, billing), the
// user's quote before the catalog's; only the billing prefs.billing names,
// only the card `hardware` pins.
std::vector<PricedOffer> priced_offers(const Request& q, const Catalog& c, const std::string& currency);

// One checkpoint's bytes (written on spot, kept on disk): the adapter's
// weights and optimizer, or the whole model state of the unsharded job.
double checkpoint_bytes(const Request& q);
// Disk kept for data, checkpoints and outputs: prefs.storage_gb, else the
// dataset and the last and best checkpoints.
double storage_gb(const Request& q, double checkpoint_bytes);

}  // namespace gpuplan
