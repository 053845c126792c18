// Dispatch of the per-family expansions (cnn_architecture.h).
#include "estimate/cnn_architecture.h"

namespace gpuplan {

CnnFootprint expand_cnn(const CnnArchitecture& a, int image_size, const CnnPass& pass) {
  CnnFootprint f;
  Tally t(pass);
  switch (a.family) {
    case CnnFamily::resnet: expand_resnet(a, image_size, t); break;
    case CnnFamily::deeplabv3: expand_deeplabv3(a, image_size, t); break;
    case CnnFamily::yolov8: expand_yolov8(a, image_size, t); break;
    case CnnFamily::sd_unet: expand_sd_unet(a, image_size, t); break;
    case CnnFamily::flux: expand_flux(a, image_size, t); break;
    case CnnFamily::none: return f;
  }
  f.params = t.params();
  f.macs = t.macs();
  f.saved_bytes = t.saved_bytes();
  f.peak_bytes = t.peak_bytes();
  f.conv_io_elements = t.conv_io_elements();
  f.kernels = t.kernels();
  f.lora_width_qv = t.adapter_width(Adapter::qv);
  f.lora_width_attention = t.adapter_width(Adapter::k_out);
  f.lora_width_all_linear = t.adapter_width(Adapter::mlp);
  if ((a.family == CnnFamily::sd_unet || a.family == CnnFamily::flux) && !a.vae_channels.empty()) {
    // The VAE runs under no_grad in the half weight dtype (fp32 only when
    // the whole run is fp32), its attention as the UNet's.
    CnnPass frozen;
    frozen.train = false;
    frozen.compute_bytes = pass.compute_bytes;
    frozen.flash_attention = pass.flash_attention;
    Tally enc(frozen), dec(frozen);
    expand_vae_encoder(a, image_size, enc);
    expand_vae_decoder(a, vae_latent_size(a, image_size), dec);
    f.encode_peak_bytes = enc.peak_bytes();
    f.decode_peak_bytes = dec.peak_bytes();
    f.vae_params = enc.params() + dec.params();
    f.encode_macs = enc.macs();
    f.decode_macs = dec.macs();
    f.decode_kernels = dec.kernels();
  }
  return f;
}

}  // namespace gpuplan
