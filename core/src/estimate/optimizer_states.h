// One table of optimizer states: what each optimizer holds per trainable
// parameter and what its step reads and writes. Memory (bytes held, the
// `optimizer` component) and time (bytes moved, `optimizer_seconds`) both
// derive their figure from the same row, so the two cannot describe different
// optimizers. Derivations: docs/memory-model.md ("Weights, gradients and
// optimizer states") and docs/time-model.md ("Optimizer").
#pragma once

#include "gpuplan/model.h"
#include "gpuplan/request.h"

namespace gpuplan {

struct OptimizerStates {
  Optimizer optimizer;
  // State tensors the size of the parameters (AdamW's exp_avg and exp_avg_sq).
  int full_states;
  // Bytes of one state element; 0: the parameter's state dtype (4 bytes, or 2
  // under bf16-true), which is what PyTorch allocates them in.
  double element_bytes;
  // Bytes per element of the per-block scales a quantized state keeps.
  double block_scale_bytes;
  // A second moment factored into one row and one column per matrix instead
  // of a full state (Adafactor).
  bool factored_second_moment;
  // Bytes per parameter a step moves beyond the weight update and the states:
  // the half-precision copies of the parameter and the gradient.
  double half_copy_bytes;
};

// AdamW: exp_avg + exp_avg_sq (Loshchilov & Hutter 2019; PyTorch keeps them in
//   the parameter dtype).
// AdamW 8-bit (Dettmers et al. 2022, "8-bit Optimizers via Block-wise
//   Quantization"): two 1-byte states and an fp32 absmax per block of 2048.
// SGD: no state; SGD with momentum: one buffer.
// Adafactor (Shazeer & Stern 2018): no first moment (HF's default beta1=None)
//   and a factored second moment, about 2/hidden of a full state.
// The half copies are counted for the adaptive optimizers and not for the SGD
// rows, as the time model was calibrated (docs/time-model.md, "Optimizer").
inline constexpr OptimizerStates kOptimizerStates[] = {
    {Optimizer::adamw, 2, 0, 0, false, 4},
    {Optimizer::adamw_8bit, 2, 1, 4.0 / 2048, false, 4},
    {Optimizer::sgd, 0, 0, 0, false, 0},
    {Optimizer::sgd_momentum, 1, 0, 0, false, 0},
    {Optimizer::adafactor, 0, 0, 0, true, 4},
};

// One row per optimizer, in the enum's order (optimizer_states indexes it).
constexpr bool one_row_per_optimizer() {
  int i = 0;
  for (const OptimizerStates& row : kOptimizerStates) {
    if (row.optimizer != Optimizer(i++)) return false;
  }
  return Optimizer(i - 1) == Optimizer::adafactor;
}
static_assert(one_row_per_optimizer());

const OptimizerStates& optimizer_states(Optimizer optimizer);

// Bytes of optimizer state held per trainable parameter, with unquantized
// states in `state_bytes` (4, or 2 for bf16-true; the adapter's dtype for
// LoRA). What the memory model adds as the `optimizer` component.
double optimizer_state_bytes_per_param(Optimizer optimizer, double state_bytes, const ModelSpec& model);

// Bytes read and written per trainable parameter by one optimizer step: the
// weight update (read p and g, write p: 3 x 4 bytes with fp32 master
// weights), each full state read and written, and the half copies; every
// figure halved under bf16-true, where all of them are bf16. What
// the training step's time (throughput_training.cpp) divides by the memory
// bandwidth.
double optimizer_step_bytes_per_param(Optimizer optimizer, Precision precision);

}  // namespace gpuplan
