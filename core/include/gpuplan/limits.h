// The request's numeric limits: one table, read by the request parser
// (core/src/read), by the searches that probe up to a limit (estimate/:
// the largest micro-batch and sequence that fit must take the probes the
// parser would accept), and by the page, whose every input gets its min and
// max from web/src/limits.ts, generated from this table by
// tests/core/limits_test.cpp (which fails while the file differs).
//
// A limit bounds what a request may say, not what is plausible: the bounds
// keep every product the estimators form finite and the searches bounded
// (docs/api.md, "Limits"); warnings speak to plausibility.
#pragma once

#include <cstddef>
#include <string_view>

namespace gpuplan {

struct Limit {
  std::string_view path;  // the request field, as docs/api.md names it
  double min;
  double max;
  bool integer;
  // The member name the field has inside its object: "rank" for "workload.lora.rank".
  constexpr std::string_view key() const { return path.substr(path.rfind('.') + 1); }
};

namespace limit {
// model (custom dimensions)
inline constexpr Limit params{"model.params", 1, 1e14, false};
inline constexpr Limit layers{"model.layers", 1, 1000, true};
inline constexpr Limit hidden{"model.hidden", 1, 1 << 20, true};
inline constexpr Limit heads{"model.heads", 1, 4096, true};
inline constexpr Limit kv_heads{"model.kv_heads", 1, 4096, true};
inline constexpr Limit ffn{"model.ffn", 1, 1 << 22, true};
inline constexpr Limit vocab{"model.vocab", 1, 1 << 24, true};
inline constexpr Limit experts{"model.experts", 1, 1024, true};
inline constexpr Limit experts_per_token{"model.experts_per_token", 1, 1024, true};
inline constexpr Limit head_dim{"model.head_dim", 1, 4096, true};
inline constexpr Limit patch_size{"model.patch_size", 1, 4096, true};
inline constexpr Limit activation_bytes_per_sample{"model.activation_bytes_per_sample", 1, 1e13, false};
inline constexpr Limit gflops_per_sample{"model.gflops_per_sample", 0, 1e9, false};
// workload
inline constexpr Limit micro_batch{"workload.micro_batch", 1, 65536, true};
inline constexpr Limit seq_len{"workload.seq_len", 1, 1 << 24, true};
inline constexpr Limit image_size{"workload.image_size", 8, 16384, true};
inline constexpr Limit lora_rank{"workload.lora.rank", 1, 65536, true};
inline constexpr Limit gpus{"workload.gpus", 1, 4096, true};
inline constexpr Limit grad_accumulation{"workload.grad_accumulation", 1, 1 << 20, true};
inline constexpr Limit steps{"workload.steps", 1, 1000, true};  // diffusion sampling steps
// data
inline constexpr Limit samples{"data.samples", 0, 1e13, false};
inline constexpr Limit epochs{"data.epochs", 0, 1e6, false};
inline constexpr Limit tokens{"data.tokens", 0, 1e16, false};
inline constexpr Limit mean_seq_len{"data.mean_seq_len", 1, 1 << 24, true};
// baseline (a measured run: calibration)
inline constexpr Limit baseline_micro_batch{"baseline.micro_batch", 1, 65536, true};
inline constexpr Limit baseline_memory_bytes{"baseline.memory_bytes", 1e6, 1e14, false};
inline constexpr Limit baseline_seconds_per_epoch{"baseline.seconds_per_epoch", 1e-3, 1e9, false};
inline constexpr Limit baseline_samples_per_s{"baseline.samples_per_s", 1e-9, 1e12, false};
inline constexpr Limit baseline_tokens_per_s{"baseline.tokens_per_s", 1e-9, 1e15, false};
inline constexpr Limit baseline_wall_hours{"baseline.wall_hours", 1e-4, 1e6, false};
// science
inline constexpr Limit science_memory_gb{"science.memory_gb", 0, 1e5, false};
inline constexpr Limit science_rate{"science.baseline.rate", 1e-9, 1e12, false};
inline constexpr Limit science_count{"science.baseline.count", 1, 4096, true};
inline constexpr Limit science_job{"science.job", 0, 1e15, false};
// budget, preferences, stages
inline constexpr Limit budget_amount{"budget.amount", 0, 1e12, false};
inline constexpr Limit deadline_days{"prefs.deadline_days", 0, 3650, false};
inline constexpr Limit data_fraction{"stages[].data_fraction", 0, 1, false};
inline constexpr Limit runs{"stages[].runs", 0, 100000, true};
}  // namespace limit

// Every limit, in the order of the page's file.
inline constexpr const Limit* kLimits[] = {
    &limit::params, &limit::layers, &limit::hidden, &limit::heads, &limit::kv_heads, &limit::ffn, &limit::vocab,
    &limit::experts, &limit::experts_per_token, &limit::head_dim, &limit::patch_size,
    &limit::activation_bytes_per_sample, &limit::gflops_per_sample,
    &limit::micro_batch, &limit::seq_len, &limit::image_size, &limit::lora_rank, &limit::gpus, &limit::grad_accumulation, &limit::steps,
    &limit::samples, &limit::epochs, &limit::tokens, &limit::mean_seq_len,
    &limit::baseline_micro_batch, &limit::baseline_memory_bytes, &limit::baseline_seconds_per_epoch,
    &limit::baseline_samples_per_s, &limit::baseline_tokens_per_s, &limit::baseline_wall_hours,
    &limit::science_memory_gb, &limit::science_rate, &limit::science_count, &limit::science_job,
    &limit::budget_amount, &limit::deadline_days, &limit::data_fraction, &limit::runs};

}  // namespace gpuplan
