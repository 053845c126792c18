// The generation phase of an RL step (GRPO / PPO rollouts): how long one
// GPU takes to generate its batch of completions, and what the phase holds
// beyond the plain inference estimate, from the bytes each engine moves.
// Derivation and sources: docs/objectives.md, "Generation".
#pragma once

#include "gpuplan/catalog.h"
#include "gpuplan/request.h"

namespace gpuplan {

// Completion lengths of one generation batch of `batch` completions from
// rl.completion_len (the cap, TRL max_completion_length) and
// rl.completion_mean (the mean; unset: every completion runs to the cap).
// Assumed: lengths uniform on [shortest, longest_cap] with the stated mean
// (the least-informed shape with a mean and a bound), so the longest of the
// batch is expected at shortest + (cap - shortest) * batch / (batch + 1)
// (order statistics of the uniform).
struct CompletionLengths {
  double mean = 0;
  double shortest = 0;        // every completion runs at least this long
  double longest = 0;         // the expected longest of the batch
};
CompletionLengths completion_lengths(const RlSettings& rl, int batch);

// Completions one GPU generates per optimizer step (TRL's generation batch).
int rollout_batch(const Workload& w);

// The rollout as an inference job on one GPU, generating `generated` tokens
// per completion for `batch` completions.
Workload rollout_workload(const Workload& w, int batch, int generated);

// Seconds one GPU spends in the generation phase of one optimizer step, and
// its parts (each 0 where it does not apply).
struct RolloutTime {
  double seconds = 0;
  double decode_seconds = 0;         // prefill + decode of the batch (the inference estimate)
  double gather_seconds = 0;         // ZeRO-3: all-gathers of the sharded policy's weights
  double dequantize_seconds = 0;     // QLoRA in transformers generate at batch > 1
  double weight_sync_seconds = 0;    // colocated vLLM: the trained weights loaded into the engine
};
RolloutTime rollout_time(const ModelSpec& m, const Workload& w, const Gpu& g, int n);

// Bytes the generation phase holds beyond the training state under ZeRO-3
// with the weights gathered once for generation (TRL ds3_gather_for_generation):
// the other ranks' shards of the half-precision weights.
double gathered_generation_weight_bytes(const ModelSpec& m, const Workload& w);

}  // namespace gpuplan
