// Stable Diffusion's UNet and VAE as diffusers builds them
// (src/diffusers/models/unets/unet_2d_condition.py, unet_2d_blocks.py,
// resnet.py, transformers/transformer_2d.py, attention.py,
// autoencoders/autoencoder_kl.py + vae.py): ResnetBlock2D (GroupNorm, SiLU,
// 3x3 conv, time embedding, GroupNorm, SiLU, 3x3 conv, 1x1 shortcut when the
// width changes), Transformer2DModel (GroupNorm, proj_in, BasicTransformerBlock
// x depth: LayerNorm + self-attention, LayerNorm + cross-attention on the text
// encoder's states, LayerNorm + GEGLU feed-forward of 4x width; proj_out,
// residual), stride-2 conv downsampling, nearest x2 + conv upsampling, skip
// connections concatenated in the up path.
#include "estimate/cnn_architecture.h"

namespace gpuplan {
namespace {

struct Unet {
  const CnnArchitecture& a;
  Tally& t;
  Tensor temb;     // silu(time embedding), 4 x model_channels
  Tensor context;  // the text encoder's hidden states (frozen, half)

  int heads(int channels) const { return a.head_channels > 0 ? channels / a.head_channels : a.num_heads; }

  Tensor resblock(Tensor& x, int cout, bool time) {
    t.begin_unit(x);
    Tensor n1 = t.norm(x);
    t.hold(x);
    Tensor s1 = t.silu(n1);
    Tensor h = t.conv(s1, cout, 3, 1, 1);
    if (time) {
      // temb = nonlinearity(temb); time_emb_proj(temb)[:, :, None, None];
      // h + temb: the SiLU and the broadcast add are kernels of their own.
      t.add_kernels(2);
      t.linear(temb, cout);  // time_emb_proj, broadcast-added: h + temb[:, :, None, None]
      Tensor sum = t.like(h, h.c, h.h, h.w);
      sum.grad = h.grad || temb.grad;
      if (!t.pass().train) t.live(t.bytes(h) + t.bytes(sum));
      h = sum;
    }
    Tensor n2 = t.norm(h);
    Tensor s2 = t.silu(n2);
    Tensor h2 = t.conv(s2, cout, 3, 1, 1);  // dropout 0.0 in every SD config: no mask
    t.release(x);
    // (input + hidden) / output_scale_factor: the divide runs even at 1.0.
    t.add_kernels(1);
    Tensor out;
    if (x.c != cout) {
      t.hold(h2);
      Tensor sc = t.conv(x, cout, 1);
      t.release(h2);
      out = t.add(sc, h2);
    } else {
      out = t.add(x, h2);
    }
    t.end_unit(x, out);
    return out;
  }

  // Attention with diffusers' Attention module: to_q/k/v (no bias in the UNet,
  // with bias in the VAE), scaled dot-product attention, to_out (bias).
  Tensor attend(Tensor& xq, Tensor& xkv, int channels, int nheads, bool qkv_bias) {
    // LoRA on a diffusion UNet adapts exactly these four (diffusers
    // train_text_to_image_lora.py: target_modules to_k, to_q, to_v, to_out.0).
    Tensor q = t.linear(xq, channels, qkv_bias, Adapter::qv);
    Tensor k = t.linear(xkv, channels, qkv_bias, Adapter::k_out);
    Tensor v = t.linear(xkv, channels, qkv_bias, Adapter::qv);
    Tensor o = t.attention(q, k, v, nheads);
    Tensor merged = t.like(o, channels, xq.h, xq.w);  // transpose(1, 2).reshape: a copy
    // AttnProcessor2_0: hidden_states / attn.rescale_output_factor (1.0).
    t.add_kernels(1);
    return t.linear(merged, channels, true, Adapter::k_out);
  }

  Tensor basic_block(Tensor& x) {
    const int c = x.c;
    t.begin_unit(x);
    t.hold(x);
    Tensor n1 = t.norm(x);
    Tensor a1 = attend(n1, n1, c, heads(c), false);
    Tensor x1 = t.add(a1, x);
    t.release(x);
    t.hold(x1);
    Tensor n2 = t.norm(x1);
    Tensor a2 = attend(n2, context, c, heads(c), false);
    Tensor x2 = t.add(a2, x1);
    t.release(x1);
    t.hold(x2);
    Tensor n3 = t.norm(x2);
    // GEGLU: proj to 2 x 4c, chunk, hidden * gelu(gate). gelu and mul keep the
    // chunks (views of the projection) and gelu's output; the last linear its input.
    Tensor p = t.linear(n3, 8 * c, true, Adapter::mlp);
    t.add_kernels(2);  // GEGLU: hidden * gelu(gate), a GELU and a multiply
    Tensor g = t.like(p, 4 * c, x.h, x.w);
    Tensor m = t.like(p, 4 * c, x.h, x.w);
    if (p.grad) {
      t.save(p);
      t.save(g);
    }
    if (!t.pass().train) {
      t.live(t.bytes(p) + t.bytes(g));
      t.live(t.bytes(p) + t.bytes(g) + t.bytes(m));
    }
    Tensor f = t.linear(m, c, true, Adapter::mlp);
    Tensor out = t.add(f, x2);
    t.release(x2);
    t.end_unit(x, out);
    return out;
  }

  // Transformer2DModel: GroupNorm, proj_in, blocks, proj_out, residual. The
  // (b, c, h, w) <-> (b, h*w, c) permutes copy; with a 1x1-conv projection
  // (SD 1.x) the conv reads the normalised map, with a linear one (SDXL) the
  // permuted copy.
  Tensor transformer(Tensor& x, int depth) {
    t.hold(x);
    // The permute + reshape into tokens and the reshape + permute +
    // contiguous back: a copy kernel each way.
    t.add_kernels(2);
    Tensor n = t.norm(x);
    Tensor tokens;
    if (a.linear_projection) {
      Tensor permuted = t.like(n, n.c, n.h, n.w, n.wide);
      tokens = t.linear(permuted, x.c);
    } else {
      Tensor projected = t.conv(n, x.c, 1);
      tokens = t.like(projected, x.c, x.h, x.w);
    }
    for (int i = 0; i < depth; ++i) tokens = basic_block(tokens);
    Tensor back;
    if (a.linear_projection) {
      Tensor projected = t.linear(tokens, x.c);
      back = t.like(projected, x.c, x.h, x.w);
    } else {
      Tensor permuted = t.like(tokens, x.c, x.h, x.w);
      back = t.conv(permuted, x.c, 1);
    }
    t.release(x);
    return t.add(back, x);
  }

  // The VAE's mid-block attention: GroupNorm, single-head attention with
  // biased projections over all positions, residual.
  Tensor vae_attention(Tensor& x) {
    t.hold(x);
    Tensor n = t.norm(x);
    Tensor tokens = t.like(n, n.c, n.h, n.w, n.wide);
    Tensor o = attend(tokens, tokens, x.c, 1, true);
    t.release(x);
    return t.add(o, x);
  }

  Tensor vae_mid(Tensor& x) {
    Tensor r1 = resblock(x, x.c, false);
    Tensor at = vae_attention(r1);
    return resblock(at, x.c, false);
  }

  Tensor conv_out(Tensor& x, int cout) {
    Tensor n = t.norm(x);
    Tensor s = t.silu(n);
    return t.conv(s, cout, 3, 1, 1);
  }
};

// The down path's outputs, held until the up path concatenates them.
struct Skips {
  std::vector<Tensor> items;
  void push(Tally& t, const Tensor& x) {
    items.push_back(x);
    t.hold(x);
  }
  Tensor pop(Tally& t) {
    Tensor x = items.back();
    items.pop_back();
    t.release(x);
    return x;
  }
};

}  // namespace

int vae_latent_size(const CnnArchitecture& a, int image_size) {
  int side = image_size;
  // Downsample2D(padding=0): F.pad (0, 1, 0, 1) then a 3x3 stride-2 conv.
  for (size_t i = 0; i + 1 < a.vae_channels.size(); ++i) side = conv_out(side + 1, 3, 2, 0);
  return side;
}

void expand_sd_unet(const CnnArchitecture& a, int image_size, Tally& t) {
  const int c0 = a.model_channels;
  const int temb_channels = 4 * c0;
  // The time embedding is trained with the UNet (frozen under LoRA); the
  // text encoder's states are frozen.
  Unet u{a, t, t.make(temb_channels, 1, 1), t.make(a.context_dim, a.context_tokens, 1)};
  u.temb.grad = t.pass().train && !t.pass().frozen;
  // Time embedding (TimestepEmbedding: linear, SiLU, linear) and SDXL's
  // additional text-time embedding of adm_in_channels: parameters only.
  t.add_params(double(c0) * temb_channels + temb_channels + double(temb_channels) * temb_channels + temb_channels);
  // Their kernels, every call (UNet2DConditionModel.forward): the sinusoidal
  // get_timestep_embedding (arange, scale, divide, exp, the cast and product
  // with the timesteps, scale, sin, cos, cat, the flip's cat: 11), the cast
  // to the sample's dtype, linear, SiLU, linear.
  t.add_kernels(15);
  if (a.adm_in_channels > 0) {
    // SDXL's add_time_proj of the six time ids (the same 11), the flatten
    // and concatenation with the pooled text embedding, linear, SiLU,
    // linear, and emb + aug_emb.
    t.add_kernels(17);
  }
  if (a.adm_in_channels > 0)
    t.add_params(double(a.adm_in_channels) * temb_channels + temb_channels + double(temb_channels) * temb_channels +
                 temb_channels);
  const int side = vae_latent_size(a, image_size);
  Tensor latent = t.make(a.latent_channels, side, side, true);  // fp32 noisy latents
  Tensor x = t.conv(latent, c0, 3, 1, 1);
  Skips skips;
  skips.items.reserve(a.channel_mult.size() * (a.num_res_blocks + 1) + 1);
  skips.push(t, x);
  const size_t levels = a.channel_mult.size();
  for (size_t i = 0; i < levels; ++i) {
    const int c = c0 * a.channel_mult[i];
    for (int j = 0; j < a.num_res_blocks; ++j) {
      x = u.resblock(x, c, true);
      if (a.transformer_depth[i] > 0) x = u.transformer(x, a.transformer_depth[i]);
      skips.push(t, x);
    }
    if (i + 1 < levels) {
      x = t.conv(x, c, 3, 2, 1);
      skips.push(t, x);
    }
  }
  const int cm = x.c;
  x = u.resblock(x, cm, true);
  if (a.mid_transformer_depth > 0) x = u.transformer(x, a.mid_transformer_depth);
  x = u.resblock(x, cm, true);
  for (size_t r = 0; r < levels; ++r) {
    const size_t i = levels - 1 - r;
    const int c = c0 * a.channel_mult[i];
    for (int j = 0; j <= a.num_res_blocks; ++j) {
      Tensor skip = skips.pop(t);
      Tensor cat = t.cat(x, skip);
      x = u.resblock(cat, c, true);
      if (a.transformer_depth[i] > 0) x = u.transformer(x, a.transformer_depth[i]);
    }
    if (i > 0) {
      // Upsample2D: nearest to the next skip's size (forward_upsample_size
      // for sides that are not multiples of 2^levels), then a 3x3 conv.
      const Tensor& next = skips.items.back();
      Tensor up = t.upsample(x, next.h, next.w);
      x = t.conv(up, c, 3, 1, 1);
    }
  }
  Tensor out = u.conv_out(x, a.latent_channels);
  // F.mse_loss(pred.float(), target.float()): both fp32 operands are saved.
  if (out.grad) t.save_bytes(2 * out.elements() * 4);
}

// AutoencoderKL encoder: conv_in, DownEncoderBlock2D per level (resnets
// without time embedding, Downsample2D but on the last), mid block, GroupNorm,
// SiLU, conv_out to 2 x latent channels (mean and log-variance), quant_conv.
void expand_vae_encoder(const CnnArchitecture& a, int image_size, Tally& t) {
  Unet u{a, t, {}, {}};
  Tensor img = t.make(3, image_size, image_size);
  Tensor x = t.conv(img, a.vae_channels[0], 3, 1, 1);
  for (size_t i = 0; i < a.vae_channels.size(); ++i) {
    for (int j = 0; j < a.vae_layers_per_block; ++j) x = u.resblock(x, a.vae_channels[i], false);
    if (i + 1 < a.vae_channels.size()) {
      Tensor padded = t.like(x, x.c, x.h + 1, x.w + 1);
      if (!t.pass().train) t.live(t.bytes(x) + t.bytes(padded));
      x = t.conv(padded, x.c, 3, 2, 0);
    }
  }
  x = u.vae_mid(x);
  Tensor moments = u.conv_out(x, 2 * a.latent_channels);
  if (a.vae_quant_conv) t.conv(moments, 2 * a.latent_channels, 1);
}

// AutoencoderKL decoder: post_quant_conv, conv_in, mid block, UpDecoderBlock2D
// per level in reverse (layers_per_block + 1 resnets, Upsample2D but on the
// last), GroupNorm, SiLU, conv_out to RGB.
void expand_vae_decoder(const CnnArchitecture& a, int latent_size, Tally& t) {
  Unet u{a, t, {}, {}};
  Tensor z = t.make(a.latent_channels, latent_size, latent_size);
  Tensor zq = a.vae_quant_conv ? t.conv(z, a.latent_channels, 1) : z;
  const int top = a.vae_channels.back();
  Tensor x = t.conv(zq, top, 3, 1, 1);
  x = u.vae_mid(x);
  const size_t levels = a.vae_channels.size();
  for (size_t r = 0; r < levels; ++r) {
    const int c = a.vae_channels[levels - 1 - r];
    for (int j = 0; j <= a.vae_layers_per_block; ++j) x = u.resblock(x, c, false);
    if (r + 1 < levels) {
      Tensor up = t.upsample(x, 2 * x.h, 2 * x.w);
      x = t.conv(up, c, 3, 1, 1);
    }
  }
  u.conv_out(x, 3);
}

}  // namespace gpuplan
