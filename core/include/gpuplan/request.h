// The planner's request in typed form (contract v1, docs/api.md). Every field
// has a default, so a request naming only a model preset is complete.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/limits.h"
#include "gpuplan/catalog.h"
#include "gpuplan/error.h"
#include "gpuplan/lab.h"
#include "gpuplan/locale.h"
#include "gpuplan/model.h"
#include "gpuplan/science.h"
#include "gpuplan/spelling.h"

namespace gpuplan {

// Each enum's JSON spellings sit in one table right under it (gpuplan/spelling.h).
enum class Mode { train, infer, science };  // science: docs/science.md
inline constexpr Spelling<Mode> kModeSpellings[] = {
    {Mode::train, "train"}, {Mode::infer, "infer"}, {Mode::science, "science"}};
static_assert(spells_each_once(kModeSpellings, Mode::science));

enum class Method { full, lora, qlora };
inline constexpr Spelling<Method> kMethodSpellings[] = {
    {Method::full, "full"}, {Method::lora, "lora"}, {Method::qlora, "qlora"}};
static_assert(spells_each_once(kMethodSpellings, Method::qlora));

// Training regimes and inference weight formats share one enum because the
// contract has one field; parse_request checks the value fits the mode.
enum class Precision { fp32, fp16_mixed, bf16_mixed, bf16_true, fp16, bf16, int8, nf4, int4 };
inline constexpr Spelling<Precision> kPrecisionSpellings[] = {
    {Precision::fp32, "fp32"},       {Precision::fp16_mixed, "fp16-mixed"}, {Precision::bf16_mixed, "bf16-mixed"},
    {Precision::bf16_true, "bf16-true"}, {Precision::fp16, "fp16"},      {Precision::bf16, "bf16"},
    {Precision::int8, "int8"},       {Precision::nf4, "nf4"},               {Precision::int4, "int4"}};
static_assert(spells_each_once(kPrecisionSpellings, Precision::int4));
// Which modes a precision belongs to: training regimes (mixed or true half
// precision), inference weight formats; fp32 is both.
constexpr bool trains_in(Precision p) { return p == Precision::fp32 || p == Precision::fp16_mixed || p == Precision::bf16_mixed || p == Precision::bf16_true; }
constexpr bool infers_in(Precision p) { return p == Precision::fp32 || !trains_in(p); }
// An inference workload's default weight format (a training one's is
// Workload::precision's): bf16, what transformers loads most checkpoints in.
inline constexpr Precision kDefaultInferPrecision = Precision::bf16;

enum class Optimizer { adamw, adamw_8bit, sgd, sgd_momentum, adafactor };
inline constexpr Spelling<Optimizer> kOptimizerSpellings[] = {
    {Optimizer::adamw, "adamw"}, {Optimizer::adamw_8bit, "adamw-8bit"}, {Optimizer::sgd, "sgd"},
    {Optimizer::sgd_momentum, "sgd-momentum"}, {Optimizer::adafactor, "adafactor"}};
static_assert(spells_each_once(kOptimizerSpellings, Optimizer::adafactor));

enum class Sharding { none, ddp, zero1, zero2, zero3 };
inline constexpr Spelling<Sharding> kShardingSpellings[] = {
    {Sharding::none, "none"},   {Sharding::ddp, "ddp"},     {Sharding::zero1, "zero1"},
    {Sharding::zero2, "zero2"}, {Sharding::zero3, "zero3"},
    {Sharding::zero3, "fsdp", true}};  // PyTorch FSDP (FULL_SHARD) shards what ZeRO-3 shards
static_assert(spells_each_once(kShardingSpellings, Sharding::zero3));

enum class LoraTargets { qv, attention, all_linear };
inline constexpr Spelling<LoraTargets> kLoraTargetsSpellings[] = {
    {LoraTargets::qv, "qv"}, {LoraTargets::attention, "attention"}, {LoraTargets::all_linear, "all-linear"}};
static_assert(spells_each_once(kLoraTargetsSpellings, LoraTargets::all_linear));

// standard: full logits upcast to fp32 (HF, plain PyTorch); chunked: torchtune
// CEWithChunkedOutputLoss; fused: a fused linear / in-place cross-entropy kernel.
enum class Loss { standard, chunked, fused };
inline constexpr Spelling<Loss> kLossSpellings[] = {
    {Loss::standard, "standard"}, {Loss::chunked, "chunked"}, {Loss::fused, "fused"}};
static_assert(spells_each_once(kLossSpellings, Loss::fused));
// The software that runs the job, as an efficiency class (contract v1.1,
// docs/time-model.md "Software stack"): eager PyTorch (HF Trainer, PEFT,
// TRL, LLaMA-Factory, transformers generate), optimized (torch.compile or
// CUDA graphs, fused kernels: torchtune compiled, unsloth, Liger, NVIDIA
// DeepLearningExamples), vllm (serving engines with paged KV and continuous
// batching: vLLM, SGLang, LMDeploy, TensorRT-LLM), llama_cpp (GGUF).
enum class Stack { eager, optimized, vllm, llama_cpp };
inline constexpr Spelling<Stack> kStackSpellings[] = {
    {Stack::eager, "eager"}, {Stack::optimized, "optimized"}, {Stack::vllm, "vllm"}, {Stack::llama_cpp, "llama.cpp"}};
static_assert(spells_each_once(kStackSpellings, Stack::llama_cpp));

// What the training step optimises (docs/objectives.md). sft: next-token
// cross-entropy on one sequence per sample. dpo: a chosen and a rejected
// sequence per sample against a frozen reference (Rafailov et al. 2023).
// grpo / ppo: on-policy RL, a rollout phase (generation) then a training phase
// (Shao et al. 2024, DeepSeekMath; Schulman et al. 2017 with a critic).
enum class Objective { sft, dpo, grpo, ppo };
inline constexpr Spelling<Objective> kObjectiveSpellings[] = {
    {Objective::sft, "sft"}, {Objective::dpo, "dpo"}, {Objective::grpo, "grpo"}, {Objective::ppo, "ppo"}};
static_assert(spells_each_once(kObjectiveSpellings, Objective::ppo));
// Where the RL rollouts are generated: by the trainer's own model
// (transformers generate, TRL's default) or by a vLLM engine colocated on
// the same GPUs, holding its own weights and KV cache (TRL vllm_mode
// "colocate", OpenRLHF / verl hybrid engine).
enum class Rollout { trainer, vllm };
inline constexpr Spelling<Rollout> kRolloutSpellings[] = {{Rollout::trainer, "trainer"}, {Rollout::vllm, "vllm"}};
static_assert(spells_each_once(kRolloutSpellings, Rollout::vllm));

struct RlSettings {
  int group_size = 8;        // completions per prompt (TRL num_generations, default 8)
  int completion_len = 256;  // generated tokens per completion (TRL max_completion_length, default 256)
  Rollout rollout = Rollout::trainer;
  // A frozen reference model for the KL term. Default: DPO and PPO yes, GRPO
  // no (TRL GRPOConfig beta defaults to 0.0 and then loads no reference).
  // With LoRA the base with adapters disabled serves as reference: no copy.
  int reference = -1;        // -1: the objective's default, 0 / 1: as given
  bool reward_model = false; // a learned reward model (PPO with RLHF); false: verifiable rewards computed on the host
  // The mean generated tokens per completion; 0: every completion runs to
  // completion_len (the cap). docs/objectives.md, "Generation".
  int completion_mean = 0;
  // ZeRO-3 with transformers generate: gather the whole policy once before
  // generating (TRL ds3_gather_for_generation, default True) or fetch each
  // layer's shards on every forward pass (false).
  bool gather_for_generation = true;
};

struct Lora {
  int rank = 8;
  LoraTargets targets = LoraTargets::qv;
};

struct Workload {
  Mode mode = Mode::train;
  Method method = Method::full;
  Precision precision = Precision::bf16_mixed;
  Optimizer optimizer = Optimizer::adamw;
  // The request names workload.optimizer / workload.precision: the student's
  // value, which the planner never changes (a default is the planner's own).
  bool optimizer_requested = false;
  bool precision_requested = false;
  int micro_batch = 1;
  int seq_len = 0;  // 0 until defaulted from the model kind (2048 decoder, 512 others)
  int image_size = 224;
  bool grad_checkpointing = false;
  bool flash_attention = true;
  Lora lora;
  int kv_cache_bits = 16;
  int gpus = 1;                        // the GPUs one run uses; hardware.count must agree (docs/api.md)
  Sharding sharding = Sharding::none;
  bool sharding_requested = false;     // the request names workload.sharding: the planner never changes it
  bool cpu_offload = false;
  // Measured over estimated speed on the user's own hardware (request
  // `baseline`, docs/time-model.md); 1 without one. Every rate is multiplied by it.
  double rate_scale = 1;
  // fp32 matmuls may use TF32 tensor cores on Ampere and later (docs/time-model.md,
  // "TF32 decision"); false: PyTorch >= 1.12's default without allow_tf32.
  bool tf32 = true;
  // Memory fields (docs/api.md, "Memory fields"): what a run can do that
  // changes its peak, each defaulting to what plain PyTorch / HF Trainer does.
  Loss loss = Loss::standard;          // how the LM loss materialises the logits
  // Convolutions on NHWC tensors (PyTorch channels_last): no cuDNN layout
  // transposes around tensor-core convolutions (docs/time-model.md).
  bool channels_last = false;
  bool torch_compile = false;          // torch.compile fuses elementwise ops: fewer saved activations
  bool optimizer_in_backward = false;  // step each parameter inside backward: gradients never all resident
  bool activation_offload = false;     // saved activations (checkpoints) copied to host memory
  int grad_accumulation = 1;           // micro-batches per optimizer step: > 1 keeps gradients through forward
  // Cards one machine carries where the job runs (catalog `machines.max_gpus`,
  // set by the evaluator from the platforms that sell the card): collectives
  // beyond it cross the network. Not a request field.
  int machine_gpus = 8;
  // Objectives (docs/objectives.md): DPO counts micro_batch in preference
  // pairs; GRPO / PPO in completions per GPU (TRL per_device_train_batch_size),
  // with seq_len the prompt length and rl.completion_len generated after it.
  Objective objective = Objective::sft;
  RlSettings rl;
  // Inference only, internal: tokens generated per sequence out of seq_len
  // (0: half, the contract's default split). The RL rollout sets it.
  int generated_len = 0;
  // Diffusion training (docs/memory-model.md): text embeddings computed once
  // and cached on disk, so the text encoders are not on the GPU while training.
  bool cached_text_embeddings = false;
  // Diffusion sampling (contract v1.2, docs/time-model.md "Diffusion
  // sampling"): denoising steps per image and classifier-free guidance (two
  // model passes per step). 0 / unset: the pipeline's documented default.
  int steps = 0;
  std::optional<bool> guidance;
  // Vision-language models (docs/vlm.md): images per sample, each image_size
  // pixels square, and whether the vision tower and projector are trained
  // (default frozen: LLaMA-Factory freeze_vision_tower / freeze_multi_modal_projector,
  // Qwen2.5-VL's own fine-tuning script tune_mm_vision False).
  int images_per_sample = 1;
  bool train_vision_tower = false;
  Stack stack = Stack::eager;          // workload.stack
  // Data that does not fill the sequence (request data.mean_seq_len,
  // data.packing; docs/time-model.md "Padding"): the mean sample length in
  // tokens (0: every sample is seq_len long), and whether samples are packed
  // into full seq_len rows (then no padding is computed).
  int mean_seq_len = 0;
  bool packing = false;
  // Length-grouped batches (request data.length_bin): the loader draws each
  // micro-batch from one bin of this many tokens, so it pads to the bin's
  // top instead of to the longest of random samples (0: random batches).
  int length_bin = 0;
  // LoRA / QLoRA under mixed precision: the frozen base is held in fp32, as
  // loaded with dtype float32 (PEFT's examples/sft/utils.py for a
  // non-quantized model; QLoRA with bnb_4bit_quant_storage float32) and kept
  // so by autocast and by FSDP's MixedPrecision, which casts only the gathered
  // copy (docs/memory-model.md, "Frozen base dtype"). false: the compute dtype.
  bool frozen_base_fp32 = false;
  // Measured over estimated peak memory on the user's own card (request
  // `baseline.memory_bytes`, docs/memory-model.md "Calibration"); 1 without
  // one. Every memory figure but the fixed CUDA context is multiplied by it.
  double memory_scale = 1;
};

struct Hardware {
  std::string gpu;
  int count = 1;
};

// Size of the job: tokens, or samples times epochs.
// "My 4 x 2080 Ti take 55 minutes an epoch": a speed the user measured, which
// rescales the time model's estimate on every other GPU (docs/api.md, Time fields).
struct Baseline {
  std::string gpu;               // catalog id of the card it was measured on
  int count = 1;
  int micro_batch = 0;           // per GPU when measured; 0: the workload's
  double seconds_per_epoch = 0;  // with data.samples
  double samples_per_s = 0;
  double tokens_per_s = 0;
  // A paper's reported run: the whole job took wall_hours on count x gpu
  // ("8 x A100 for 3 days"). Every other option's time is that job at the
  // time model's relative speed (docs/api.md, "A paper's run").
  double wall_hours = 0;
  double memory_bytes = 0;       // peak memory measured on it (nvidia-smi), per GPU
};

struct DataSize {
  double tokens = 0;
  double samples = 0;
  double epochs = 1;
  int mean_seq_len = 0;  // mean tokens per sample; 0: samples fill seq_len
  bool packing = false;  // samples packed into full seq_len rows
  int length_bin = 0;    // tokens per length bin of a length-grouped loader; 0: none
};

enum class Stage { debug, formal, revision };
inline constexpr Spelling<Stage> kStageSpellings[] = {
    {Stage::debug, "debug"}, {Stage::formal, "formal"}, {Stage::revision, "revision"}};
static_assert(spells_each_once(kStageSpellings, Stage::revision));

struct StageRequest {
  Stage stage = Stage::formal;
  int runs = 1;
  double data_fraction = 1.0;
  // Days between the end of the previous stage and the start of this one,
  // while the instance sits stopped with its data disk (docs/api.md,
  // "Between stages"). nullopt: not given; a revision stage then follows
  // its formal runs by an unknown time (peer review), the others at once.
  std::optional<double> gap_days;
};

struct Budget {
  double amount = 0;
  std::string currency = "CNY";
};

// Which platforms a plan may use (contract v1.1 `prefs.scope`).
enum class Scope { cn, global };
inline constexpr Spelling<Scope> kScopeSpellings[] = {{Scope::cn, "cn"}, {Scope::global, "global"}};
static_assert(spells_each_once(kScopeSpellings, Scope::global));

struct Prefs {
  std::string billing;                 // empty: any billing option
  std::vector<std::string> platforms;  // empty: every platform
  double deadline_days = 0;            // 0: no deadline
  // Planning extras (docs/api.md, "Planning request"):
  bool education = false;              // the user qualifies for the platforms' student discounts
  double dataset_gb = 0;               // dataset size on disk, 10^9 bytes (upload and storage)
  double storage_gb = -1;              // disk kept for data, checkpoints and outputs; < 0: dataset + checkpoints
  double upload_mbps = 100;            // the user's upload bandwidth, 10^6 bit/s
  int group_size = 1;                  // people sharing one rented 8-GPU machine
  // cn: platforms billing in CNY (Chinese marketplaces and clouds, campus);
  // global: every platform. Default: cn in every locale (contract v1.2).
  Scope scope = Scope::cn;
  // What an hour of the student's waiting is worth, in the request's currency
  // (contract v1.2): the planner weighs the lab's cards against renting with it.
  double time_value_per_hour = 0;
  std::string display_currency;  // the currency the student reads amounts in; empty: CNY
  // Formal and revision stages may take the changes that move the numbers a
  // paper reports (8-bit optimizer states) where they make a stage fit or
  // cost less, as a debug stage may; never on an optimizer the request names
  // (docs/api.md, "Changes that alter results"). Default false.
  bool allow_result_changes = false;
};

// Rent versus buy: the card or workstation the user could buy instead.
struct BuyOption {
  double price = 0;                    // per GPU; 0: the catalog's purchase price of the planned GPU
  std::string currency = "CNY";
  double watts = 0;                    // per GPU under load, host share included; 0: the card's TDP
  double electricity_per_kwh = -1;     // in `currency`; < 0: the catalog's `electricity` (catalog/meta.json)
  double resale_fraction = 0;          // of the price, recovered when the card is sold
  double years = 3;                    // service life it is written off over
};

struct UserPrice {
  std::string platform;
  std::string gpu;
  double per_gpu_hour = 0;
  std::string currency = "CNY";
  Billing billing = Billing::on_demand;
  std::string as_of;  // the day the quote was read (YYYY-MM-DD); empty when not given
  bool lab = false;   // from the lab's settings (`lab.prices`, `lab.campus.prices`): its offer's source is "lab"
};

// A remark made while reading the request (`params_mismatch`): the response's
// warnings start with these, in the request's locale.
struct InputWarning {
  std::string code;
  std::string message;
};

struct Request {
  Locale locale = Locale::zh_CN;
  std::vector<InputWarning> warnings;
  ModelSpec model;
  Workload workload;
  std::optional<Hardware> hardware;
  std::optional<DataSize> data;
  std::vector<StageRequest> stages;
  std::optional<Budget> budget;
  Prefs prefs;
  std::vector<UserPrice> prices;
  std::optional<ScienceWorkload> science;  // with workload.mode "science"
  std::optional<BuyOption> buy;
  std::optional<Baseline> baseline;
  std::optional<Lab> lab;  // the lab's settings (gpuplan/lab.h)
};

// Parses and validates a request against the catalog (presets, GPU ids).
// Fills every default (JSON null is the default too). Errors name the field
// and are in the request's locale, read from the raw text first so that
// errors raised before parsing (too_large, too_deep, invalid_json, a number
// beyond a double) speak it as well; an unknown field is an error
// (docs/api.md, "Strict input"), and every list has a limit ("Limits").
Result<Request> parse_request(std::string_view json_text, const Catalog& catalog);

// The locale a request's raw text asks for (zh-CN when it names none), for
// errors raised outside parse_request.
Locale request_locale(std::string_view json_text);

// The request's limits (docs/api.md, "Limits"): every list, and the numbers
// that size the planner's work. plan() meets its time budget on the largest
// request they allow (tests/core/hostile_input_test.cpp).
inline constexpr size_t kMaxRequestBytes = 1 << 20;  // 1 MiB: a request is a form, not a data set
inline constexpr int kMaxRequestDepth = 32;
inline constexpr size_t kMaxStages = 16;          // a thesis has a handful of stages (seed 003: three)
inline constexpr int kMaxRunsPerStage = int(limit::runs.max);
inline constexpr size_t kMaxPrices = 1000;        // the user's quotes (the page keeps at most this many)
inline constexpr size_t kMaxPlatforms = 64;       // prefs.platforms (the catalog has fewer)
inline constexpr int kMaxGpus = int(limit::gpus.max);  // workload.gpus, hardware.count

}  // namespace gpuplan
