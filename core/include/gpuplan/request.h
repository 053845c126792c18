// The planner's request in typed form (contract v1, docs/api.md). Every field
// has a default, so a request naming only a model preset is complete.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/error.h"
#include "gpuplan/locale.h"
#include "gpuplan/model.h"
#include "gpuplan/science.h"

namespace gpuplan {

enum class Mode { train, infer, science };  // science: docs/science.md
enum class Method { full, lora, qlora };
// Training regimes and inference weight formats share one enum because the
// contract has one field; parse_request checks the value fits the mode.
enum class Precision { fp32, fp16_mixed, bf16_mixed, bf16_true, fp16, bf16, int8, nf4, int4 };
enum class Optimizer { adamw, adamw_8bit, sgd, sgd_momentum, adafactor };
enum class Sharding { none, ddp, zero1, zero2, zero3 };
enum class LoraTargets { qv, attention, all_linear };
// standard: full logits upcast to fp32 (HF, plain PyTorch); chunked: torchtune
// CEWithChunkedOutputLoss; fused: a fused linear / in-place cross-entropy kernel.
enum class Loss { standard, chunked, fused };

struct Lora {
  int rank = 8;
  LoraTargets targets = LoraTargets::qv;
};

struct Workload {
  Mode mode = Mode::train;
  Method method = Method::full;
  Precision precision = Precision::bf16_mixed;
  Optimizer optimizer = Optimizer::adamw;
  int micro_batch = 1;
  int seq_len = 0;  // 0 until defaulted from the model kind (2048 decoder, 512 others)
  int image_size = 224;
  bool grad_checkpointing = false;
  bool flash_attention = true;
  Lora lora;
  int kv_cache_bits = 16;
  int gpus = 1;
  Sharding sharding = Sharding::none;
  bool sharding_requested = false;  // the request named it: the planner never changes it
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
  bool torch_compile = false;          // torch.compile fuses elementwise ops: fewer saved activations
  bool optimizer_in_backward = false;  // step each parameter inside backward: gradients never all resident
  bool activation_offload = false;     // saved activations (checkpoints) copied to host memory
  int grad_accumulation = 1;           // micro-batches per optimizer step: > 1 keeps gradients through forward
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
};

struct DataSize {
  double tokens = 0;
  double samples = 0;
  double epochs = 1;
};

enum class Stage { debug, formal, revision };

struct StageRequest {
  Stage stage = Stage::formal;
  int runs = 1;
  double data_fraction = 1.0;
};

struct Budget {
  double amount = 0;
  std::string currency = "CNY";
};

// Which platforms a plan may use (contract v1.1 `prefs.scope`).
enum class Scope { cn, global };

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
  // global: every platform. Default: cn under zh-CN, global otherwise.
  Scope scope = Scope::cn;
};

// Rent versus buy: the card or workstation the user could buy instead.
struct BuyOption {
  double price = 0;                    // per GPU; 0: the catalog's purchase price of the planned GPU
  std::string currency = "CNY";
  double watts = 0;                    // per GPU under load, host share included; 0: the card's TDP
  double electricity_per_kwh = -1;     // in `currency`; < 0: 0.6 CNY (docs/api.md)
  double resale_fraction = 0;          // of the price, recovered when the card is sold
  double years = 3;                    // service life it is written off over
};

struct UserPrice {
  std::string platform;
  std::string gpu;
  double per_gpu_hour = 0;
  std::string currency = "CNY";
  Billing billing = Billing::on_demand;
};

struct Request {
  Locale locale = Locale::zh_CN;
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
};

// Parses and validates a request against the catalog (presets, GPU ids).
// Fills every default. Errors name the field and are in the request's locale.
Result<Request> parse_request(std::string_view json_text, const Catalog& catalog);

}  // namespace gpuplan
