// Per-op rules of cnn_tally.h; each cites the autograd formula it follows.
#include "estimate/cnn_tally.h"

namespace gpuplan {

void Tally::save(Tensor& t) {
  if (!pass_.train || t.saved) return;
  t.saved = true;
  saved_ += bytes(t);
}

void Tally::begin_unit(const Tensor& input) {
  if (!pass_.train || !pass_.checkpointing) return;
  unit_mark_ = saved_;
  unit_input_was_saved_ = input.saved;
}

void Tally::end_unit(Tensor& input, Tensor& output) {
  if (!pass_.train || !pass_.checkpointing) return;
  // What the unit saved exists again only while its backward runs.
  max_unit_ = std::max(max_unit_, saved_ - unit_mark_);
  saved_ = unit_mark_;
  // checkpoint() keeps its input; the output is the next unit's input, not
  // saved by anything outside the unit.
  input.saved = unit_input_was_saved_;
  if (output.grad) save(input);  // nothing recorded (frozen, no grad in): nothing kept
  output.saved = false;
}

// conv2d / linear (derivatives.yaml convolution: input and weight; addmm /
// mm: the input matrix): the half copy under autocast.
Tensor Tally::conv(Tensor& x, int cout, int k, int stride, int pad, int dilation, bool bias) {
  ++kernels_;

  Tensor out = like(x, cout, conv_out(x.h, k, stride, pad, dilation), conv_out(x.w, k, stride, pad, dilation));
  params_ += double(x.c) * cout * k * k + (bias ? cout : 0);
  macs_ += double(x.c) * k * k * out.elements();
  conv_io_ += x.elements() + out.elements();
  if (records(x, true)) {
    out.grad = true;
    Tensor read = half_copy(x);
    if (read.wide == x.wide) {
      save(x);
    } else {
      save(read);
    }
  } else if (!pass_.train) {
    live(bytes(x) + bytes(out));
  }
  return out;
}

Tensor Tally::linear(Tensor& x, int cout, bool bias, Adapter adapter) {
  if (adapter != Adapter::none) adapter_width_[int(adapter) - 1] += double(x.c) + cout;
  const bool attention = adapter == Adapter::qv || adapter == Adapter::k_out;
  if (!pass_.train || !pass_.frozen) {
    const double io = conv_io_;  // a linear is a GEMM, not a cuDNN convolution
    Tensor out = conv(x, cout, 1, 1, 0, 1, bias);
    conv_io_ = io;
    return out;
  }
  ++kernels_;  // the GEMM of the frozen paths below (the path above counts it in conv)
  if (attention) {
    // A LoRA target: its adapter's weights require grad, so it records and
    // keeps its input whatever the input.
    Tensor out = like(x, cout, x.h, x.w);
    out.grad = true;
    params_ += double(x.c) * cout + (bias ? cout : 0);
    macs_ += double(x.c) * out.elements();
    Tensor read = half_copy(x);
    if (read.wide == x.wide) {
      save(x);
    } else {
      save(read);
    }
    return out;
  }
  // Frozen: the same counts without saving the input.
  Tensor out = like(x, cout, x.h, x.w);
  params_ += double(x.c) * cout + (bias ? cout : 0);
  macs_ += double(x.c) * out.elements();
  return out;
}

// native_batch_norm / cudnn_batch_norm: input (+ save_mean, save_invstd).
// batch_norm is on neither autocast list: it runs in its input's dtype.
Tensor Tally::batch_norm(Tensor& x) {
  ++kernels_;

  params_ += 2.0 * x.c;
  Tensor out = like(x, x.c, x.h, x.w, x.wide);
  if (records(x, true)) {
    out.grad = true;
    save(x);
  }
  if (!pass_.train) live(bytes(x) + bytes(out));
  return out;
}

// native_group_norm / native_layer_norm: input, mean, rstd. Both autocast to
// fp32: the saved input is the fp32 copy and the output is fp32.
Tensor Tally::norm(Tensor& x, bool affine) {
  ++kernels_;

  if (affine) params_ += 2.0 * x.c;
  Tensor out = like(x, x.c, x.h, x.w, true);
  if (records(x, true)) {
    out.grad = true;
    if (pass_.autocast && !x.wide) {
      save_bytes(x.elements() * 4);
    } else {
      save(x);
    }
  } else if (!pass_.train) {
    live(bytes(x) + bytes(out));
  }
  return out;
}

// relu_: threshold_backward(grad, result, 0): the output, which is x itself.
Tensor& Tally::relu_(Tensor& x) {
  ++kernels_;

  if (records(x, false)) save(x);
  return x;
}

// silu / gelu: the input (silu_backward(grad, self), gelu_backward(grad, self)).
Tensor Tally::silu(Tensor& x) {
  ++kernels_;

  if (records(x, false)) save(x);
  Tensor out = like(x, x.c, x.h, x.w, x.wide);
  if (!pass_.train) live(bytes(x) + bytes(out));
  return out;
}
Tensor Tally::gelu(Tensor& x) { return silu(x); }

// max_pool2d_with_indices: self and the int64 indices of the maxima.
Tensor Tally::max_pool(Tensor& x, int k, int stride, int pad) {
  ++kernels_;

  Tensor out = like(x, x.c, conv_out(x.h, k, stride, pad), conv_out(x.w, k, stride, pad), x.wide);
  if (records(x, false)) {
    save(x);
    save_bytes(out.elements() * 8);
  }
  if (!pass_.train) live(bytes(x) + bytes(out));
  return out;
}

// native_dropout: the bool mask (1 byte per element); nothing when p = 0.
Tensor Tally::dropout(Tensor& x, double p) {
  if (p <= 0 || !pass_.train) return x;  // eval: identity
  ++kernels_;
  if (records(x, false)) save_bytes(x.elements());
  return like(x, x.c, x.h, x.w, x.wide);
}

Tensor Tally::add(const Tensor& a, const Tensor& b) {
  ++kernels_;

  Tensor out = like(a, a.c, a.h, a.w, a.wide || b.wide);
  out.grad = a.grad || b.grad;
  if (!pass_.train) live(bytes(a) + bytes(b) + bytes(out));
  return out;
}

Tensor Tally::cat(const Tensor& a, const Tensor& b) {
  ++kernels_;

  Tensor out = like(a, a.c + b.c, a.h, a.w, a.wide || b.wide);
  out.grad = a.grad || b.grad;
  if (!pass_.train) live(bytes(a) + bytes(b) + bytes(out));
  return out;
}

Tensor Tally::upsample(const Tensor& x, int h, int w) {
  ++kernels_;

  Tensor out = like(x, x.c, h, w, x.wide);
  if (!pass_.train) live(bytes(x) + bytes(out));
  return out;
}

// SDPA with a fused kernel (_scaled_dot_product_flash_attention /
// _efficient_attention): q, k, v, output, logsumexp (heads x positions, fp32).
// Eager attention (diffusers AttnProcessor): head-split copies of q, k, v for
// baddbmm / bmm, the softmax output (fp32 under autocast) and the half copy
// bmm reads; merging the heads back copies the output once more.
Tensor Tally::attention(Tensor& q, Tensor& k, Tensor& v, int heads) {
  kernels_ += pass_.flash_attention ? 2 : 5;

  const double nq = double(q.h) * q.w, nk = double(k.h) * k.w;
  const double scores = heads * nq * nk;
  macs_ += 2.0 * q.c * nq * nk;  // q k^T and p v
  Tensor out = like(q, q.c, q.h, q.w);
  out.grad = q.grad || k.grad || v.grad;
  const double half = pass_.compute_bytes;
  if (pass_.train && out.grad) {
    if (pass_.flash_attention) {
      save(q);
      save(k);
      save(v);
      save(out);
      save_bytes(heads * nq * 4);
    } else {
      save_bytes(bytes(q) + bytes(k) + bytes(v));
      save_bytes(scores * (pass_.autocast ? 4 + half : half));
    }
  } else if (!pass_.train) {
    double s = pass_.flash_attention ? 0 : 2 * scores * half;  // baddbmm output and softmax output
    live(bytes(q) + bytes(k) + bytes(v) + s + bytes(out));
  }
  return out;
}

}  // namespace gpuplan
