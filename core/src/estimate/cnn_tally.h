// The bookkeeping a layer-by-layer expansion of a convolutional network needs:
// each op adds its parameters and multiply-accumulates, marks the tensors
// autograd saves for backward (once per tensor, however many ops keep it),
// and, for an inference pass under no_grad, offers its live set (what is held
// across it + its input + its output) as a candidate peak. All figures are per
// sample (one image); callers multiply by the micro-batch.
//
// What each op saves is read from PyTorch's autograd formulas
// (tools/autograd/derivatives.yaml, pytorch/pytorch@v2.3.0) and, for mixed
// precision, from the autocast op lists (PyTorch "Automatic Mixed Precision
// package", CUDA ops that autocast to float32: group_norm, layer_norm,
// softmax, log_softmax, ...; to float16: conv2d, linear, matmul, baddbmm, ...):
//   conv2d, linear, matmul : its input (autocast casts an fp32 input to half:
//                            a new half tensor per op, and that copy is saved)
//   batch_norm             : its input (+ per-channel statistics, neglected)
//   group_norm, layer_norm : its input; under autocast the fp32 copy it casts to,
//                            and its output is fp32
//   relu_ (in place)       : its output;  silu, gelu : their input
//   max_pool2d             : its input and the int64 indices of the maxima
//   dropout (p > 0)        : a 1-byte mask
//   softmax                : its output (fp32 under autocast); eager attention
//                            also saves the half copy the value matmul reads
//   SDPA (flash / memory-efficient): q, k, v, output and the log-sum-exp
//   add, cat, view, chunk, nearest/bilinear upsampling: nothing
// A view (chunk) keeps its whole base alive, so a saved view counts its base.
#pragma once

#include <algorithm>

namespace gpuplan {

struct CnnPass {
  bool train = true;
  bool autocast = false;      // fp16/bf16-mixed training: norms and softmax in fp32
  double compute_bytes = 4;   // bytes of a conv / matmul output element
  bool flash_attention = true;
  bool checkpointing = false; // activation checkpointing per unit (block)
  // LoRA / QLoRA: the base weights are frozen. A frozen Linear (mm/addmm,
  // whose formulas are per operand) does not save its input, since only the
  // weight's gradient needs it (autograd saves a variable only for the
  // outputs that require grad); an adapted one does. A convolution's one
  // formula covers input and weight, so it saves its input either way.
  bool frozen = false;
  bool operator==(const CnnPass&) const = default;
};

// Which LoRA target group a linear layer belongs to (request lora.targets:
// qv = to_q, to_v; attention adds to_k, to_out.0; all-linear adds the
// feed-forward's linears).
enum class Adapter { none, qv, k_out, mlp };

// A feature map per sample: c channels of h x w (tokens: c features of h*w).
struct Tensor {
  int c = 0, h = 0, w = 0;
  bool wide = false;   // fp32 under autocast
  bool saved = false;  // already kept for backward
  bool grad = false;   // requires grad: produced by a recorded op
  double elements() const { return double(c) * h * w; }
};

// PyTorch's output size: floor((in + 2p - d(k-1) - 1) / s) + 1.
inline int conv_out(int in, int k, int s, int p, int d = 1) { return (in + 2 * p - d * (k - 1) - 1) / s + 1; }

class Tally {
 public:
  explicit Tally(const CnnPass& pass) : pass_(pass) {}
  const CnnPass& pass() const { return pass_; }

  double bytes(const Tensor& t) const { return t.elements() * (t.wide && pass_.autocast ? 4 : pass_.compute_bytes); }
  Tensor make(int c, int h, int w, bool wide = false) const { return Tensor{c, h, w, wide && pass_.autocast, false, false}; }
  // A new tensor computed from `from` (a copy, a reshape, an elementwise
  // result): it requires grad when its source does.
  Tensor like(const Tensor& from, int c, int h, int w, bool wide = false) const {
    return Tensor{c, h, w, wide && pass_.autocast, false, from.grad};
  }
  // Autograd records an op, and saves what it needs, only when an input or a
  // parameter requires grad: with a frozen base (LoRA) the layers before the
  // first adapted one record nothing.
  bool records(const Tensor& x, bool has_params) const { return pass_.train && (x.grad || (has_params && !pass_.frozen)); }

  // Autograd keeps t (once).
  void save(Tensor& t);
  void save_bytes(double b) { if (pass_.train) saved_ += b; }
  // The tensor a conv / matmul reads: under autocast an fp32 input is cast to
  // half, a new tensor each time (only weights are cached by autocast).
  Tensor half_copy(Tensor& t) const { return t.wide ? Tensor{t.c, t.h, t.w, false, false, t.grad} : t; }

  // Inference: what stays alive across the next ops (skip connections, residuals).
  void hold(const Tensor& t) { held_ += bytes(t); }
  void release(const Tensor& t) { held_ -= bytes(t); }
  void live(double op_bytes) { peak_ = std::max(peak_, held_ + op_bytes); }

  // Activation checkpointing (torch.utils.checkpoint around each unit): the
  // unit's input is kept, its internals are recomputed during backward, one
  // unit at a time.
  void begin_unit(const Tensor& input);
  void end_unit(Tensor& input, Tensor& output);

  void add_params(double p) { params_ += p; }
  // Kernels of ops whose tensors are already accounted for (a scalar divide
  // in place of its input, a view made contiguous, a tiny embedding): they
  // cost the host a launch each.
  void add_kernels(double k) { kernels_ += k; }
  void add_macs(double m) { macs_ += m; }

  // --- ops ---------------------------------------------------------------
  Tensor conv(Tensor& x, int cout, int k, int stride = 1, int pad = 0, int dilation = 1, bool bias = true);
  // Linear over the h*w positions of x (a 1x1 conv's counts). An attention
  // projection (a LoRA target in every diffusers recipe) saves its input even
  // when the base is frozen; each target adds d_in + d_out to its group's
  // width, so a rank-r adapter has r x width parameters (Hu et al. 2021).
  Tensor linear(Tensor& x, int cout, bool bias = true, Adapter adapter = Adapter::none);
  Tensor batch_norm(Tensor& x);
  Tensor norm(Tensor& x, bool affine = true);  // group_norm / layer_norm (autocast: fp32); affine: weight and bias
  Tensor& relu_(Tensor& x);            // in place
  Tensor silu(Tensor& x);
  Tensor gelu(Tensor& x);
  Tensor max_pool(Tensor& x, int k, int stride, int pad);
  Tensor dropout(Tensor& x, double p);
  Tensor add(const Tensor& a, const Tensor& b);  // out of place
  Tensor cat(const Tensor& a, const Tensor& b);
  Tensor upsample(const Tensor& x, int h, int w);  // nearest / bilinear to (h, w)
  // Scaled dot-product attention of q (heads over q.c features, q.h*q.w
  // positions) against k, v; returns the merged-heads output (a new tensor).
  Tensor attention(Tensor& q, Tensor& k, Tensor& v, int heads);

  double params() const { return params_; }
  // Sum of d_in + d_out over the linear layers of a LoRA target set.
  double adapter_width(Adapter upto) const {
    double w = adapter_width_[0];
    if (upto >= Adapter::k_out) w += adapter_width_[1];
    if (upto >= Adapter::mlp) w += adapter_width_[2];
    return w;
  }
  double macs() const { return macs_; }
  // Kernels an eager forward pass launches: one per op above (cuDNN
  // convolution, GEMM, norm, activation, add, ...), two for a fused
  // attention (SDPA and the copy merging the heads back), five for the eager
  // one (baddbmm, softmax, bmm and the head split and merge copies).
  double kernels() const { return kernels_; }
  // Input + output elements of every convolution proper (not the linears,
  // which are GEMMs over positions), per sample: what cuDNN transposes when
  // the tensors are NCHW and the convolution runs on tensor cores.
  double conv_io_elements() const { return conv_io_; }
  double saved_bytes() const { return saved_ + (pass_.checkpointing ? max_unit_ : 0); }
  double peak_bytes() const { return peak_; }

 private:
  CnnPass pass_;
  double params_ = 0, macs_ = 0, conv_io_ = 0, kernels_ = 0;
  double adapter_width_[3] = {0, 0, 0};
  double saved_ = 0;
  double unit_mark_ = 0, max_unit_ = 0;
  bool unit_input_was_saved_ = false;
  double held_ = 0, peak_ = 0;
};

}  // namespace gpuplan
