// Mixture-of-experts by its routing (docs/time-model.md, "Mixture of
// experts"): which experts a step touches, and what touching them costs.
// Resident memory holds every expert (memory.cpp); the matmul FLOPs of a
// token pass through its top-k experts only (model_arithmetic.cpp); these
// functions add what neither of those says: the weight bytes a decode step
// reads, and the per-expert loop of eager training.
#pragma once

#include "gpuplan/model.h"
#include "gpuplan/model_arithmetic.h"
#include "gpuplan/request.h"

namespace gpuplan {

inline bool is_moe(const ModelSpec& m) { return m.experts > 1 && m.experts_per_token < m.experts; }

// Expected number of distinct experts of one layer that `tokens` tokens,
// each routed to top_k of `experts`, reach, under uniform routing:
// E·(1 − (1 − k/E)^tokens). Uniform routing is the assumption the
// load-balancing loss trains towards (Fedus et al. 2022, "Switch
// Transformers", sec. 2.2: the auxiliary loss is minimised under a uniform
// distribution); real routers are somewhat skewed, so this is an upper bound
// on the experts a small batch reads. Each of a token's k choices is taken as
// an independent draw (the k are distinct in fact: exact for one token).
double expected_experts_hit(int experts, int top_k, double tokens);

// Parameters of one layer's routed experts (all of them; the router and
// attention excluded), as model_shapes counts them.
double expert_params_per_layer(const ModelSpec& model, const ModelShapes& shapes);

// Weight bytes one decode step of `tokens_per_step` tokens (the batch) reads
// on one card, unsplit: every weight but the experts, plus the experts hit.
// A dense model reads its whole decode_streamed_weight_bytes.
double decode_weight_bytes_read(const ModelSpec& model, const ModelShapes& shapes, Precision precision, Stack stack,
                                double tokens_per_step);

// The per-expert loop of an eager MoE block (transformers' Mixtral / Qwen-MoE
// SparseMoeBlock: `for expert_idx in expert_hit`), per micro-batch and
// transformer layer count included: extra kernels launched and weight bytes
// read beyond the dense accounting. Optimized stacks (grouped GEMM: unsloth,
// Megatron's GroupedMLP, torchtune) launch a constant number of kernels per
// layer and pay only the weight reads.
struct ExpertLoopWork {
  double extra_kernels = 0;       // per micro-batch, all passes
  double weight_bytes_read = 0;   // per micro-batch, all passes
  double expert_flops = 0;        // the routed experts' matmul FLOPs in those passes (part of the step's FLOPs)
  double experts_hit_per_layer = 0;
};
ExpertLoopWork expert_loop_work(const ModelSpec& model, const ModelShapes& shapes, const Workload& workload,
                                bool fused_kernels);

}  // namespace gpuplan
