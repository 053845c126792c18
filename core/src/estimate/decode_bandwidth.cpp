// Measured llama.cpp batch-1 decode bandwidth per card (decode_bandwidth.h).
//
// Source: XiongjieDai/GPU-Benchmarks-on-LLM-Inference, README.md at commit
// aa72e0e (2024-05-12), "Benchmarks", LLaMA 3: llama.cpp llama-bench
// (CUDA build, all layers offloaded) on RunPod (Ubuntu 22.04, CUDA 12.1.1),
// May 2024; the "8B F16" rows, column "tg 512" (512 tokens generated from an
// empty context, batch 1), one card each. The same rows are published cases
// in tests/data/throughput_cases.json (xdai-*-8b-f16).
//
// Share = bytes a token reads / (datasheet bandwidth x the time a token's
// weights stream): the measured time per token less the kernel tails the
// decode step adds on its own (throughput_inference.cpp: layers x
// kDecodeKernelsPerLayer x kKernelTailSeconds, 1.28 ms for 32 layers), so
// that the step model reproduces the row. Bytes a token reads: Llama 3 8B at
// F16 (8,030,261,248 weights) less the untied input embedding table (128256
// x 4096), which llama.cpp looks up by row (ggml_get_rows) instead of
// streaming, plus the mean KV cache read over the 512 generated tokens (256
// positions x 32 layers x K and V x 1024 x 2 bytes).
//
// The datasheet bandwidth is the catalog's (catalog/gpus.json) for catalog
// cards; four cards the catalog does not carry are kept for the class
// medians, with NVIDIA's datasheet figures: GeForce RTX 4080 716.8 GB/s
// (22.4 Gbps GDDR6X, 256-bit), RTX 4000 Ada 360 GB/s, RTX 5000 Ada 576 GB/s,
// RTX 6000 Ada 960 GB/s (GDDR6).
//
// Why the classes differ (not modelled, the measurement carries it): a
// matrix-vector product keeps a bounded number of loads in flight per SM;
// by Little's law the bandwidth it sustains is bytes in flight / latency,
// and HBM's two- to three-fold higher peak needs two to three times the
// bytes in flight at a similar latency. 4096-wide matrices give too few
// blocks to supply them; the same source's 70B rows (8192-wide) reach a
// higher HBM share (docs/time-model.md lists them as cases).
#include "estimate/decode_bandwidth.h"

#include <algorithm>
#include <array>

#include "estimate/time_model.h"

namespace gpuplan {
namespace {

enum class Memory { gddr, hbm };

struct Measured {
  std::string_view id;
  double tokens_per_s;  // tg 512, 8B F16
  double datasheet_gb_s;
  Memory memory;
};

constexpr std::array<Measured, 12> kMeasured = {{
    {"rtx-3090", 47.40, 936, Memory::gddr},        // GDDR6X
    {"rtx-4090", 54.84, 1008, Memory::gddr},       // GDDR6X
    {"rtx-4080", 40.58, 716.8, Memory::gddr},      // GDDR6X, not in the catalog
    {"rtx-4000-ada", 20.92, 360, Memory::gddr},    // not in the catalog
    {"rtx-5000-ada", 32.84, 576, Memory::gddr},    // not in the catalog
    {"rtx-a6000", 40.71, 768, Memory::gddr},
    {"rtx-6000-ada", 52.32, 960, Memory::gddr},    // not in the catalog
    {"a40", 34.26, 696, Memory::gddr},
    {"l40s", 43.69, 864, Memory::gddr},
    {"a100-pcie-80g", 54.84, 1935, Memory::hbm},   // HBM2e
    {"a100-sxm4-80g", 53.49, 2039, Memory::hbm},   // HBM2e
    {"h100-pcie", 68.03, 2000, Memory::hbm},       // HBM2e
}};

// The memory of every other catalog card (NVIDIA's and Huawei's datasheets):
// HBM2 (V100), HBM2e (A100 40GB, A800, Ascend 910B), HBM3 (H100 SXM, H800,
// H20), HBM3e (H200, B200); GDDR6 / GDDR6X / GDDR7 for the rest.
struct Classed {
  std::string_view id;
  Memory memory;
};
constexpr std::array<Classed, 25> kClassed = {{
    {"v100-sxm2-16g", Memory::hbm}, {"v100-sxm2-32g", Memory::hbm}, {"a100-pcie-40g", Memory::hbm},
    {"a100-sxm4-40g", Memory::hbm}, {"a800-80g", Memory::hbm},      {"h100-sxm", Memory::hbm},
    {"h800", Memory::hbm},          {"h20", Memory::hbm},           {"h200", Memory::hbm},
    {"b200", Memory::hbm},          {"ascend-910b", Memory::hbm},   {"t4", Memory::gddr},
    {"rtx-2080ti", Memory::gddr},   {"rtx-3060", Memory::gddr},     {"rtx-3080", Memory::gddr},
    {"rtx-3080ti", Memory::gddr},   {"rtx-4090d", Memory::gddr},    {"rtx-4080s", Memory::gddr},
    {"rtx-5090", Memory::gddr},     {"rtx-pro-6000", Memory::gddr}, {"titan-rtx", Memory::gddr},
    {"a10", Memory::gddr},          {"a10g", Memory::gddr},         {"l4", Memory::gddr},
    {"l20", Memory::gddr},
}};

// Llama 3 8B at F16 less its untied input table, plus the mean KV read.
constexpr double kBytesPerToken = (8030261248.0 - 128256.0 * 4096) * 2 + 2.0 * 32 * 1024 * 2 * 256;
constexpr double kTailSecondsPerToken = 32 * time_model::kDecodeKernelsPerLayer * time_model::kKernelTailSeconds;

constexpr double share(const Measured& r) {
  return kBytesPerToken / (r.datasheet_gb_s * 1e9 * (1 / r.tokens_per_s - kTailSecondsPerToken));
}

// The median share of a class, at compile time.
constexpr double class_median(Memory memory) {
  std::array<double, kMeasured.size()> v{};
  size_t n = 0;
  for (const auto& r : kMeasured)
    if (r.memory == memory) v[n++] = share(r);
  std::sort(v.begin(), v.begin() + n);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
constexpr double kMedian[2] = {class_median(Memory::gddr), class_median(Memory::hbm)};

const Measured* find(std::string_view id) {
  for (const auto& r : kMeasured)
    if (r.id == id) return &r;
  return nullptr;
}

const Classed* classed(std::string_view id) {
  for (const auto& c : kClassed)
    if (c.id == id) return &c;
  return nullptr;
}

}  // namespace

bool has_hbm(std::string_view gpu_id) {
  if (const Measured* r = find(gpu_id)) return r->memory == Memory::hbm;
  const Classed* c = classed(gpu_id);
  return c && c->memory == Memory::hbm;
}

bool has_measured_decode_share(std::string_view gpu_id) { return find(gpu_id) != nullptr; }

double llama_cpp_decode_bandwidth_share(std::string_view gpu_id) {
  if (const Measured* r = find(gpu_id)) return share(*r);
  if (const Classed* c = classed(gpu_id)) return kMedian[c->memory == Memory::hbm];
  // A card the table does not classify: the streaming share other stacks use.
  return time_model::kBandwidthEfficiency;
}

}  // namespace gpuplan
