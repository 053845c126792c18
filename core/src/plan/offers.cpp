// The offers a request may rent (offers.h).
#include "offers.h"

#include <algorithm>

#include "gpuplan/memory.h"
#include "gpuplan/model_arithmetic.h"
#include "gpuplan/pricing.h"
#include "names.h"

namespace gpuplan {

bool platform_in_scope(const Request& q, const Platform& p) {
  if (!q.prefs.platforms.empty())
    return std::find(q.prefs.platforms.begin(), q.prefs.platforms.end(), p.id) != q.prefs.platforms.end();
  return q.prefs.scope == Scope::global || p.currency == "CNY";
}

std::vector<PricedOffer> priced_offers(const Request& q, const Catalog& c, const std::string& currency) {
  std::vector<PricedOffer> offers;
  auto gpu_index = [&](const std::string& id) -> int {
    for (size_t i = 0; i < c.gpus.size(); ++i)
      if (c.gpus[i].id == id) return int(i);
    return -1;
  };
  for (const Platform& p : c.platforms) {
    if (!platform_in_scope(q, p)) continue;
    const double storage = convert_currency(p.storage_per_gb_month, p.currency, currency, c.fx);
    const size_t first = offers.size();
    // A price of 0 is a price (a free campus centre, 校级算力 "免费或极低"),
    // which the user's quote may give; the catalog's unknowns are never 0.
    auto add = [&](int gpu, Billing b, double price_plan_currency, bool user) {
      if (gpu < 0 || !(user ? price_plan_currency >= 0 : price_plan_currency > 0)) return;
      if (q.hardware && c.gpus[size_t(gpu)].id != q.hardware->gpu) return;
      for (size_t i = first; i < offers.size(); ++i)
        if (offers[i].gpu == size_t(gpu) && offers[i].billing == b) return;  // first one wins: user, then catalog
      PricedOffer o{&p, size_t(gpu), b, price_plan_currency, storage, false, user};
      offers.push_back(o);
    };
    // The user's own quotes override the catalog (contract: prices[]).
    for (const UserPrice& u : q.prices)
      if (u.platform == p.id) add(gpu_index(u.gpu), u.billing, convert_currency(u.per_gpu_hour, u.currency, currency, c.fx), true);
    // Only a list price stands as typical (contract v1.1): floors and promotions are not planned with.
    for (const Offer& o : p.offers)
      if (o.typical_known())
        add(gpu_index(o.gpu), o.billing, convert_currency(o.per_gpu_hour.typical, o.currency, currency, c.fx), false);
    // Spot and off-peak prices derived from the platform's discount where no
    // explicit offer exists.
    const size_t listed = offers.size();
    for (size_t i = first; i < listed; ++i) {
      if (offers[i].billing != Billing::on_demand) continue;
      const PricedOffer base = offers[i];
      if (p.spot_discount > 0) add(int(base.gpu), Billing::spot, base.price * (1 - p.spot_discount), base.user);
      if (p.off_peak_discount > 0) add(int(base.gpu), Billing::off_peak, base.price * (1 - p.off_peak_discount), base.user);
    }
    // Student discounts apply when the user says they qualify.
    if (q.prefs.education && p.education_discount > 0)
      for (size_t i = first; i < offers.size(); ++i) {
        offers[i].price *= 1 - p.education_discount;
        offers[i].education = true;
      }
  }
  if (!q.prefs.billing.empty()) {
    std::erase_if(offers, [&](const PricedOffer& o) { return name_of(o.billing) != q.prefs.billing; });
  } else {
    // Spot only when asked for: a reclaimed instance loses the run unless the
    // training resumes from its checkpoints, which a first rental's script
    // rarely does (seed 004 §3.1: spot needs "训练脚本开头添加检查点保存功能",
    // and not before a deadline). The saving is offered as the
    // `spot` change instead (planner_advice.cpp), so the default plan is
    // priced on what a student can run unattended.
    std::erase_if(offers, [](const PricedOffer& o) { return o.billing == Billing::spot; });
  }
  return offers;
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
