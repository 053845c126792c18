// The benchmark requests: bench/plan_bench.cpp times them natively, and
// tools/bench_plan.mjs reads these raw strings from this file to time them in
// wasm, so the two cannot drift apart.
#pragma once

namespace gpuplan::bench {

// Every GPU, every platform and billing option (no hardware, no platform or
// billing preference), three stages, a budget that is exceeded (so the ranked
// changes are computed too) and a deadline.
inline constexpr const char* kFullPlanRequest = R"({
  "locale": "zh-CN",
  "model": {"preset": "llama-3.1-8b"},
  "workload": {"mode": "train", "method": "lora", "micro_batch": 4, "seq_len": 2048},
  "data": {"samples": 50000, "epochs": 3},
  "stages": [{"stage": "debug", "runs": 10}, {"stage": "formal", "runs": 12}, {"stage": "revision", "runs": 4}],
  "budget": {"amount": 5000, "currency": "CNY"},
  "prefs": {"deadline_days": 30, "dataset_gb": 20, "group_size": 4}
})";

// The same planning over a diffusion UNet: SDXL LoRA at 1024 px, whose memory
// and time come from a layer-by-layer expansion of a few hundred layers
// (core/src/cnn_unet.cpp) for every GPU, fit limit and OOM remedy.
inline constexpr const char* kDiffusionPlanRequest = R"({
  "model": {"preset": "sdxl-unet"},
  "workload": {"mode": "train", "method": "lora", "precision": "fp16-mixed", "micro_batch": 1, "image_size": 1024,
               "grad_checkpointing": true},
  "data": {"samples": 10000, "epochs": 5},
  "stages": [{"stage": "debug", "runs": 4}, {"stage": "formal", "runs": 3}, {"stage": "revision", "runs": 2}],
  "budget": {"amount": 3000, "currency": "CNY"}
})";

inline constexpr const char* kSizingRequest = R"({"model": {"preset": "llama-3.1-8b"}, "data": {"samples": 50000, "epochs": 3}})";

}  // namespace gpuplan::bench
