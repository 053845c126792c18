// Per-GPU memory estimate: a first-principles accounting of what PyTorch
// holds at the peak of a training step or an inference batch, every term
// citing its derivation. This file holds the entry points, the composition
// helpers and the baseline calibration; the accounting's parts are
// memory_activations.cpp, memory_training.cpp, memory_cnn.cpp and
// memory_inference.cpp, their shared terms estimate/memory_model.h.
// docs/memory-model.md has the full derivation and the error measured against
// published runs (tests/data/memory_cases.json).
#include "gpuplan/memory.h"

#include <algorithm>
#include <utility>

#include "estimate/memory_model.h"
#include "estimate/objective.h"
#include "estimate/vlm.h"

namespace gpuplan {
using namespace memory_model;

double engine_pool_bytes(const Workload& w, double card_memory_bytes) {
  if (w.mode != Mode::infer || w.stack != Stack::vllm || !(card_memory_bytes > 0)) return 0;
  return kVllmGpuMemoryUtilization * card_memory_bytes;
}

std::vector<MemoryComponent> allocated_components(MemoryEstimate e) {
  std::vector<MemoryComponent> out;
  for (auto& c : e.components)
    if (c.id != "allocator_reserve" && c.id != "runtime") out.push_back(std::move(c));
  return out;
}

std::vector<MemoryComponent> resident_training_state(const ModelSpec& m, const Workload& w) {
  const ModelShapes s = model_shapes(m);
  const TrainState t = w.method == Method::full ? full_training_state(m, s, w) : adapter_training_state(m, s, w);
  MemoryEstimate e;
  add(e, "weights", t.weights);
  add(e, "gradients", t.persistent_grads);
  add(e, "optimizer", t.optimizer);
  return e.components;
}

MemoryEstimate finish_estimate(std::vector<MemoryComponent> allocated) {
  MemoryEstimate e;
  for (auto& c : allocated) add(e, c.id.c_str(), c.bytes);
  return finish(e);
}

namespace {

// The user's measured peak (request baseline.memory_bytes) re-anchors every
// figure: all that the model counts is multiplied by measured / estimated on
// the baseline card, the fixed CUDA context excepted (docs/memory-model.md,
// "Calibration from your own run").
MemoryEstimate rescaled(MemoryEstimate e, double scale) {
  for (auto& c : e.components)
    if (c.id != "runtime") c.bytes *= scale;
  e.allocated_bytes *= scale;
  e.reserved_bytes *= scale;
  e.total_bytes = e.reserved_bytes + kCudaContextBytes;
  return e;
}

}  // namespace

MemoryEstimate model_memory(const ModelSpec& m, const Workload& w) {
  MemoryEstimate e;
  if (m.kind == ModelKind::cnn) {
    e = cnn_memory(m, w);
  } else {
    const ModelShapes s = model_shapes(m);
    e = w.mode == Mode::infer ? inference_memory(m, s, w) : transformer_training(m, s, w);
  }
  e.trainable_params = trainable_params(m, w);
  return e;
}

MemoryEstimate estimate_memory(const ModelSpec& m, const Workload& w) {
  MemoryEstimate e;
  // Compositions (docs/vlm.md, docs/objectives.md) sit above the one-model
  // estimate and build on it; none calls back here.
  if (m.kind == ModelKind::vlm) {
    e = vlm_memory(m, w);
  } else if (has_objective_phases(m, w)) {
    e = objective_memory(m, w);
  } else {
    e = model_memory(m, w);
  }
  e.trainable_params = trainable_params(m, w);
  // The user's measured peak re-anchors the whole estimate, once.
  if (w.memory_scale > 0 && w.memory_scale != 1) e = rescaled(e, w.memory_scale);
  e.scale = w.memory_scale > 0 ? w.memory_scale : 1;
  return e;
}

double memory_baseline_scale(const ModelSpec& m, const Workload& w, int count, double measured_bytes) {
  Workload at = w;
  at.memory_scale = 1;
  at.gpus = std::max(1, count);
  if (at.gpus > 1 && at.sharding == Sharding::none) at.sharding = Sharding::ddp;
  if (at.gpus == 1 && at.sharding == Sharding::ddp) at.sharding = Sharding::none;
  const double counted = estimate_memory(m, at).total_bytes - kCudaContextBytes;
  const double measured = measured_bytes - kCudaContextBytes;
  if (!(counted > 0) || !(measured > 0)) return 1;
  return std::clamp(measured / counted, kMinMemoryScale, kMaxMemoryScale);
}

double saved_bytes_per_token_layer(const ModelSpec& m, const Workload& w) {
  return layer_bytes_per_token(m, model_shapes(m), w) + score_bytes_per_token(m, w);
}

}  // namespace gpuplan
