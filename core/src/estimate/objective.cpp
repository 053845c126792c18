// DPO, GRPO and PPO as compositions of the plain estimates (memory.cpp,
// throughput.cpp). How each framework holds its models, and the derivation of
// every term below: docs/objectives.md.
#include "estimate/objective.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "estimate/generation.h"
#include "gpuplan/model_arithmetic.h"

namespace gpuplan {
namespace {

bool adapter(const Workload& w) { return w.method != Method::full; }

void add(std::vector<MemoryComponent>& v, const char* id, double bytes) {
  if (bytes > 0) v.push_back({id, bytes});
}

double sum(const std::vector<MemoryComponent>& v) {
  double s = 0;
  for (const auto& c : v) s += c.bytes;
  return s;
}

// Bytes per parameter of a frozen model copy. TRL builds the reference like
// the policy (same from_pretrained dtype: fp32 parameters under autocast,
// bf16 under bf16-true); DeepSpeed prepares it as an inference engine in the
// half dtype, and ZeRO-3 partitions it over the ranks like the policy.
double frozen_copy_bytes(const Workload& w, double params) {
  const bool zero = w.sharding == Sharding::zero1 || w.sharding == Sharding::zero2 || w.sharding == Sharding::zero3;
  double bytes = 4;
  if (w.precision == Precision::bf16_true || (zero && w.precision != Precision::fp32)) bytes = 2;
  const double shard = w.sharding == Sharding::zero3 ? 1.0 / std::max(1, w.gpus) : 1.0;
  return params * bytes * shard;
}

// A forward under no_grad over `tokens`: one layer's MLP intermediates (gate,
// up, their product and the block's input and output, half precision) and the
// logits it returns for every position (the log-probabilities of each token
// are read off them: TRL's selective_log_softmax, OpenRLHF's log_probs_from_logits).
double scoring_forward_bytes(const ModelSpec& m, double tokens) {
  const double f = double(m.ffn) * std::max(1, m.experts_per_token);
  return tokens * ((m.gated_mlp ? 3 : 2) * f + 2.0 * m.hidden) * 2 + tokens * double(m.vocab) * 2;
}

// PPO's critic: the policy's network with a scalar value head in place of the
// LM head (OpenRLHF / TRL AutoModelForCausalLMWithValueHead-style critics).
ModelSpec critic_of(const ModelSpec& m) {
  ModelSpec c = m;
  if (!m.tied_embeddings) c.params = std::max(double(m.vocab) * m.hidden, m.params - double(m.vocab) * m.hidden + m.hidden);
  return c;
}

// Forward FLOPs over the training step's FLOPs per token (Kaplan et al. 2020:
// 2 per weight forward, 4 more backward, 2 without weight gradients under
// LoRA; activation checkpointing recomputes a forward). A scoring forward
// (reference, old log-probabilities, values) costs this share of the step's
// GPU time at the same achieved rate.
double forward_share(const Workload& w) {
  double step = (adapter(w) ? 4.0 : 6.0) + (w.grad_checkpointing ? 2.0 : 0.0);
  return 2.0 / step;
}

}  // namespace

bool has_objective_phases(const ModelSpec& m, const Workload& w) {
  return w.mode == Mode::train && w.objective != Objective::sft && m.kind != ModelKind::cnn;
}

bool runs_reference(const Workload& w) {
  if (w.objective == Objective::sft) return false;
  if (w.rl.reference >= 0) return w.rl.reference == 1;
  return w.objective != Objective::grpo;
}

bool holds_reference_copy(const Workload& w) { return runs_reference(w) && !adapter(w); }

Workload policy_step_workload(const Workload& w) {
  Workload t = w;
  t.objective = Objective::sft;
  t.rate_scale = 1;
  if (w.objective == Objective::dpo) {
    // TRL concatenated_forward: chosen and rejected in one batch of 2 x micro_batch.
    t.micro_batch = 2 * w.micro_batch;
  } else {
    t.seq_len = w.seq_len + w.rl.completion_len;
  }
  return t;
}

MemoryEstimate objective_memory(const ModelSpec& m, const Workload& w) {
  const Workload t = policy_step_workload(w);
  // Training phase: the policy's step, plus what stays beside it.
  std::vector<MemoryComponent> train = allocated_components(model_memory(m, t));
  std::vector<MemoryComponent> beside;
  if (holds_reference_copy(w)) add(beside, "reference_model", frozen_copy_bytes(w, m.params));
  if (w.objective == Objective::ppo) {
    for (const auto& c : resident_training_state(critic_of(m), t)) add(beside, ("critic_" + c.id).c_str(), c.bytes);
    if (w.rl.reward_model) add(beside, "reward_model", frozen_copy_bytes(w, critic_of(m).params));
  }
  if (w.objective == Objective::dpo && runs_reference(w)) {
    // TRL's DPOTrainer scores the reference (compute_ref_log_probs) after
    // the policy's concatenated forward, whose graph is still alive.
    add(train, "reference_forward", scoring_forward_bytes(m, double(t.micro_batch) * t.seq_len));
  }
  if (w.objective != Objective::dpo && w.rl.rollout == Rollout::vllm) {
    // A colocated vLLM keeps its own weights and KV cache for the whole run
    // (gpu_memory_utilization is claimed at start-up): the least share that
    // holds this rollout batch.
    const std::vector<MemoryComponent> engine =
        allocated_components(model_memory(m, rollout_workload(w, rollout_batch(w), w.rl.completion_len)));
    add(beside, "rollout_engine", sum(engine));
  }
  // A copy moved in: the vector's one push_back is the one that moves.
  for (const auto& c : beside) train.push_back(MemoryComponent(c));
  if (w.objective == Objective::dpo || w.rl.rollout == Rollout::vllm) return finish_estimate(train);

  // Rollout phase in the trainer (transformers generate): the resident state,
  // no activations, the KV cache of the whole rollout batch and the prefill's
  // working set. The step peaks at whichever phase holds more.
  std::vector<MemoryComponent> roll = resident_training_state(m, t);
  for (auto& c : beside) roll.push_back(std::move(c));  // beside's last use
  // transformers generate grows its cache to the batch's longest completion.
  const Workload g = rollout_workload(
      w, rollout_batch(w), std::max(1, int(std::lround(completion_lengths(w.rl, rollout_batch(w)).longest))));
  const ModelShapes s = model_shapes(m);
  const double kv = 2.0 * m.layers * s.kv_dim * double(g.seq_len) * g.micro_batch * w.kv_cache_bits / 8.0;
  add(roll, "kv_cache", kv);
  // ZeRO-3 with the weights gathered once for generation: the whole policy
  // on every card while it generates (generation.h).
  add(roll, "gathered_weights", gathered_generation_weight_bytes(m, w));
  add(roll, "activations", scoring_forward_bytes(m, double(g.micro_batch) * w.seq_len) -
                               double(g.micro_batch) * w.seq_len * m.vocab * 2 + double(g.micro_batch) * m.vocab * 4);
  return finish_estimate(sum(roll) > sum(train) ? roll : train);
}

Throughput objective_throughput(const ModelSpec& m, const Workload& w, const Gpu& g, int n) {
  const Workload t = policy_step_workload(w);
  Throughput out = model_throughput(m, t, g, n);
  if (!(out.step_seconds > 0)) return out;
  const double accumulation = std::max(1, w.grad_accumulation);
  const StepTime& st = out.step;
  // One scoring forward over the step's sequences, on each GPU.
  const double forward = (st.compute_seconds + st.memory_seconds + st.kernel_tail_seconds) * forward_share(t) * accumulation;
  double scoring = runs_reference(w) ? forward : 0;
  double training = out.step_seconds;
  double rollout = 0;
  if (w.objective == Objective::ppo) {
    // Old log-probabilities and values (OpenRLHF make_experience), the critic's
    // update (its network is the policy's but for the head), a reward model's score.
    scoring += 2 * forward + (w.rl.reward_model ? forward : 0);
    training += model_throughput(critic_of(m), t, g, n).step_seconds;
  }
  if (w.objective == Objective::grpo || w.objective == Objective::ppo) rollout = rollout_time(m, w, g, n).seconds;
  const double step = training + scoring + rollout;
  // Samples: preference pairs (DPO), prompts (GRPO / PPO: group_size completions each).
  const double sequences = double(n) * t.micro_batch * accumulation;
  const double per_sample = w.objective == Objective::dpo ? 2.0 : (w.objective == Objective::grpo ? w.rl.group_size : 1.0);
  const double scale = w.rate_scale > 0 ? w.rate_scale : 1;
  out.step_seconds = step / scale;
  out.samples_per_s = sequences / per_sample / step * scale;
  out.tokens_per_s = sequences * t.seq_len / step * scale;
  out.utilization *= training / step * scale;
  out.achieved_tflops = out.peak_tflops * out.utilization;
  out.rollout_seconds = rollout / scale;
  out.scoring_seconds = scoring / scale;
  out.training_seconds = training / scale;
  return out;
}

}  // namespace gpuplan
