// Measured matmul rates per GPU type (sustained_rates.h). One row per card:
// the median over the published rows for that card of the best of the fp16
// and bf16 columns, and the fp32 column, in TFLOP/s, with the datasheet
// figure the catalog carries (catalog/gpus.json) it is compared with.
//
// Source (unless a row says otherwise): zzc0721/torch-performance-test-data,
// database.md (as read 2026-12-01): a community table of torch.matmul rates
// on large square matrices (one script, many contributors, PyTorch 2.2-2.8),
// on bare-metal machines and rented containers (AutoDL-class clouds among
// them). A short benchmark reads the boost clock a long training run may not
// hold; the stack's rate interval (throughput.cpp) carries what is left.
#include "estimate/sustained_rates.h"

#include <array>
#include <utility>

namespace gpuplan {
namespace {

struct MeasuredRate {
  std::string_view id;
  double half_tflops;       // measured, fp16/bf16 tensor (0: not measured)
  double half_datasheet;    // catalog bf16 (or fp16) tensor peak, dense
  double fp32_tflops;       // measured, FP32 CUDA cores (0: not measured)
  double fp32_datasheet;    // catalog fp32 peak
};

constexpr std::array<MeasuredRate, 20> kMeasured = {{
    {"a100-sxm4-80g", 264.53, 312, 19.18, 19.5},
    {"a800-80g", 266.48, 312, 19.08, 19.5},
    {"h100-sxm", 790.6, 989, 52.0, 67},     // two rows: 797.51, 783.66 (fp32 51.88, 52.11)
    {"h100-pcie", 495.93, 756, 36.95, 51},
    {"h200", 790.29, 989, 51.34, 67},
    {"h20", 142.1, 148, 31.97, 44},          // three rows: 141.86, 142.25, 141.73
    {"l40s", 269.15, 362, 46.88, 91.6},
    {"rtx-a6000", 123.34, 154.8, 23.92, 38.7},
    {"rtx-4090", 168.09, 165.2, 54.7, 82.6},  // six 24 GB rows, 162.4-173.3
    {"rtx-4090d", 152.64, 147.09, 50.07, 73.54},
    {"rtx-3090", 76.58, 71, 24.65, 35.6},     // four rows, 76.3-76.7
    {"rtx-3080", 53.41, 59.5, 15.56, 29.8},
    {"rtx-5090", 238.04, 210, 68.37, 104.8},  // four rows, 221.7-242.2 (fp32 64.0-70.5)
    {"v100-sxm2-16g", 94.84, 125, 14.06, 15.7},
    // T4: fp32 column (4.2-4.4) left out: NVIDIA's own T4 ResNet-50 fp32
    // training rate (428 img/s, DeepLearningExamples) needs 5.3 TFLOP/s, so
    // those Colab / Kaggle rows ran throttled.
    {"t4", 41.93, 65, 0, 8.1},                // three rows, 41.9-42.7
    // DefTruth/CUDA-Learn-Notes hgemm/README.md: cuBLAS HGEMM 105-115 TFLOP/s
    // on an L20 (119.5 theoretical); no FP32 figure.
    {"l20", 110, 119.5, 0, 0},
    // The same script's later submissions (GitHub issues of the same
    // repository, each with its per-size table; best of 1024-10240 squared):
    // A10G: issue #126 (2026-01-20, PyTorch 2.7.0+cu128, device name
    // "NVIDIA A10G"; fp16 and bf16 69.47 at 10240, fp32 23.37 at 4096).
    {"a10g", 69.47, 125, 23.37, 31.2},
    // RTX 2080 Ti, two rows: issue #115 (AutoDL, a 22 GB modified card,
    // PyTorch 2.8.0: fp16 58.58 at 2048, fp32 13.04) and issue #181 (own
    // machine, 11 GB, PyTorch 2.7.1: fp16 56.78 at 2048, fp32 11.52). Same
    // TU102 chip and clocks; fp16 is the GeForce FP32-accumulate rate the
    // catalog carries (bf16 runs emulated at ~7, not used).
    {"rtx-2080ti", 57.68, 56.9, 12.28, 13.45},
    // L4 (72 W), two rows: issue #120 (own machine, PyTorch 2.9.0: bf16 70.89
    // at 2048, only 52-59 at 4096-10240, where the power cap holds the clock;
    // fp32 15.38) and chsasank/device-benchmarks README.md (commit 9a062fa,
    // 2024-12-11: bf16 66, fp16 65, fp32 12; a single torch.matmul per size
    // from 256 to 6888, 10 trials averaged).
    {"l4", 68.45, 121, 13.69, 30.3},
    // A10 (150 W): no row in the table; chsasank/device-benchmarks README.md
    // (commit 0922806, PR #4, 2024-02-19, "Nvidia A10 24GB": bf16 56, fp16
    // 54, fp32 14). That script reads 0.90-1.0 of this table's figure on the
    // cards both measured (A100 PCIe 237 vs 241, H100 PCIe 449 vs 496, RTX
    // 4090 168 vs 168, L4 66 vs 71), so the A10 may sit up to 10 % higher.
    // FP32 is of the order CUTLASS's SIMT SGEMM reached on an A10 (12.5 at
    // 3456x4096x4096, NVIDIA/cutlass issue #941, CUDA 11.2).
    {"a10", 56, 125, 14, 31.2},
}};

// The reference card: the efficiencies in throughput.cpp were fitted on the
// published cases, most of which ran on A100 SXM4 80GB (DeepLearningExamples,
// torchtune, flash-attention, LLaMA-Factory, gpt-fast); a card's factor is its
// share of datasheet over the A100's.
constexpr std::string_view kReferenceCard = "a100-sxm4-80g";

double share(const MeasuredRate& r, bool half) {
  const double measured = half ? r.half_tflops : r.fp32_tflops;
  const double rated = half ? r.half_datasheet : r.fp32_datasheet;
  return measured > 0 && rated > 0 ? measured / rated : 0;
}

// Cards with no row of their own that are the same chip at the same clocks
// and power as a measured one (catalog/gpus.json: identical datasheet peaks
// and TDP), differing only in memory size: they take its row. V100 SXM2 32GB
// and 16GB: one GV100 at 300 W, 15.7 FP32 / 125 tensor TFLOP/s
// (the DeepLearningExamples DGX-1 32GB rows were read at datasheet rate while
// the 16GB rows of the same tables got the measured 0.89).
constexpr std::array<std::pair<std::string_view, std::string_view>, 1> kSameChip = {{
    {"v100-sxm2-32g", "v100-sxm2-16g"},
}};

const MeasuredRate* find(std::string_view id) {
  for (const auto& [alias, measured] : kSameChip)
    if (alias == id) id = measured;
  for (const auto& r : kMeasured)
    if (r.id == id) return &r;
  return nullptr;
}

}  // namespace

double sustained_rate_factor(std::string_view gpu_id, ComputeUnit unit) {
  const bool half = unit == ComputeUnit::fp16_tensor || unit == ComputeUnit::bf16_tensor;
  if (!half && unit != ComputeUnit::fp32_cuda) return 1;  // TF32: not measured in the table
  const MeasuredRate* card = find(gpu_id);
  const MeasuredRate* reference = find(kReferenceCard);
  if (!card || !reference) return 1;
  const double mine = share(*card, half), typical = share(*reference, half);
  return mine > 0 && typical > 0 ? mine / typical : 1;
}

}  // namespace gpuplan
