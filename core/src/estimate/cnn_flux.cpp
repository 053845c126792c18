// FLUX.1's transformer as diffusers builds it (src/diffusers/models/
// transformers/transformer_flux.py, FluxTransformer2DModel; embeddings.py
// CombinedTimestepGuidanceTextProjEmbeddings; normalization.py AdaLayerNormZero,
// AdaLayerNormZeroSingle, AdaLayerNormContinuous; attention_processor.py
// FluxAttnProcessor2_0). An MMDiT (Esser et al. 2024): the 16-channel latent
// is packed into 2 x 2 patches (64 features, one token per patch), T5's 512
// hidden states are the text tokens; double-stream blocks keep separate
// weights for text and image and attend jointly, single-stream blocks run one
// set of weights over the concatenated sequence. Counts and saved tensors per
// sample, as cnn_tally.h defines them; derivation in docs/memory-model.md.
#include "estimate/cnn_architecture.h"

namespace gpuplan {
namespace {

struct Flux {
  const CnnArchitecture& a;
  Tally& t;
  Tensor temb;  // silu(temb): what every modulation linear reads
  int dim = 0;

  // linear(silu(temb)) -> chunks x dim (shift, scale, gate, ...), then a
  // LayerNorm without affine and x * (1 + scale) + shift. The product saves
  // the normalised tensor when the modulation requires grad (full training).
  Tensor modulated_norm(Tensor& x, int chunks) {
    Tensor mod = t.linear(temb, chunks * dim);
    Tensor n = t.norm(x, false);
    if (mod.grad && t.pass().train) t.save(n);
    Tensor out = t.like(n, dim, n.h, n.w, n.wide);
    out.grad = n.grad || mod.grad;
    return out;
  }

  // Per-head RMSNorm on q or k (a weight of head_dim): diffusers RMSNorm
  // upcasts to fp32 for the variance (pow saves the fp32 copy), multiplies
  // (saves the input) and scales by the weight (saves the normalised tensor).
  Tensor rms(Tensor& x) {
    t.add_params(a.head_channels);
    Tensor out = t.like(x, x.c, x.h, x.w);
    if (t.records(x, true)) {
      out.grad = true;
      t.save_bytes(x.elements() * 4);
      t.save(x);
      t.save(out);
    } else if (!t.pass().train) {
      t.live(t.bytes(x) * 3);
    }
    return out;
  }

  // The two streams' projections, concatenated into one sequence (torch.cat:
  // nothing saved), rotary embedding (multiplies by constant cos / sin: the
  // product saves nothing that requires grad), scaled dot-product attention.
  Tensor joint(Tensor& q1, Tensor& k1, Tensor& v1, const Tensor* q2, const Tensor* k2, const Tensor* v2) {
    const int n = q1.h * q1.w + (q2 ? q2->h * q2->w : 0);
    auto joined = [&](const Tensor& x1, const Tensor* x2) {
      Tensor j = t.like(x1, dim, n, 1);
      j.grad = x1.grad || (x2 && x2->grad);
      return j;
    };
    Tensor q = joined(q1, q2), k = joined(k1, k2), v = joined(v1, v2);
    return t.attention(q, k, v, a.num_heads);
  }

  // A view of part of the attention output (split back into text and image):
  // it keeps the whole output alive, which attention already saved.
  Tensor part(const Tensor& of, int h, int w) {
    Tensor p = t.like(of, dim, h, w);
    p.saved = of.saved || (t.pass().train && t.pass().flash_attention);
    return p;
  }

  // FeedForward(dim, activation "gelu-approximate"): Linear(dim, 4 dim),
  // tanh-GELU (saves its input), Linear(4 dim, dim).
  Tensor feed_forward(Tensor& x, Adapter adapter) {
    Tensor h = t.linear(x, 4 * dim, true, adapter);
    Tensor g = t.gelu(h);
    return t.linear(g, dim, true, adapter);
  }

  // Gate (chunk of the modulation) times the branch: saves the branch for the
  // gate's gradient when the gate requires grad; then the residual add.
  Tensor gated_residual(Tensor& x, Tensor& branch) {
    if (t.pass().train && temb.grad) t.save(branch);
    return t.add(x, branch);
  }

  // FluxTransformerBlock: AdaLayerNormZero on each stream, joint attention
  // (to_q/k/v and to_out.0 on the image, add_q/k/v_proj and to_add_out on
  // the text), gated residuals, LayerNorm + modulation + feed-forward per stream.
  void double_block(Tensor& img, Tensor& txt) {
    Tensor img_in = img, txt_in = txt;
    t.begin_unit(img_in);
    t.hold(img);
    t.hold(txt);
    Tensor ni = modulated_norm(img, 6), nt = modulated_norm(txt, 6);
    // LoRA (diffusers train_dreambooth_lora_flux.py default lora_layers):
    // attn.to_q, to_k, to_v, to_out.0 of the image stream.
    Tensor qi = t.linear(ni, dim, true, Adapter::qv), ki = t.linear(ni, dim, true, Adapter::k_out),
           vi = t.linear(ni, dim, true, Adapter::qv);
    Tensor qt = t.linear(nt, dim, true), kt = t.linear(nt, dim, true), vt = t.linear(nt, dim, true);
    Tensor rqi = rms(qi), rki = rms(ki), rqt = rms(qt), rkt = rms(kt);
    Tensor o = joint(rqt, rkt, vt, &rqi, &rki, &vi);
    Tensor oi = part(o, img.h, img.w), ot = part(o, txt.h, txt.w);
    Tensor ai = t.linear(oi, dim, true, Adapter::k_out), at = t.linear(ot, dim, true);
    Tensor img1 = gated_residual(img, ai), txt1 = gated_residual(txt, at);
    t.release(img);
    t.release(txt);
    t.hold(img1);
    t.hold(txt1);
    Tensor mi = modulated_norm(img1, 0), mt = modulated_norm(txt1, 0);
    Tensor fi = feed_forward(mi, Adapter::mlp), ft = feed_forward(mt, Adapter::none);
    img = gated_residual(img1, fi);
    txt = gated_residual(txt1, ft);
    t.release(img1);
    t.release(txt1);
    // Checkpointed, the block keeps both of its inputs.
    t.end_unit(img_in, img);
    if (t.pass().train && t.pass().checkpointing && img.grad) t.save(txt_in);
  }

  // FluxSingleTransformerBlock over the concatenated sequence:
  // AdaLayerNormZeroSingle, proj_mlp + tanh-GELU beside to_q/k/v (no output
  // projection), the two concatenated into proj_out, gated residual.
  void single_block(Tensor& x) {
    Tensor in = x;
    t.begin_unit(in);
    t.hold(x);
    Tensor n = modulated_norm(x, 3);
    Tensor mlp = t.linear(n, 4 * dim, true, Adapter::mlp);
    Tensor g = t.gelu(mlp);
    Tensor q = t.linear(n, dim, true, Adapter::qv), k = t.linear(n, dim, true, Adapter::k_out),
           v = t.linear(n, dim, true, Adapter::qv);
    Tensor rq = rms(q), rk = rms(k);
    Tensor o = t.attention(rq, rk, v, a.num_heads);
    Tensor cat = t.cat(o, g);
    Tensor out = t.linear(cat, dim, true, Adapter::mlp);
    t.release(x);
    x = gated_residual(x, out);
    t.end_unit(in, x);
  }
};

}  // namespace

void expand_flux(const CnnArchitecture& a, int image_size, Tally& t) {
  const int dim = a.num_heads * a.head_channels;
  // Timestep, guidance (FLUX.1-dev) and pooled CLIP text: each through
  // Linear + SiLU + Linear into dim, summed (parameters only; one vector per sample).
  auto embedder = [&](int in) { t.add_params(double(in) * dim + dim + double(dim) * dim + dim); };
  embedder(256);
  if (a.guidance_embeds) embedder(256);
  embedder(a.pooled_dim);
  Flux f{a, t, t.make(dim, 1, 1), dim};
  f.temb.grad = t.pass().train && !t.pass().frozen;
  // 2 x 2 patches of the latent: (latent / 2)^2 tokens of 4 x latent_channels.
  const int side = std::max(1, vae_latent_size(a, image_size) / 2);
  Tensor packed = t.make(4 * a.latent_channels, side, side);
  Tensor img = t.linear(packed, dim);  // x_embedder
  Tensor context = t.make(a.context_dim, a.context_tokens, 1);  // T5's states (frozen)
  Tensor txt = t.linear(context, dim);  // context_embedder
  for (int i = 0; i < a.double_blocks; ++i) f.double_block(img, txt);
  Tensor joint = t.like(img, dim, img.h * img.w + txt.h, 1);
  joint.grad = img.grad || txt.grad;
  for (int i = 0; i < a.single_blocks; ++i) f.single_block(joint);
  // AdaLayerNormContinuous (2 chunks) on the image tokens, then proj_out.
  Tensor image_tokens = t.like(joint, dim, side, side);
  Tensor n = f.modulated_norm(image_tokens, 2);
  Tensor out = t.linear(n, 4 * a.latent_channels);
  // The flow-matching loss on fp32 copies of prediction and target.
  if (out.grad) t.save_bytes(2 * out.elements() * 4);
}

}  // namespace gpuplan
