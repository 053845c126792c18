// Bytes held and bytes moved per parameter, both from kOptimizerStates.
#include "estimate/optimizer_states.h"

namespace gpuplan {

const OptimizerStates& optimizer_states(Optimizer optimizer) { return kOptimizerStates[int(optimizer)]; }

double optimizer_state_bytes_per_param(Optimizer optimizer, double state_bytes, const ModelSpec& model) {
  const OptimizerStates& row = optimizer_states(optimizer);
  const double element = row.element_bytes > 0 ? row.element_bytes : state_bytes;
  double bytes = row.full_states * (element + row.block_scale_bytes);
  // One row and one column vector per matrix: 2/hidden of a full state (2 %
  // where the width is unknown).
  if (row.factored_second_moment) bytes += model.hidden > 0 ? state_bytes * 2.0 / model.hidden : state_bytes * 0.02;
  return bytes;
}

double optimizer_step_bytes_per_param(Optimizer optimizer, Precision precision) {
  // With fp32 master weights: read p and g, write p.
  constexpr double kWeightUpdateBytes = 3 * 4;
  const OptimizerStates& row = optimizer_states(optimizer);
  // Each full state is read and written once. A quantized state's block
  // scales (0.2 % of it) and the factored moments (2/hidden of a state) are
  // below the figure's resolution and left out.
  const double element = row.element_bytes > 0 ? row.element_bytes : 4;
  const double bytes = kWeightUpdateBytes + 2 * row.full_states * element + row.half_copy_bytes;
  return precision == Precision::bf16_true ? bytes / 2 : bytes;  // every state in bf16
}

}  // namespace gpuplan
