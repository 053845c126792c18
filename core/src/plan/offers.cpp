// The offers a request may rent (offers.h).
#include "plan/offers.h"

#include <algorithm>

#include "gpuplan/memory.h"
#include "gpuplan/model_arithmetic.h"
#include "gpuplan/pricing.h"
#include "text/names.h"

namespace gpuplan {

bool platform_in_scope(const Request& q, const Platform& p) {
  if (!q.prefs.platforms.empty())
    return std::find(q.prefs.platforms.begin(), q.prefs.platforms.end(), p.id) != q.prefs.platforms.end();
  return q.prefs.scope == Scope::global || p.currency == "CNY";
}

namespace {

// An offer at its price, the rest at their defaults (set field by field: the
// struct grows, and an aggregate list would leave its later fields unnamed).
PricedOffer priced(const Platform& p, size_t gpu, Billing billing, double price, double storage, bool user) {
  PricedOffer o;
  o.platform = &p;
  o.gpu = gpu;
  o.billing = billing;
  o.price = price;
  o.storage_per_gb_month = storage;
  o.user = user;
  o.vcpus_per_gpu = p.cpu ? p.cpu->vcpus_per_gpu : 0;
  return o;
}

OfferRef catalog_ref(const Platform& p, const Offer& o, const Catalog& c) {
  OfferRef r;
  r.platform = p.id;
  r.gpu = o.gpu;
  r.billing = o.billing;
  r.price_kind = o.price_kind;
  r.as_of = o.as_of;
  r.confidence = o.confidence;
  r.source = shown_source(o.source);
  r.stale = price_is_stale(o.as_of, c.version);
  return r;
}

OfferRef quote_ref(const UserPrice& u, const Catalog& c) {
  OfferRef r;
  r.platform = u.platform;
  r.gpu = u.gpu;
  r.billing = u.billing;
  r.as_of = u.as_of;
  // A dated quote ages as a catalog price does (a pasted price list carries its day).
  r.stale = !u.as_of.empty() && price_is_stale(u.as_of, c.version);
  r.confidence = "quote";
  r.source = u.lab ? "lab" : "quote";
  return r;
}

int gpu_index(const Catalog& c, const std::string& id) {
  for (size_t i = 0; i < c.gpus.size(); ++i)
    if (c.gpus[i].id == id) return int(i);
  return -1;
}

// The offers of `p` that `keep` accepts, the user's quotes first when
// `quotes`, with the derived spot and off-peak prices and the education
// discount, in `currency`.
void add_platform_offers(const Request& q, const Catalog& c, const Platform& p, const std::string& currency,
                         bool quotes, bool (*keep)(const Offer&), std::vector<PricedOffer>& offers) {
  const double storage = convert_currency(p.storage_per_gb_month, p.currency, currency, c.fx);
  const double minimum = convert_currency(p.minimum_charge, p.currency, currency, c.fx);
  const size_t first = offers.size();
  auto in = [&](double amount, const std::string& from) { return convert_currency(amount, from, currency, c.fx); };
  // A price of 0 is a price (a free campus centre, 校级算力 "免费或极低"),
  // which the user's quote may give; the catalog's unknowns are never 0.
  auto add = [&](PricedOffer o) {
    if (int(o.gpu) < 0 || !(o.user ? o.price >= 0 : o.price > 0)) return;
    if (q.hardware && c.gpus[o.gpu].id != q.hardware->gpu) return;
    o.minimum_charge = minimum;
    for (size_t i = first; i < offers.size(); ++i)
      if (offers[i].gpu == o.gpu && offers[i].billing == o.billing) return;  // first one wins: user, then catalog
    offers.push_back(std::move(o));
  };
  // The user's own quotes override the catalog (contract: prices[]).
  if (quotes)
    for (const UserPrice& u : q.prices) {
      if (u.platform != p.id || gpu_index(c, u.gpu) < 0) continue;
      PricedOffer o = priced(p, size_t(gpu_index(c, u.gpu)), u.billing, in(u.per_gpu_hour, u.currency), storage, true);
      o.price_low = o.price_high = o.price;
      // A quote changes the price, not the product: a single-GPU product stays one.
      for (const Offer& src : p.offers)
        if (src.gpu == u.gpu && src.billing == u.billing) {
          if (src.max_gpus > 0) o.max_gpus = src.max_gpus;
          if (src.cpu) o.vcpus_per_gpu = src.cpu->vcpus_per_gpu;
        }
      o.ref = quote_ref(u, c);
      add(std::move(o));
    }
  for (const Offer& src : p.offers) {
    if (!keep(src)) continue;
    const int gi = gpu_index(c, src.gpu);
    if (gi < 0) continue;
    PricedOffer o = priced(p, size_t(gi), src.billing, in(src.per_gpu_hour.typical, src.currency), storage, false);
    o.price_low = in(src.per_gpu_hour.low, src.currency);
    o.price_high = in(src.per_gpu_hour.high, src.currency);
    if (src.per_period)
      o.per_period = PriceRange{in(src.per_period->low, src.currency), in(src.per_period->typical, src.currency),
                                in(src.per_period->high, src.currency)};
    o.max_gpus = src.max_gpus;
    if (src.cpu) o.vcpus_per_gpu = src.cpu->vcpus_per_gpu;  // the product's own, where it differs by card
    o.ref = catalog_ref(p, src, c);
    add(std::move(o));
  }
  // Spot and off-peak prices derived from the platform's discount where no
  // explicit offer exists.
  const size_t listed = offers.size();
  for (size_t i = first; i < listed; ++i) {
    if (offers[i].billing != Billing::on_demand) continue;
    auto derive = [&](Billing b, double discount) {
      PricedOffer d = offers[i];
      d.billing = b;
      d.price *= 1 - discount;
      d.price_low *= 1 - discount;
      d.price_high *= 1 - discount;
      d.ref.billing = b;
      d.ref.derived = true;
      add(std::move(d));
    };
    if (p.spot_discount > 0) derive(Billing::spot, p.spot_discount);
    if (p.off_peak_discount > 0) derive(Billing::off_peak, p.off_peak_discount);
  }
  // Student discounts apply when the user says they qualify.
  if (q.prefs.education && p.education_discount > 0)
    for (size_t i = first; i < offers.size(); ++i) {
      const double keep_share = 1 - p.education_discount;
      offers[i].price *= keep_share;
      offers[i].price_low *= keep_share;
      offers[i].price_high *= keep_share;
      if (offers[i].per_period)
        offers[i].per_period = PriceRange{offers[i].per_period->low * keep_share, offers[i].per_period->typical * keep_share,
                                          offers[i].per_period->high * keep_share};
      offers[i].education = true;
    }
}

// Spot only when asked for: a reclaimed instance loses the run unless the
// training resumes from its checkpoints, which a first rental's script
// rarely does (seed 004 §3.1: spot needs checkpoint saving added to the
// training script first, and no deadline close by). The saving is offered as the `spot` change
// instead (planner_advice.cpp), so the default plan is priced on what a
// student can run unattended.
void keep_requested_billing(const Request& q, std::vector<PricedOffer>& offers) {
  if (!q.prefs.billing.empty())
    std::erase_if(offers, [&](const PricedOffer& o) { return name_of(o.billing) != q.prefs.billing; });
  else
    std::erase_if(offers, [](const PricedOffer& o) { return o.billing == Billing::spot; });
}

}  // namespace

std::vector<PricedOffer> priced_offers(const Request& q, const Catalog& c, const std::string& currency) {
  std::vector<PricedOffer> offers;
  for (const Platform& p : c.platforms)
    if (platform_in_scope(q, p))
      add_platform_offers(q, c, p, currency, true, [](const Offer& o) { return o.of_standing(); }, offers);
  keep_requested_billing(q, offers);
  return offers;
}

std::vector<PricedOffer> reference_offers(const Request& q, const Catalog& c, const std::string& currency) {
  std::vector<PricedOffer> offers;
  for (const Platform& p : c.platforms)
    if (platform_in_scope(q, p))
      add_platform_offers(q, c, p, currency, false,
                          [](const Offer& o) { return !o.of_standing() && !is_package(o.billing); }, offers);
  std::erase_if(offers, [](const PricedOffer& o) { return o.ref.derived; });
  keep_requested_billing(q, offers);
  return offers;
}

int instance_gpus(const PricedOffer& o) {
  const int machine = std::max(1, o.platform->machine_max_gpus);
  return o.max_gpus > 0 ? std::min(machine, o.max_gpus) : machine;
}

bool rentable(const PricedOffer& o, const Gpu& g, int count) {
  if (o.max_gpus > 0) return count <= o.max_gpus;  // a single-GPU product: one card per instance, never joined
  return rentable(*o.platform, g, count);
}

RentalTerms offer_terms(const PricedOffer& o, PriceEnd end) {
  const double price = end == PriceEnd::low ? o.price_low : end == PriceEnd::high ? o.price_high : o.price;
  RentalTerms t = rental_terms(*o.platform, o.billing, price, o.storage_per_gb_month);
  t.minimum_charge = o.minimum_charge;
  if (o.per_period)
    t.price_per_gpu_period = end == PriceEnd::low ? o.per_period->low : end == PriceEnd::high ? o.per_period->high
                                                                                              : o.per_period->typical;
  return t;
}

bool rentable(const Platform& p, const Gpu& g, int count) {
  const int machine = std::max(1, p.machine_max_gpus);
  if (count <= machine) return true;
  return p.machines_joinable && g.segment != Segment::consumer && count % machine == 0;
}

// Checkpoints kept on disk (the last and the best).
constexpr int kCheckpointsKept = 2;

double checkpoint_bytes(const Request& q) {
  double bytes = 0;
  if (q.workload.mode == Mode::infer) return bytes;
  if (q.workload.method != Method::full && q.model.kind != ModelKind::cnn) {
    // An adapter checkpoint: the trainable weights with fp32 master copy and
    // Adam's two moments, 16 bytes per trainable parameter.
    return trainable_params(q.model, q.workload) * 16;
  }
  // The whole model state: weights and optimizer of the unsharded job.
  Workload w = q.workload;
  w.gpus = 1;
  w.sharding = Sharding::none;
  w.cpu_offload = false;
  w.memory_scale = 1;  // a checkpoint holds the model state, whatever peak the user measured
  for (const auto& c : estimate_memory(q.model, w).components)
    if (c.id == "weights" || c.id == "optimizer") bytes += c.bytes;
  return bytes;
}

double storage_gb(const Request& q, double checkpoint_bytes) {
  if (q.prefs.storage_gb >= 0) return q.prefs.storage_gb;
  return q.prefs.dataset_gb + kCheckpointsKept * checkpoint_bytes / 1e9;
}

}  // namespace gpuplan
