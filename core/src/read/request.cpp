// Request parsing: every field of contract v1 with its default (docs/api.md),
// each object's field table beside the function that reads it (which is why it
// runs past 500 lines: splitting it would part a table from its reader),
// and the checks that catch contradictory input before any estimate is made.
#include "gpuplan/request.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "estimate/cnn_architecture.h"
#include "read/cnn_architecture_json.h"
#include "gpuplan/memory.h"
#include "gpuplan/model_arithmetic.h"
#include "gpuplan/throughput.h"
#include "read/json_reader.h"
#include "read/lab_request.h"
#include "text/field_words.h"
#include "text/messages.h"
#include "text/names.h"
#include "read/science_request.h"
#include "read/vision_json.h"
#include "estimate/token_counts.h"

namespace gpuplan {
namespace {

constexpr int kMaxCount = 1 << 20;

// The names each object of the request may hold (docs/api.md, "Strict input"),
// one table beside the function that reads the object. A name the reader
// reads must be here (json_reader.h refuses the read otherwise); a name here
// that nothing reads yet is one the contract has announced (v1.1) and is
// accepted, unused, until its parsing lands.
constexpr std::string_view kRequestFields[] = {
    "locale", "model", "workload", "hardware", "data", "baseline", "stages", "budget", "prefs", "prices", "science", "buy",
    "lab"};  // contract v1.2

Locale read_locale(const nlohmann::json& root) {
  auto it = root.find("locale");
  Locale named = Locale::zh_CN;
  if (it != root.end() && it->is_string() && locale_named(it->get_ref<const std::string&>(), named)) return named;
  return Locale::zh_CN;
}

void fail_inconsistent(Locale l, const std::string& path, const std::string& why) {
  fail(l, "inconsistent", path, message(l, "inconsistent", {field_words(l, path), why}));
}

constexpr std::string_view kModelFields[] = {
    "preset", "kind", "params", "layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "gated_mlp",
    "tied_embeddings", "experts", "experts_per_token", "head_dim", "reference_image_size", "architecture",
    "activation_bytes_per_sample", "gflops_per_sample", "vision", "patch_size"};

// model.params against the parameters its dimensions give (the standard
// accounting of gpuplan/model_arithmetic.h with the MLP's 3 or 2 matrices): a warning past
// 20 %, far outside what norms, biases and rounding explain (every preset is
// within it, tests/core/api_test.cpp), so a slipped exponent
// (7e12 for 7e9) or a wrong width is caught before it sizes every estimate.
void check_params(const ModelSpec& m, Locale l, std::vector<InputWarning>& warnings) {
  if (m.kind == ModelKind::cnn || m.ffn <= 0 || m.layers <= 0) return;
  // implied_mlp_matrices is how many hidden × ffn matrices params leaves room
  // for; the dimensions say 3 (gated) or 2, so the gap times one layer stack
  // of MLP matrices is how far params is from the dimensions' count.
  const double mlp_matrix = double(m.layers) * m.hidden * double(m.ffn) * std::max(1, m.experts);
  const double from_dims = m.params + ((m.gated_mlp ? 3 : 2) - implied_mlp_matrices(m)) * mlp_matrix;
  if (!(from_dims > 0)) return;
  const double off = std::fabs(m.params - from_dims) / from_dims;
  if (off <= 0.2) return;
  warnings.push_back({"params_mismatch", message(l, "warn.params_mismatch",
                                                 {format_number(m.params), format_number(std::round(from_dims / 1e6) * 1e6),
                                                  format_number(std::round(off * 100))})});
}

// A convolutional network's own description: its published architecture
// (expanded layer by layer like a preset's, with its parameter count and
// FLOPs from the expansion unless given), or its measured activation figure.
void read_cnn_description(const Reader& r, ModelSpec& m) {
  Locale l = r.locale();
  const std::optional<int> reference_size = r.integer("reference_image_size", 8, 16384);
  // Fields in docs/memory-model.md.
  if (auto arch = r.object("architecture", cnn_architecture_fields(r.json()))) {
    if (m.kind != ModelKind::cnn) {
      fail_inconsistent(l, r.child_path("architecture"), message(l, "why.architecture_kind"));
      return;
    }
    m.architecture = read_cnn_architecture(*arch, ArchitectureSource::request);
    // A partly read architecture is not expanded (a head count of 0 divides).
    if (read_failed()) return;
    if (reference_size) m.reference_image_size = *reference_size;
    const CnnFootprint f = expand_cnn(m.architecture, m.reference_image_size, CnnPass{});
    if (!r.has("params")) m.params = f.params;
    if (!r.has("gflops_per_sample")) m.gflops_per_sample = 2 * f.macs / 1e9;
    m.activation_bytes_per_sample = f.saved_bytes;
    if (!r.string("preset")) {
      m.frozen_params = 0;
      m.frozen_text_params = 0;
      m.frozen_gflops_per_sample = 0;
    }
  }
  // An explicit activation figure overrides a preset's architecture: the
  // user's own network, scaled by image area (docs/memory-model.md).
  if (auto v = r.number(limit::activation_bytes_per_sample)) {
    m.activation_bytes_per_sample = *v;
    m.architecture = CnnArchitecture{};
  }
  if (reference_size) m.reference_image_size = *reference_size;
  if (auto v = r.number(limit::gflops_per_sample)) m.gflops_per_sample = *v;
}

// A CNN needs its parameter count and its measured activation figure.
void check_cnn_description(const Reader& r, const ModelSpec& m) {
  Locale l = r.locale();
  if (m.params <= 0) {
    fail(l, "missing_field", r.child_path("params"),
         message(l, "missing_field", {r.words("params"), message(l, "why.model_needs_dims")}));
    return;
  }
  if (m.activation_bytes_per_sample <= 0)
    fail(l, "missing_field", r.child_path("activation_bytes_per_sample"),
         message(l, "missing_field", {r.words("activation_bytes_per_sample"), message(l, "why.cnn_needs_activation")}));
}

// A transformer needs params and the dimensions the memory model reads, and
// they must agree with each other.
void check_transformer_dimensions(const Reader& r, ModelSpec& m, bool gated_given,
                                  std::vector<InputWarning>& warnings) {
  Locale l = r.locale();
  const char* required[] = {"params", "layers", "hidden", "heads", "vocab"};
  const double values[] = {m.params, double(m.layers), double(m.hidden), double(m.heads), double(m.vocab)};
  for (size_t i = 0; i < 5; ++i) {
    if (values[i] <= 0) {
      std::string p = r.child_path(required[i]);
      fail(l, "missing_field", p, message(l, "missing_field", {field_words(l, p), message(l, "why.model_needs_dims")}));
      return;  // the checks below divide by these
    }
  }
  if (m.ffn == 0) m.ffn = 4 * m.hidden;
  // Explicit dimensions without gated_mlp: classify the MLP from the
  // published parameter count (3 matrices gated, 2 plain; gpuplan/model_arithmetic.h).
  if (!gated_given && !r.string("preset")) m.gated_mlp = implied_mlp_matrices(m) > 2.5;
  if (m.hidden % m.heads != 0)
    return fail_inconsistent(l, r.child_path("heads"),
                             message(l, "why.heads_divide_hidden", {std::to_string(m.hidden), std::to_string(m.heads)}));
  if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0)
    return fail_inconsistent(l, r.child_path("kv_heads"),
                             message(l, "why.kv_heads_divide_heads", {std::to_string(m.kv_heads), std::to_string(m.heads)}));
  if (m.experts_per_token > m.experts)
    return fail_inconsistent(l, r.child_path("experts_per_token"),
                             message(l, "why.experts_per_token", {std::to_string(m.experts_per_token), std::to_string(m.experts)}));
  double embedding = double(m.vocab) * m.hidden;
  if (m.params < embedding)
    return fail_inconsistent(l, r.child_path("params"),
                             message(l, "why.params_too_small", {format_number(m.params), format_number(embedding)}));
  if (r.has("params")) check_params(m, l, warnings);
}

ModelSpec read_model(const Reader& r, const Catalog& catalog, std::vector<InputWarning>& warnings) {
  Locale l = r.locale();
  ModelSpec m;
  if (auto preset = r.string("preset")) {
    const ModelSpec* found = catalog.find_model(*preset);
    if (!found) {
      std::string p = r.child_path("preset");
      fail(l, "unknown_preset", p, message(l, "unknown_preset", {field_words(l, p), describe(r.json()["preset"])}));
      return m;
    }
    m = *found;
  }
  if (auto k = r.spelled("kind", kModelKindSpellings)) m.kind = *k;
  if (auto v = r.number(limit::params)) m.params = *v;
  if (auto v = r.integer(limit::layers)) m.layers = *v;
  if (auto v = r.integer(limit::hidden)) m.hidden = *v;
  if (auto v = r.integer(limit::heads)) m.heads = *v;
  if (auto v = r.integer(limit::kv_heads)) m.kv_heads = *v;
  if (auto v = r.integer(limit::ffn)) m.ffn = *v;
  if (auto v = r.integer(limit::vocab)) m.vocab = *v;
  const std::optional<bool> gated = r.boolean("gated_mlp");
  if (gated) m.gated_mlp = *gated;
  if (auto v = r.boolean("tied_embeddings")) m.tied_embeddings = *v;
  if (auto v = r.integer(limit::experts)) m.experts = *v;
  if (auto v = r.integer(limit::experts_per_token)) m.experts_per_token = *v;
  if (auto v = r.integer(limit::head_dim)) m.head_dim = *v;
  if (auto v = r.integer(limit::patch_size)) m.patch_size = *v;
  // A vision-language model's tower (docs/vlm.md); a preset's unless given.
  if (auto v = r.object("vision", kVisionFields)) {
    if (m.kind != ModelKind::vlm) {
      fail_inconsistent(l, r.child_path("vision"), message(l, "why.vlm_needs_vision"));
      return m;
    }
    read_vision_tower(*v, m);
  }
  if (m.kind == ModelKind::vlm && m.vision.layers <= 0) {
    fail(l, "missing_field", r.child_path("vision"),
         message(l, "missing_field", {r.words("vision"), message(l, "why.vlm_needs_vision")}));
    return m;
  }
  if (read_failed()) return m;
  read_cnn_description(r, m);
  if (read_failed()) return m;

  if (m.kv_heads == 0) m.kv_heads = m.heads;
  // A model must be describable: a preset, or params plus the dimensions the
  // memory model needs (a CNN needs its measured activation figure instead).
  if (m.kind == ModelKind::cnn) {
    check_cnn_description(r, m);
    return m;
  }
  check_transformer_dimensions(r, m, gated.has_value(), warnings);
  return m;
}

constexpr std::string_view kWorkloadFields[] = {
    "mode", "method", "precision", "optimizer", "micro_batch", "seq_len", "image_size", "grad_checkpointing",
    "flash_attention", "tf32", "lora", "kv_cache_bits", "gpus", "sharding", "cpu_offload", "loss", "torch_compile", "channels_last",
    "optimizer_in_backward", "activation_offload", "grad_accumulation",
    "stack", "objective", "rl", "cached_text_embeddings", "images_per_sample", "train_vision_tower",  // contract v1.1
    "frozen_base_fp32", "steps", "guidance"};  // contract v1.2: diffusion sampling
constexpr std::string_view kLoraFields[] = {"rank", "targets"};
constexpr std::string_view kRlFields[] = {"group_size", "completion_len", "rollout", "reference", "reward_model",
                                          "completion_mean", "gather_for_generation"};

// workload.objective and workload.rl (docs/objectives.md).
void read_objective(const Reader& r, const ModelSpec& model, Workload& w) {
  Locale l = r.locale();
  if (auto v = r.spelled("objective", kObjectiveSpellings)) w.objective = *v;
  if (w.objective != Objective::sft && w.mode != Mode::train)
    return fail_inconsistent(l, r.child_path("objective"), message(l, "why.objective_train"));
  if (w.objective != Objective::sft && model.kind == ModelKind::cnn)
    return fail_inconsistent(l, r.child_path("objective"), message(l, "why.objective_transformer"));
  bool group_given = false;
  if (auto rl = r.object("rl", kRlFields)) {
    if (w.objective != Objective::grpo && w.objective != Objective::ppo)
      return fail_inconsistent(l, r.child_path("rl"), message(l, "why.rl_needs_rl_objective"));
    if (auto v = rl->integer("group_size", 1, 4096)) {
      w.rl.group_size = *v;
      group_given = true;
    }
    if (auto v = rl->integer("completion_len", 1, 1 << 20)) w.rl.completion_len = *v;
    if (auto v = rl->spelled("rollout", kRolloutSpellings)) w.rl.rollout = *v;
    if (auto v = rl->boolean("reference")) w.rl.reference = *v ? 1 : 0;
    if (auto v = rl->boolean("reward_model")) w.rl.reward_model = *v;
    if (auto v = rl->integer("completion_mean", 1, 1 << 20)) {
      if (*v > w.rl.completion_len)
        return fail_inconsistent(l, rl->child_path("completion_mean"), message(l, "why.rl_mean_over_cap"));
      w.rl.completion_mean = *v;
    }
    if (auto v = rl->boolean("gather_for_generation")) w.rl.gather_for_generation = *v;
  }
  // PPO samples one completion per prompt (OpenRLHF n_samples_per_prompt 1,
  // verl rollout.n 1) unless told otherwise; GRPO's group is TRL's 8.
  if (w.objective == Objective::ppo && !group_given) w.rl.group_size = 1;
}

// What runs: the mode, method, precision and optimizer, the sizes, LoRA, the
// KV cache and the cards.
void read_run_fields(const Reader& r, const ModelSpec& model, Workload& w) {
  Locale l = r.locale();
  if (auto v = r.spelled("mode", kModeSpellings)) w.mode = *v;
  if (w.mode == Mode::infer) w.precision = kDefaultInferPrecision;
  if (auto v = r.spelled("method", kMethodSpellings)) w.method = *v;
  if (auto v = r.spelled("precision", kPrecisionSpellings)) {
    w.precision = *v;
    w.precision_requested = true;
    if ((w.mode == Mode::train && !trains_in(*v)) || (w.mode == Mode::infer && !infers_in(*v))) {
      std::string p = r.child_path("precision");
      fail(l, "not_for_mode", p,
           message(l, "not_for_mode", {field_words(l, p), describe(r.json()["precision"]), message(l, "field.mode." + std::string(name_of(w.mode)))}));
      return;
    }
  }
  if (auto v = r.spelled("optimizer", kOptimizerSpellings)) {
    w.optimizer = *v;
    w.optimizer_requested = true;  // the student's, never the planner's to change
  }
  if (auto v = r.integer(limit::micro_batch)) w.micro_batch = *v;
  if (auto v = r.integer(limit::seq_len)) w.seq_len = *v;
  if (auto v = r.integer(limit::image_size)) w.image_size = *v;
  if (auto v = r.boolean("grad_checkpointing")) w.grad_checkpointing = *v;
  if (auto v = r.boolean("flash_attention")) w.flash_attention = *v;
  if (auto v = r.boolean("tf32")) w.tf32 = *v;
  if (auto lora = r.object("lora", kLoraFields)) {
    if (auto v = lora->integer(limit::lora_rank)) w.lora.rank = *v;
    if (auto v = lora->spelled("targets", kLoraTargetsSpellings)) w.lora.targets = *v;
    if (w.lora.rank >= model.hidden && model.kind != ModelKind::cnn)
      return fail_inconsistent(l, lora->child_path("rank"),
                        message(l, "why.lora_rank_hidden", {std::to_string(w.lora.rank), std::to_string(model.hidden)}));
  }
  if (auto v = r.integer("kv_cache_bits", 2, 32)) {
    if (*v != 4 && *v != 8 && *v != 16 && *v != 32) {
      std::string p = r.child_path("kv_cache_bits");
      fail(l, "unknown_value", p, message(l, "unknown_value", {field_words(l, p), "4, 8, 16, 32", describe(r.json()["kv_cache_bits"])}));
      return;
    }
    w.kv_cache_bits = *v;
  }
  if (auto v = r.integer(limit::gpus)) w.gpus = *v;
  if (auto v = r.spelled("sharding", kShardingSpellings)) {
    w.sharding = *v;
    w.sharding_requested = true;  // the planner keeps it
  }
  if (auto v = r.boolean("cpu_offload")) w.cpu_offload = *v;
}

// The memory fields, the software stack, the objective, and the diffusion and
// vision-language fields.
void read_memory_and_media_fields(const Reader& r, const ModelSpec& model, Workload& w) {
  // Memory fields (docs/api.md, "Memory fields").
  if (auto v = r.spelled("loss", kLossSpellings)) w.loss = *v;
  if (auto v = r.boolean("torch_compile")) w.torch_compile = *v;
  if (auto v = r.boolean("channels_last")) w.channels_last = *v;
  if (auto v = r.boolean("optimizer_in_backward")) w.optimizer_in_backward = *v;
  if (auto v = r.boolean("activation_offload")) w.activation_offload = *v;
  if (auto v = r.integer(limit::grad_accumulation)) w.grad_accumulation = *v;
  // The software stack (docs/time-model.md, "Software stack").
  if (auto v = r.spelled("stack", kStackSpellings)) w.stack = *v;
  read_objective(r, model, w);
  // Diffusion pipelines and vision-language models (docs/api.md).
  if (auto v = r.boolean("cached_text_embeddings")) w.cached_text_embeddings = *v;
  if (auto v = r.integer("images_per_sample", 0, 4096)) w.images_per_sample = *v;
  if (auto v = r.boolean("train_vision_tower")) w.train_vision_tower = *v;
  if (auto v = r.boolean("frozen_base_fp32")) w.frozen_base_fp32 = *v;
  // Diffusion sampling (docs/time-model.md): left out, the pipeline's default.
  if (auto v = r.integer(limit::steps)) w.steps = *v;
  if (auto v = r.boolean("guidance")) w.guidance = *v;
  // A VLM's images default to 448 px (256 tokens in Qwen2.5-VL), not a CNN's 224.
  if (model.kind == ModelKind::vlm && !r.has("image_size")) w.image_size = 448;
}

// The defaults that follow from the model once the fields are read, and the
// checks across fields.
void finish_workload(const Reader* r, const ModelSpec& model, Workload& w) {
  if (w.seq_len == 0) w.seq_len = 2048;
  // A vision transformer's sequence is its image's patches and the class
  // token (Dosovitskiy et al. 2021: 224 px at patch 16 is 14^2 + 1 = 197),
  // unless seq_len is given.
  if (model.kind == ModelKind::encoder && model.patch_size > 0 && !(r && r->has("seq_len"))) {
    const int side = std::max(1, w.image_size / model.patch_size);
    w.seq_len = side * side + 1;
  }
  // LoRA trains low-rank adapters on linear projections (Hu et al. 2021). A
  // network whose architecture has none in the chosen target set (ResNet,
  // YOLOv8, DeepLabV3: convolutions only) would train nothing, and its
  // estimate would describe an empty run; say so instead. (A method other
  // than full is only ever read from a workload section, so r is set.)
  if (w.mode == Mode::train && w.method != Method::full && model.kind == ModelKind::cnn &&
      model.architecture.family != CnnFamily::none) {
    if (lora_trainable_params(model, w.lora) <= 0)
      return fail_inconsistent(r->locale(), "workload.method", message(r->locale(), "why.lora_needs_linear", {model.name.empty() ? model.id : model.name}));
  }
  // An fp32 frozen base is a LoRA / QLoRA training run's under autocast or
  // FSDP mixed precision; bf16-true holds every weight in bf16.
  if (w.frozen_base_fp32 && (w.mode != Mode::train || w.method == Method::full || w.precision == Precision::bf16_true))
    fail_inconsistent(r->locale(), "workload.frozen_base_fp32", message(r->locale(), "why.frozen_base_fp32"));
}

Workload read_workload(const Reader* r, const ModelSpec& model) {
  Workload w;
  if (model.kind != ModelKind::decoder) w.seq_len = 512;
  if (r) {
    read_run_fields(*r, model, w);
    read_memory_and_media_fields(*r, model, w);
    if (read_failed()) return w;
  } else if (model.kind == ModelKind::vlm) {
    w.image_size = 448;
  }
  finish_workload(r, model, w);
  return w;
}

// Several GPUs with no strategy named: plain data parallelism, what torchrun +
// DDP (and HF Trainer) do by default; one GPU has nothing to replicate to.
// A count given only in hardware.count leaves this to the evaluator (below).
void settle_sharding(Workload& w) {
  if (w.gpus > 1 && w.sharding == Sharding::none) w.sharding = Sharding::ddp;
  if (w.gpus == 1 && w.sharding == Sharding::ddp) w.sharding = Sharding::none;
}

constexpr std::string_view kHardwareFields[] = {"gpu", "count"};

// hardware.count and workload.gpus name the same thing, the GPUs one run uses
// (docs/api.md, "hardware.count and workload.gpus"): the card's count
// defaults to workload.gpus, and two different values are a contradiction.
// A count given only in hardware is that card's count like any count gpus[]
// tries above workload.gpus (the sharding then follows the evaluator's rule
// for a count the workload did not name), and the OOM doctor diagnoses that
// same workload (plan.cpp), so gpus[] and the doctor give one verdict.
Hardware read_hardware(const Reader& h, const Reader* workload, Request& q, const Catalog& catalog) {
  Locale l = h.locale();
  Hardware hw;
  hw.gpu = h.string("gpu").value_or("");
  if (!catalog.find_gpu(hw.gpu)) {
    std::string p = h.child_path("gpu");
    fail(l, "unknown_gpu", p, message(l, "unknown_gpu", {field_words(l, p), describe(h.json().value("gpu", nlohmann::json()))}));
    return hw;
  }
  const std::optional<int> count = h.integer("count", 1, kMaxGpus);
  const bool gpus_given = workload && workload->has("gpus");
  if (count && gpus_given && *count != q.workload.gpus) {
    fail_inconsistent(l, h.child_path("count"),
                      message(l, "why.gpus_vs_count", {std::to_string(*count), std::to_string(q.workload.gpus)}));
    return hw;
  }
  hw.count = count.value_or(q.workload.gpus);
  return hw;
}

constexpr std::string_view kDataFields[] = {"tokens", "samples", "epochs", "mean_seq_len", "packing", "length_bin"};

DataSize read_data(const Reader& r) {
  DataSize d;
  if (auto v = r.number(limit::tokens)) d.tokens = *v;
  if (auto v = r.number(limit::samples)) d.samples = *v;
  if (auto v = r.number(limit::epochs)) d.epochs = *v;
  // Padding (docs/time-model.md, "Padding"): checked against seq_len in parse_request.
  if (auto v = r.integer(limit::mean_seq_len)) d.mean_seq_len = *v;
  if (auto v = r.boolean("packing")) d.packing = *v;
  if (auto v = r.integer("length_bin", 1, 1 << 24)) d.length_bin = *v;
  return d;
}

// A paper's run (docs/api.md, "A paper's run"): the whole job took
// wall_hours on count x gpu. With data given, that is a measured rate like any
// other; without, the job is what the time model would process in those hours
// on that hardware, so each option's time is wall_hours x (the paper's
// estimated rate / the option's): the relative speeds, anchored on the paper.
void read_paper_run(const Baseline& b, Request& q, const Gpu& g) {
  Workload measured = q.workload;
  if (b.micro_batch > 0) measured.micro_batch = b.micro_batch;
  measured.rate_scale = 1;
  measured.gpus = b.count;
  if (measured.gpus > 1 && measured.sharding == Sharding::none) measured.sharding = Sharding::ddp;
  const double seconds = b.wall_hours * 3600;
  if (q.data && (q.data->samples > 0 || q.data->tokens > 0)) {
    const double samples = q.data->samples > 0 ? q.data->samples * q.data->epochs
                                               : q.data->tokens / std::max(1, q.workload.seq_len);
    q.workload.rate_scale = baseline_scale(q.model, measured, g, b.count, samples / seconds);
    return;
  }
  const Throughput est = estimate_throughput(q.model, measured, g, b.count);
  DataSize d = q.data.value_or(DataSize{});
  d.samples = est.samples_per_s * seconds;
  d.epochs = 1;
  d.tokens = 0;
  q.data = std::move(d);
}

// The user's measured speed (docs/api.md, Time fields): checked, turned into
// samples per second, and into the factor every estimate is multiplied by.
constexpr std::string_view kBaselineFields[] = {
    "gpu", "count", "micro_batch", "seconds_per_epoch", "samples_per_s", "tokens_per_s",
    "wall_hours", "memory_bytes"};  // contract v1.1

void read_baseline(const Reader& r, Request& q, const Catalog& catalog) {
  Locale l = r.locale();
  Baseline b;
  b.gpu = r.string("gpu").value_or("");
  const Gpu* g = catalog.find_gpu(b.gpu);
  if (!g) {
    std::string p = r.child_path("gpu");
    fail(l, "unknown_gpu", p, message(l, "unknown_gpu", {field_words(l, p), describe(r.json().value("gpu", nlohmann::json()))}));
    return;
  }
  if (auto v = r.integer("count", 1, kMaxCount)) b.count = *v;
  if (auto v = r.number(limit::baseline_seconds_per_epoch)) b.seconds_per_epoch = *v;
  if (auto v = r.number(limit::baseline_samples_per_s)) b.samples_per_s = *v;
  if (auto v = r.number(limit::baseline_tokens_per_s)) b.tokens_per_s = *v;
  if (auto v = r.number(limit::baseline_wall_hours)) {
    b.wall_hours = *v;
    if (b.seconds_per_epoch > 0 || b.samples_per_s > 0 || b.tokens_per_s > 0)
      return fail_inconsistent(l, r.child_path("wall_hours"), message(l, "why.paper_run_rate"));
  }
  if (auto v = r.integer(limit::baseline_micro_batch)) b.micro_batch = *v;
  if (auto v = r.number(limit::baseline_memory_bytes)) b.memory_bytes = *v;
  if (read_failed()) return;  // no estimate from a partly read baseline
  if (b.wall_hours > 0) {
    read_paper_run(b, q, *g);
    if (b.memory_bytes > 0) {
      Workload measured = q.workload;
      if (b.micro_batch > 0) measured.micro_batch = b.micro_batch;
      q.workload.memory_scale = memory_baseline_scale(q.model, measured, b.count, b.memory_bytes);
    }
    q.baseline = std::move(b);
    return;
  }
  double samples_per_s = b.samples_per_s;
  // Measured tokens are counted as the response counts them (real tokens in
  // training, generated tokens at inference).
  const double per_sample = counted_tokens_per_sample(q.model, q.workload);
  if (samples_per_s <= 0 && b.tokens_per_s > 0 && per_sample > 0) samples_per_s = b.tokens_per_s / per_sample;
  if (samples_per_s <= 0 && b.seconds_per_epoch > 0) {
    if (!q.data || q.data->samples <= 0) {
      fail(l, "missing_field", "data.samples", message(l, "missing_field", {field_words(l, "data.samples"), message(l, "why.baseline_rate")}));
      return;
    }
    samples_per_s = q.data->samples / b.seconds_per_epoch;
  }
  // A memory-only baseline (baseline.memory_bytes) needs no speed.
  if (samples_per_s <= 0 && !r.has("memory_bytes")) {
    fail(l, "missing_field", r.child_path("samples_per_s"),
         message(l, "missing_field", {r.words("samples_per_s"), message(l, "why.baseline_rate")}));
    return;
  }
  Workload measured = q.workload;
  if (b.micro_batch > 0) measured.micro_batch = b.micro_batch;
  if (samples_per_s > 0) q.workload.rate_scale = baseline_scale(q.model, measured, *g, b.count, samples_per_s);
  if (b.memory_bytes > 0) q.workload.memory_scale = memory_baseline_scale(q.model, measured, b.count, b.memory_bytes);
  q.baseline = std::move(b);
}

constexpr std::string_view kStageFields[] = {"stage", "runs", "data_fraction", "gap_days"};
constexpr std::string_view kBudgetFields[] = {"amount", "currency"};
constexpr std::string_view kPrefsFields[] = {
    "billing", "platforms", "deadline_days", "education", "dataset_gb", "storage_gb", "upload_mbps", "group_size",
    "scope", "display_currency",  // contract v1.1
    "time_value_per_hour",        // contract v1.2
    "allow_result_changes"};
constexpr std::string_view kBuyFields[] = {"price", "currency", "watts", "electricity_per_kwh", "resale_fraction", "years"};
constexpr std::string_view kPriceFields[] = {"platform", "gpu", "per_gpu_hour", "currency", "billing", "as_of"};

// A money field's currency: the text itself once it is one of the two the
// catalog prices in.
std::optional<std::string> read_currency(const Reader& r) {
  if (!r.choice("currency", {"CNY", "USD"})) return std::nullopt;
  return r.json()["currency"].get<std::string>();
}

// A stage's runs, whose message names the stage (the reader knows its words)
// and what the number counts: the page builds it from seeds × hyper-parameter
// points × ablations, and a share link can ask for more than the limit.
int read_runs(const Reader& s) {
  const auto* v = s.json().contains("runs") ? &s.json()["runs"] : nullptr;
  if (v && v->is_number()) {
    const double x = v->get<double>();
    if (std::isfinite(x) && x == std::floor(x) && (x < 0 || x > kMaxRunsPerStage)) {
      Locale l = s.locale();
      std::string p = s.child_path("runs");
      fail(l, "out_of_range", p,
           message(l, "out_of_range.runs", {s.words("runs"), "0", std::to_string(kMaxRunsPerStage), describe(*v)}));
      return 1;
    }
  }
  return s.integer("runs", 0, kMaxRunsPerStage).value_or(1);
}

// The stages, each named in the student's words once its kind is read.
void read_stages(const Reader& root, Request& q) {
  Locale l = q.locale;
  if (const auto* stages = root.array("stages", kMaxStages)) {
    for (size_t i = 0; i < stages->size() && !read_failed(); ++i) {
      Reader s = element(*stages, i, "stages", l, kStageFields);
      StageRequest st;
      if (auto v = s.spelled("stage", kStageSpellings)) {
        st.stage = *v;
        s.name_as(message(l, "field.stage." + std::string(name_of(st.stage))));
      }
      st.runs = read_runs(s);
      // The seeds' debug stage runs on about a tenth of the data (seed 003).
      if (st.stage == Stage::debug) st.data_fraction = 0.1;
      if (auto v = s.number(limit::data_fraction)) st.data_fraction = *v;
      // Days the instance sits stopped before this stage (docs/api.md, "Between stages").
      if (auto v = s.number("gap_days", 0, 3650)) st.gap_days = *v;
      q.stages.push_back(std::move(st));
    }
  }
}

void read_budget(const Reader& root, Request& q) {
  if (auto b = root.object("budget", kBudgetFields)) {
    Budget budget;
    if (auto v = b->number(limit::budget_amount)) budget.amount = *v;
    if (auto v = read_currency(*b)) budget.currency = *v;
    q.budget = std::move(budget);
  }
}

void read_prefs(const Reader& root, Request& q, const Catalog& catalog) {
  Locale l = q.locale;
  if (auto p = root.object("prefs", kPrefsFields)) {
    if (auto v = p->spelled("billing", kBillingSpellings)) q.prefs.billing = name_of(*v);
    if (const auto* list = p->array("platforms", kMaxPlatforms)) {
      for (size_t i = 0; i < list->size(); ++i) {
        std::string path = p->child_path("platforms") + "[" + std::to_string(i) + "]";
        const auto& id = (*list)[i];
        if (!id.is_string() || !catalog.find_platform(id.get<std::string>())) {
          fail(l, "unknown_platform", path, message(l, "unknown_platform", {field_words(l, path), describe(id)}));
          return;
        }
        q.prefs.platforms.push_back(id.get<std::string>());
      }
    }
    if (auto v = p->number(limit::deadline_days)) q.prefs.deadline_days = *v;
    if (auto v = p->boolean("education")) q.prefs.education = *v;
    if (auto v = p->number("dataset_gb", 0, 1e7)) q.prefs.dataset_gb = *v;
    if (auto v = p->number("storage_gb", 0, 1e7)) q.prefs.storage_gb = *v;
    if (auto v = p->number("upload_mbps", 0.01, 1e6)) q.prefs.upload_mbps = *v;
    if (auto v = p->integer("group_size", 1, 1000)) q.prefs.group_size = *v;
    if (auto v = p->spelled("scope", kScopeSpellings)) q.prefs.scope = *v;
    if (auto v = p->number("time_value_per_hour", 0, 1e5)) q.prefs.time_value_per_hour = *v;
    if (p->choice("display_currency", {"CNY", "USD"})) q.prefs.display_currency = p->json()["display_currency"].get<std::string>();
    if (auto v = p->boolean("allow_result_changes")) q.prefs.allow_result_changes = *v;
  }
}

void read_buy(const Reader& root, Request& q) {
  if (auto b = root.object("buy", kBuyFields)) {
    BuyOption buy;
    if (auto v = b->number("price", 0, 1e9)) buy.price = *v;
    if (auto v = read_currency(*b)) buy.currency = *v;
    if (auto v = b->number("watts", 0, 1e5)) buy.watts = *v;
    if (auto v = b->number("electricity_per_kwh", 0, 100)) buy.electricity_per_kwh = *v;
    if (auto v = b->number("resale_fraction", 0, 1)) buy.resale_fraction = *v;
    if (auto v = b->number("years", 0.1, 50)) buy.years = *v;
    q.buy = std::move(buy);
  }
}

// The student's own quotes, each on a catalog platform and card.
void read_prices(const Reader& root, Request& q, const Catalog& catalog) {
  Locale l = q.locale;
  if (const auto* prices = root.array("prices", kMaxPrices)) {
    for (size_t i = 0; i < prices->size() && !read_failed(); ++i) {
      Reader pr = element(*prices, i, "prices", l, kPriceFields);
      UserPrice up;
      up.platform = pr.string("platform").value_or("");
      if (!catalog.find_platform(up.platform)) {
        std::string path = pr.child_path("platform");
        fail(l, "unknown_platform", path, message(l, "unknown_platform", {field_words(l, path), describe(pr.json().value("platform", nlohmann::json()))}));
        return;
      }
      up.gpu = pr.string("gpu").value_or("");
      if (!catalog.find_gpu(up.gpu)) {
        std::string path = pr.child_path("gpu");
        fail(l, "unknown_gpu", path, message(l, "unknown_gpu", {field_words(l, path), describe(pr.json().value("gpu", nlohmann::json()))}));
        return;
      }
      if (auto v = pr.number("per_gpu_hour", 0, 1e6)) up.per_gpu_hour = *v;
      if (auto v = read_currency(pr)) up.currency = *v;
      if (auto v = pr.spelled("billing", kBillingSpellings)) up.billing = *v;
      // The day the student read the quote (YYYY-MM-DD), shown with the price it dates.
      if (auto v = pr.string("as_of")) {
        const bool day = v->size() == 10 && (*v)[4] == '-' && (*v)[7] == '-' &&
                         std::all_of(v->begin(), v->end(), [](char ch) { return ch == '-' || (ch >= '0' && ch <= '9'); });
        if (!day) {
          std::string path = pr.child_path("as_of");
          fail(l, "invalid_date", path, message(l, "invalid_date", {field_words(l, path), *v}));
          return;
        }
        up.as_of = *v;
      }
      q.prices.push_back(std::move(up));
    }
  }
}

void read_planning(const Reader& root, Request& q, const Catalog& catalog) {
  // prefs.scope defaults to cn in every locale (contract v1.2): the locale
  // changes the language of the answer and nothing else.
  q.prefs.scope = Scope::cn;
  read_stages(root, q);
  read_budget(root, q);
  read_prefs(root, q, catalog);
  read_buy(root, q);
  read_prices(root, q, catalog);
}

}  // namespace

Locale request_locale(std::string_view json_text) { return sniff_locale(json_text); }

Result<Request> parse_request(std::string_view json_text, const Catalog& catalog) {
  ReadErrors errors;
  // From the raw text first: the size, depth and syntax errors come before
  // any parsed locale could.
  // A text over the limit is refused by its size: its locale is read from
  // its first bytes, as the front ends that refuse it before reading it all.
  Locale locale = sniff_locale(json_text.substr(0, kMaxRequestBytes));
  nlohmann::json root = parse_json_text(json_text, locale, kMaxRequestBytes, kMaxRequestDepth);
  if (!errors.ok()) return errors.first();
  if (!root.is_object()) {
    fail(locale, "wrong_type", "", message(locale, "wrong_type", {field_words(locale, ""), message(locale, "type.object"), describe(root)}));
    return errors.first();
  }
  locale = read_locale(root);
  Reader r(root, "", locale, kRequestFields);
  Request q;
  q.locale = locale;
  Locale named = Locale::zh_CN;
  if (auto v = r.string("locale"); v && !locale_named(*v, named))
    fail(locale, "unknown_value", "locale", message(locale, "unknown_value", {field_words(locale, "locale"), "zh-CN, en", describe(root["locale"])}));

  auto workload = r.object("workload", kWorkloadFields);
  // Scientific computing is described by its own baseline, not by a network.
  bool science = false;
  if (workload) {
    auto mode = workload->json().find("mode");
    // The string compared as a string: json == "science" would link nlohmann's
    // comparison of every JSON type into the page's wasm (docs/performance.md).
    science = mode != workload->json().end() && mode->is_string() && mode->get_ref<const std::string&>() == "science";
  }
  auto model = r.object("model", kModelFields);
  if (!errors.ok()) return errors.first();
  if (!model && !science) {
    fail(locale, "missing_field", "model", message(locale, "missing_field", {field_words(locale, "model"), message(locale, "why.model_needs_dims")}));
    return errors.first();
  }
  // Each part is read only from the parts before it read in full: a failed
  // read stops the parse here, as its throw did.
  if (model) q.model = read_model(*model, catalog, q.warnings);
  if (!errors.ok()) return errors.first();
  q.workload = read_workload(workload ? &*workload : nullptr, q.model);
  if (!errors.ok()) return errors.first();
  if (science) {
    auto s = r.object("science", kScienceFields);
    if (!s && errors.ok())
      fail(locale, "missing_field", "science", message(locale, "missing_field", {field_words(locale, "science"), message(locale, "why.science_baseline")}));
    if (!errors.ok()) return errors.first();
    q.science = read_science(*s, catalog);
    if (!errors.ok()) return errors.first();
  }

  if (auto h = r.object("hardware", kHardwareFields)) q.hardware = read_hardware(*h, workload ? &*workload : nullptr, q, catalog);
  if (!errors.ok()) return errors.first();
  settle_sharding(q.workload);
  if (auto d = r.object("data", kDataFields)) {
    q.data = read_data(*d);
    if (!errors.ok()) return errors.first();
    // The mean length of a sample cannot exceed the longest.
    if (q.data->mean_seq_len > q.workload.seq_len && q.workload.mode != Mode::science) {
      fail_inconsistent(locale, "data.mean_seq_len",
                        message(locale, "why.mean_seq_len", {std::to_string(q.data->mean_seq_len),
                                                             std::to_string(q.workload.seq_len)}));
      return errors.first();
    }
    q.workload.mean_seq_len = q.data->mean_seq_len;
    q.workload.packing = q.data->packing;
    q.workload.length_bin = q.data->length_bin;
  }
  if (!errors.ok()) return errors.first();
  if (auto b = r.object("baseline", kBaselineFields)) read_baseline(*b, q, catalog);
  if (!errors.ok()) return errors.first();
  read_planning(r, q, catalog);
  if (!errors.ok()) return errors.first();
  if (auto lab = r.object("lab", kLabFields)) read_lab(*lab, r, q, catalog);
  if (!errors.ok()) return errors.first();
  return q;
}

}  // namespace gpuplan
