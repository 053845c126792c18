// The OOM doctor (docs/oom-doctor.md). Each remedy is a real change to the
// request, re-estimated with the same memory and time models the plan uses,
// so "this makes it fit" is never a rule of thumb.
#include "gpuplan/oom_doctor.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "gpuplan/throughput.h"
#include "text/order.h"

namespace gpuplan {
namespace {

struct Context {
  const ModelSpec& model;
  const Workload& original;
  const Gpu& gpu;
  int count;
  double original_samples_per_s;  // on the chosen card, as if it fitted
};

bool fits(const MemoryEstimate& m, const Gpu& g) { return m.total_bytes <= g.memory_bytes; }

// Transformers, and the diffusion UNets among the convolutional presets, have
// attention (so FlashAttention / SDPA applies) and attention projections that
// LoRA adapts (diffusers train_text_to_image_lora.py).
bool has_attention(const ModelSpec& m) { return m.kind != ModelKind::cnn || m.architecture.family == CnnFamily::sd_unet || m.architecture.family == CnnFamily::flux; }

// Mixed precision needs tensor cores in the 16-bit format: bf16 from Ampere
// on, fp16 from Volta on (NVIDIA Ampere whitepaper; PyTorch AMP docs).
Precision mixed_for(const Gpu& g) {
  return g.tflops.bf16_tensor > 0 ? Precision::bf16_mixed : Precision::fp16_mixed;
}

Remedy evaluate(const Context& c, std::string_view id, Workload w, const Gpu& g, int count, QualityImpact quality) {
  Remedy r;
  r.id = std::string(id);
  w.gpus = count;
  if (count == 1 && w.sharding == Sharding::ddp) w.sharding = Sharding::none;
  r.workload = w;
  r.gpu = g.id;
  r.gpu_name = g.name;
  r.count = count;
  r.memory = estimate_memory(c.model, w);
  r.fits = fits(r.memory, g);
  r.quality = quality;
  r.gradient_accumulation =
      std::max(1, int(std::ceil(double(c.original.micro_batch) / std::max(1, w.micro_batch))));
  Throughput t = estimate_throughput(c.model, w, g, count);
  if (t.samples_per_s > 0 && c.original_samples_per_s > 0) {
    r.time_factor = c.original_samples_per_s / t.samples_per_s;
    r.gpu_hours_factor = r.time_factor * count / std::max(1, c.count);
  }
  return r;
}

// The largest micro-batch that fits (memory grows monotonically with it), with
// gradient accumulation keeping the effective batch (Goyal et al. 2017 keep
// the optimizer step identical: same effective batch, same learning rate).
void smaller_micro_batch(const Context& c, std::vector<Remedy>& out) {
  if (c.original.micro_batch <= 1) return;
  Workload w = c.original;
  int lo = 1, hi = c.original.micro_batch - 1;
  w.micro_batch = 1;
  if (!fits(estimate_memory(c.model, w), c.gpu)) return;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    w.micro_batch = mid;
    if (fits(estimate_memory(c.model, w), c.gpu)) lo = mid;
    else hi = mid - 1;
  }
  w.micro_batch = lo;
  out.push_back(evaluate(c, remedy_id::micro_batch, w, c.gpu, c.count, QualityImpact::none));
}

// The fewest GPUs of the same type that hold it under ZeRO-3 / FSDP
// (Rajbhandari et al. 2020): parameters, gradients and optimizer states / N.
void more_gpus(const Context& c, std::vector<Remedy>& out) {
  for (int n = std::max(2, c.count * 2); n <= 64; n *= 2) {
    Workload w = c.original;
    w.sharding = Sharding::zero3;  // training: ZeRO-3 / FSDP; inference: tensor-split weights
    Remedy r = evaluate(c, remedy_id::zero3, w, c.gpu, n, QualityImpact::none);
    if (r.fits) {
      out.push_back(std::move(r));
      return;
    }
  }
}

// The card with the least memory that holds the unchanged workload: renting
// more memory than needed is the waste the seeds warn about.
void larger_gpu(const Context& c, const Catalog& catalog, std::vector<Remedy>& out) {
  const Gpu* best = nullptr;
  for (const auto& g : catalog.gpus) {
    if (g.memory_bytes <= c.gpu.memory_bytes) continue;
    Workload w = c.original;
    if (!fits(estimate_memory(c.model, w), g)) continue;
    if (!best || g.memory_bytes < best->memory_bytes ||
        (g.memory_bytes == best->memory_bytes && g.launch_year > best->launch_year))
      best = &g;
  }
  if (best) out.push_back(evaluate(c, remedy_id::larger_gpu, c.original, *best, c.count, QualityImpact::none));
}

void single_changes(const Context& c, const Catalog& catalog, std::vector<Remedy>& out) {
  const Workload& o = c.original;
  auto try_change = [&](std::string_view id, Workload w, QualityImpact q) {
    Remedy r = evaluate(c, id, w, c.gpu, c.count, q);
    if (r.fits) out.push_back(std::move(r));
  };
  smaller_micro_batch(c, out);
  if (o.mode == Mode::train) {
    if (!o.grad_checkpointing) {
      Workload w = o;
      w.grad_checkpointing = true;
      try_change(remedy_id::grad_checkpointing, w, QualityImpact::none);
    }
    if (o.precision == Precision::fp32) {
      Workload w = o;
      w.precision = mixed_for(c.gpu);
      try_change(remedy_id::mixed_precision, w, QualityImpact::numerics);
    }
    if (o.optimizer == Optimizer::adamw && o.method == Method::full) {
      Workload w = o;
      w.optimizer = Optimizer::adamw_8bit;
      try_change(remedy_id::optimizer_8bit, w, QualityImpact::numerics);
    }
    if (o.method == Method::full && !o.cpu_offload) {
      Workload w = o;
      w.cpu_offload = true;
      try_change(remedy_id::cpu_offload, w, QualityImpact::none);
    }
    if (o.method == Method::full && has_attention(c.model)) {
      Workload w = o;
      w.method = Method::lora;
      w.precision = o.precision == Precision::fp32 ? mixed_for(c.gpu) : o.precision;
      try_change(remedy_id::lora, w, QualityImpact::method);
    }
    if (o.method != Method::qlora && c.model.kind != ModelKind::cnn) {
      Workload w = o;
      w.method = Method::qlora;
      w.precision = o.precision == Precision::fp32 ? mixed_for(c.gpu) : o.precision;
      try_change(remedy_id::qlora, w, QualityImpact::method);
    }
  } else {
    if (o.kv_cache_bits > 8) {
      Workload w = o;
      w.kv_cache_bits = 8;
      try_change(remedy_id::kv_cache_8bit, w, QualityImpact::numerics);
    }
    if (o.precision == Precision::fp32 || o.precision == Precision::fp16 || o.precision == Precision::bf16) {
      Workload w = o;
      w.precision = Precision::int8;
      try_change(remedy_id::weights_int8, w, QualityImpact::numerics);
      w.precision = Precision::int4;
      try_change(remedy_id::weights_int4, w, QualityImpact::numerics);
    }
  }
  if (!o.flash_attention && has_attention(c.model)) {
    Workload w = o;
    w.flash_attention = true;
    try_change(remedy_id::flash_attention, w, QualityImpact::none);
  }
  more_gpus(c, out);
  larger_gpu(c, catalog, out);
}

// When no single change is enough: stack the ones that keep the result
// (checkpointing, smaller micro-batch, offload), then 8-bit states, then QLoRA,
// then spread over more GPUs, stopping as soon as it fits.
void combined(const Context& c, std::vector<Remedy>& out) {
  Workload w = c.original;
  QualityImpact quality = QualityImpact::none;
  auto fits_now = [&] { return fits(estimate_memory(c.model, w), c.gpu); };
  if (w.mode == Mode::train) {
    w.grad_checkpointing = true;
    if (!fits_now()) w.micro_batch = 1;
    if (!fits_now() && w.precision == Precision::fp32) { w.precision = mixed_for(c.gpu); quality = QualityImpact::numerics; }
    if (!fits_now() && has_attention(c.model)) w.flash_attention = true;
    if (!fits_now() && w.method == Method::full && w.optimizer == Optimizer::adamw) { w.optimizer = Optimizer::adamw_8bit; quality = QualityImpact::numerics; }
    if (!fits_now() && w.method != Method::qlora && c.model.kind != ModelKind::cnn) { w.method = Method::qlora; quality = QualityImpact::method; }
  } else {
    w.micro_batch = 1;
    if (!fits_now()) { w.kv_cache_bits = 8; quality = QualityImpact::numerics; }
    if (!fits_now()) w.precision = Precision::int4;
  }
  int n = c.count;
  while (!fits(estimate_memory(c.model, w), c.gpu) && n < 64) {
    n *= 2;
    w.gpus = n;
    w.sharding = Sharding::zero3;
  }
  Remedy r = evaluate(c, remedy_id::combined, w, c.gpu, n, quality);
  if (r.fits) out.push_back(std::move(r));
}

}  // namespace

Diagnosis diagnose(const ModelSpec& model, const Workload& workload, const Gpu& gpu, int count,
                   const Catalog& catalog) {
  Diagnosis d;
  d.original = workload;
  d.gpu = gpu.id;
  d.count = count;
  d.capacity_bytes = gpu.memory_bytes;
  MemoryEstimate need = estimate_memory(model, workload);
  d.total_bytes = need.total_bytes;
  d.fits = fits(need, gpu);

  Throughput base = estimate_throughput(model, workload, gpu, count);
  if (workload.mode == Mode::train && workload.precision == Precision::fp32) {
    Workload mixed = workload;
    mixed.precision = mixed_for(gpu);
    Throughput fast = estimate_throughput(model, mixed, gpu, count);
    if (base.samples_per_s > 0) d.mixed_precision_speedup = fast.samples_per_s / base.samples_per_s;
  }
  if (d.fits) return d;

  Context c{model, workload, gpu, count, base.samples_per_s};
  single_changes(c, catalog, d.remedies);
  if (d.remedies.empty()) combined(c, d.remedies);
  // Best first: what keeps the result, then what the student can do on the
  // card they chose before renting more or other hardware, then GPU-hours.
  auto key = [&](const Remedy& r) {
    bool other_hardware = r.gpu != gpu.id || r.count != count;
    return std::make_tuple(int(r.quality), other_hardware, r.gpu_hours_factor);
  };
  stable_sort_by(d.remedies, [&](const Remedy& a, const Remedy& b) { return key(a) < key(b); });
  return d;
}

}  // namespace gpuplan
