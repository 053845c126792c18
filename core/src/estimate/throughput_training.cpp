// A training step: compute, memory traffic, the optimizer step, kernels, the
// host and the exposed communication (docs/time-model.md).
#include "estimate/time_model.h"

#include <algorithm>
#include <cmath>

#include "estimate/optimizer_states.h"

namespace gpuplan::time_model {

Throughput train_throughput(const ModelSpec& m, const Workload& as_given, const Gpu& g, int n) {
  // Steps compute at the padded length; tokens/s counts real tokens.
  const Workload w = as_computed(as_given);
  Throughput t;
  Rates rates;
  if (!rates_for(m, w, g, t, rates)) return t;
  const double peak = rates.peak_flops_per_s;
  const double achieved_rate = rates.achieved_flops_per_s;
  const double bandwidth = rates.bandwidth_bytes_per_s;
  Work k = m.kind == ModelKind::cnn ? cnn_work(m, w, t.unit, achieved_rate, bandwidth, true)
                                    : transformer_train_work(m, w, achieved_rate, bandwidth);
  if (k.flops <= 0) return t;

  StepTime& st = t.step;
  // Averages per micro-batch: the optimizer step and the gradient reduction
  // happen once per `grad_accumulation` micro-batches (HF Trainer / Accelerate
  // skip DDP's all-reduce with no_sync until the last one).
  const double accumulation = std::max(1, w.grad_accumulation);
  st.compute_seconds = k.compute_seconds;
  st.memory_seconds = k.memory_seconds;
  const double opt_bytes = k.trainable * optimizer_step_bytes_per_param(w.optimizer, w.precision);
  const double opt_share = sharded_optimizer(w.sharding) ? 1.0 / n : 1.0;
  if (w.cpu_offload) {
    // Optimizer on the host; gradients down and parameters up over PCIe.
    st.optimizer_seconds = opt_bytes * opt_share / kHostOptimizerBytesPerS +
                           k.trainable * opt_share * 4 / (pcie_bytes_per_s(g.pcie_gen) * kPcieP2pEfficiency);
  } else {
    st.optimizer_seconds = opt_bytes * opt_share / bandwidth;
  }
  st.optimizer_seconds /= accumulation;
  st.kernel_tail_seconds = k.kernels * kKernelTailSeconds;
  st.gpu_seconds = st.compute_seconds + st.memory_seconds + st.optimizer_seconds + st.kernel_tail_seconds;
  st.host_seconds = k.kernels * kHostSecondsPerKernel;
  const CommunicationBytes bytes = communication_bytes(m, w, k.trainable, n);
  const double link = link_bytes_per_s(g, n, w.machine_gpus);
  const double reduce_seconds = bytes.per_optimizer_step / link;  // once per optimizer step
  double exposed_reduce = reduce_seconds;
  if (w.sharding != Sharding::zero3 && reduce_seconds > 0) {
    // Hidden behind the backward pass of the last micro-batch.
    const double window = kBackwardShareOfCompute * st.compute_seconds;
    const double last_bucket = std::min(reduce_seconds, kLastBucketBytes / link);
    const double hidden = std::min(std::max(0.0, reduce_seconds - last_bucket), window);
    exposed_reduce = reduce_seconds - hidden + kOverlapInterference * hidden;
  }
  const double gather_seconds = bytes.per_micro_batch / link;
  st.communication_seconds = gather_seconds + reduce_seconds / accumulation;
  st.exposed_communication_seconds = gather_seconds + exposed_reduce / accumulation;

  const double one_gpu_micro = std::max(st.gpu_seconds, st.host_seconds);
  const double micro_seconds = one_gpu_micro + st.exposed_communication_seconds;
  t.step_seconds = micro_seconds * accumulation;
  t.samples_per_s = double(n) * w.micro_batch / micro_seconds;
  t.tokens_per_s = m.kind == ModelKind::cnn ? 0 : t.samples_per_s * real_tokens_per_sample(as_given);
  t.scaling_efficiency = n > 1 ? one_gpu_micro / micro_seconds : 1.0;
  t.utilization = k.flops / (micro_seconds * peak);
  t.achieved_tflops = t.peak_tflops * t.utilization;
  t.bandwidth_bound = st.memory_seconds + st.optimizer_seconds > st.compute_seconds;
  t.trainable_params = k.trainable;
  return t;
}

}  // namespace gpuplan::time_model
