// Communication: the links between GPUs and the bytes data parallelism and
// ZeRO / FSDP send per step (docs/time-model.md, "Several GPUs").
#include "estimate/time_model.h"

#include <algorithm>

#include "gpuplan/model_arithmetic.h"

namespace gpuplan::time_model {

double pcie_bytes_per_s(int gen) {
  // x16, per direction: gen3 8 GT/s, gen4 16, gen5 32, 128b/130b encoding.
  if (gen <= 3) return 15.75e9;
  if (gen == 4) return 31.5e9;
  return 63.0e9;
}

double link_bytes_per_s(const Gpu& g, int n, int machine_gpus) {
  double intra = g.nvlink_bytes_per_s > 0
                     ? g.nvlink_bytes_per_s / 2 * kNvlinkEfficiency
                     : pcie_bytes_per_s(g.pcie_gen) *
                           (g.segment == Segment::consumer ? kPcieHostStagedEfficiency : kPcieP2pEfficiency);
  // A ring across machines runs at its slowest hop: the network, or the link
  // inside a machine where that is slower (a GeForce host's host-staged PCIe
  // is below 100 Gb/s). Inter-node is never faster than intra-node.
  if (n > std::max(1, machine_gpus)) return std::min(kInterNodeBytesPerS, intra);
  return intra;
}

CommunicationBytes communication_bytes(const ModelSpec& m, const Workload& w, double trainable, int n) {
  CommunicationBytes c;
  if (n <= 1) return c;
  const double ring = double(n - 1) / n;
  if (w.sharding == Sharding::zero3) {
    if (w.method == Method::full) {
      // Parameters gathered for forward and backward, gradients reduce-scattered:
      // 3 x (N-1)/N x parameter bytes = 1.5 x the DDP volume (Rajbhandari et al. 2020, ZeRO, sec. 7.2.2).
      const double param_bytes = w.precision == Precision::fp32 ? 4 : 2;
      c.per_micro_batch = 2 * ring * m.params * param_bytes;
      c.per_optimizer_step = ring * m.params * param_bytes;
      return c;
    }
    // Frozen base weights gathered for forward and backward, in the bytes
    // the memory model holds them in (QLoRA: NF4 linears, bf16 embeddings);
    // adapter gradients are tiny.
    const double frozen_bytes = w.method == Method::qlora ? qlora_base_bytes(m, model_shapes(m))
                                                          : m.params * activation_bytes(w.precision);
    c.per_micro_batch = 2 * ring * frozen_bytes;
    c.per_optimizer_step = 2 * ring * trainable * 4;
    return c;
  }
  // DDP all-reduces gradients in the parameters' dtype (fp32 master weights
  // under AMP); DeepSpeed ZeRO-1/2 reduce half-precision gradients.
  double grad_bytes = 4;
  if (w.precision == Precision::bf16_true) grad_bytes = 2;
  else if (w.precision != Precision::fp32 && (w.sharding == Sharding::zero1 || w.sharding == Sharding::zero2))
    grad_bytes = 2;
  c.per_optimizer_step = 2 * ring * trainable * grad_bytes;
  return c;
}

}  // namespace gpuplan::time_model
