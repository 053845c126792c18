// Vision-language models: the vision tower and projector, then the decoder
// over text and image tokens. Each part is a one-model estimate (model_memory,
// model_throughput), the decoder's under its objective's composition
// (objective.h); this file decides what each part sees. docs/vlm.md.
#include "estimate/vlm.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "gpuplan/limits.h"
#include "gpuplan/model_arithmetic.h"
#include "estimate/objective.h"

namespace gpuplan {
namespace {

// Qwen2-VL / Qwen2.5-VL image processor (smart_resize): each side rounded to
// a multiple of patch x merge (28 px), at least one merged token per side.
double resized_side(const VisionTower& v, int image_size) {
  const double factor = double(std::max(1, v.patch)) * std::max(1, v.merge);
  return std::max(factor, std::round(image_size / factor) * factor);
}

int images(const Workload& w) { return std::max(0, w.images_per_sample); }

// What the decoder sees: its own text plus the image tokens, placed in the
// sequence (Qwen2.5-VL replaces each <|image_pad|> with one merged patch).
Workload decoder_workload(const ModelSpec& m, const Workload& w) {
  Workload d = w;
  const double image_tokens = images(w) * vlm_image_tokens(m.vision, w.image_size);
  if (w.mode == Mode::infer && d.generated_len <= 0) d.generated_len = std::max(1, w.seq_len / 2);
  d.seq_len = int(std::min(limit::seq_len.max, w.seq_len + image_tokens));
  return d;
}

// What the tower sees: every image of the micro-batch as its own sequence of
// patches (full attention over the image; Qwen2.5-VL's windowed layers attend
// within 8 x 8 patches, fewer attention FLOPs than counted here).
Workload tower_workload(const ModelSpec& m, const Workload& w, bool trained) {
  Workload t = w;
  t.objective = Objective::sft;
  t.generated_len = 0;
  t.seq_len = int(vlm_image_patches(m.vision, w.image_size));
  t.micro_batch = std::max(1, w.micro_batch * images(w) * (w.objective == Objective::dpo ? 2 : 1));
  if (!trained) {
    t.mode = Mode::infer;
    t.precision = w.precision == Precision::fp32 ? Precision::fp32 : Precision::bf16;
  }
  return t;
}

bool tower_trained(const Workload& w) { return w.mode == Mode::train && w.train_vision_tower; }

// Bytes per parameter of the frozen tower: it is loaded with the rest of the
// model (fp32 under full fine-tuning with autocast, the compute dtype with
// LoRA / QLoRA, as LLaMA-Factory and PEFT load a frozen base).
double frozen_tower_bytes(const Workload& w) {
  if (w.precision == Precision::fp32 || w.frozen_base_fp32) return 4;  // loaded in fp32 with the LLM
  if (w.mode == Mode::train && w.method == Method::full && w.precision != Precision::bf16_true) return 4;
  return 2;
}

}  // namespace

double vlm_image_tokens(const VisionTower& v, int image_size) {
  const double side = resized_side(v, image_size) / (double(std::max(1, v.patch)) * std::max(1, v.merge));
  return side * side;
}

double vlm_image_patches(const VisionTower& v, int image_size) {
  const double side = resized_side(v, image_size) / std::max(1, v.patch);
  return side * side;
}

ModelSpec vlm_decoder(const ModelSpec& m) {
  ModelSpec d = m;
  d.kind = ModelKind::decoder;
  d.params = std::max(1.0, m.params - m.vision.params);
  d.vision = VisionTower{};
  return d;
}

ModelSpec vlm_tower(const ModelSpec& m) {
  ModelSpec t;
  t.id = m.id + "/vision";
  t.kind = ModelKind::encoder;
  t.params = std::max(1.0, m.vision.params);
  t.layers = m.vision.layers;
  t.hidden = m.vision.hidden;
  t.heads = m.vision.heads;
  t.kv_heads = m.vision.heads;
  t.ffn = m.vision.ffn;
  t.vocab = 0;
  t.gated_mlp = m.vision.gated_mlp;
  return t;
}

double vlm_trainable_params(const ModelSpec& m, const Workload& w) {
  double n = trainable_params(vlm_decoder(m), w);
  if (images(w) > 0 && tower_trained(w)) n += trainable_params(vlm_tower(m), tower_workload(m, w, true));
  return n;
}

double vlm_train_flops_per_micro_batch(const ModelSpec& m, const Workload& w) {
  double flops = train_flops_per_micro_batch(vlm_decoder(m), decoder_workload(m, w));
  if (images(w) == 0) return flops;
  const ModelSpec tower = vlm_tower(m);
  const Workload t = tower_workload(m, w, tower_trained(w));
  if (tower_trained(w)) return flops + train_flops_per_micro_batch(tower, t);
  const double per_token = forward_matmul_flops_per_token(tower, model_shapes(tower)) + attention_flops_per_token(tower, t.seq_len);
  return flops + double(t.micro_batch) * t.seq_len * per_token;
}

MemoryEstimate vlm_memory(const ModelSpec& m, const Workload& w) {
  const ModelSpec decoder = vlm_decoder(m);
  const Workload d = decoder_workload(m, w);
  std::vector<MemoryComponent> parts =
      allocated_components(has_objective_phases(decoder, d) ? objective_memory(decoder, d) : model_memory(decoder, d));
  if (images(w) > 0 && tower_trained(w)) {
    // Trained tower: its own weights, gradients, optimizer states and saved
    // activations, alive beside the decoder's through the step.
    for (const auto& c : allocated_components(model_memory(vlm_tower(m), tower_workload(m, w, true))))
      parts.push_back({"vision_" + c.id, c.bytes});
  } else {
    // Frozen tower: its weights only. It runs without recording a graph
    // before the decoder's forward, so its working set is freed by the time
    // the decoder's activations build up (its output is counted in the decoder).
    parts.push_back({"vision_weights", m.vision.params * frozen_tower_bytes(w)});
  }
  return finish_estimate(parts);
}

Throughput vlm_throughput(const ModelSpec& m, const Workload& w, const Gpu& g, int n) {
  const ModelSpec decoder = vlm_decoder(m);
  const Workload d = decoder_workload(m, w);
  Throughput t = has_objective_phases(decoder, d) ? objective_throughput(decoder, d, g, n) : model_throughput(decoder, d, g, n);
  if (!(t.step_seconds > 0) || images(w) == 0) return t;
  const bool trained = tower_trained(w);
  const Throughput v = model_throughput(vlm_tower(m), tower_workload(m, w, trained), g, trained ? n : 1);
  if (!(v.step_seconds > 0)) return t;
  // A frozen tower's forward runs once per micro-batch (an inference pass of
  // the same images); a trained one's step already spans the accumulation.
  const double tower = trained || w.mode == Mode::infer ? v.step_seconds
                                                        : v.step_seconds * std::max(1, w.grad_accumulation);
  const double step = t.step_seconds + tower;
  const double slow = t.step_seconds / step;
  t.samples_per_s *= slow;
  t.tokens_per_s *= slow;
  t.step_seconds = step;
  t.trainable_params = vlm_trainable_params(m, w);
  // Utilization: the whole model's FLOPs (model arithmetic's count) over the step.
  if (w.mode == Mode::train && t.peak_tflops > 0) {
    const double flops = vlm_train_flops_per_micro_batch(m, w) * std::max(1, w.grad_accumulation);
    t.utilization = flops / (step * t.peak_tflops * 1e12);  // per GPU; step already carries any baseline scale
  } else {
    t.utilization *= slow;
  }
  t.achieved_tflops = t.peak_tflops * t.utilization;
  t.training_seconds = t.training_seconds > 0 ? t.training_seconds + tower : 0;
  return t;
}

}  // namespace gpuplan
