// Field reference: docs/catalog.md, "Convolutional architectures".
#include "read/cnn_architecture_json.h"

#include <string>

#include "text/field_words.h"
#include "text/messages.h"

namespace gpuplan {
namespace {

// Where the architecture comes from decides how a bad field is reported. The
// caller returns after invalid(), and the architecture's reader checks
// read_failed() before acting on what it read (json_reader.h).
struct Context {
  ArchitectureSource source;
  Locale locale;

  void invalid(const std::string& path, const std::string& what) const {
    if (source == ArchitectureSource::request)
      fail(locale, "inconsistent", path, message(locale, "inconsistent", {field_words(locale, path), message(locale, "why.architecture", {what})}));
    else
      fail(Locale::en, "invalid_catalog", path, path + ": " + what);
  }
};

// 0 when missing: the error.
int required_int(const Context& c, const Reader& r, std::string_view key, int min, int max) {
  auto v = r.integer(key, min, max);
  if (!v) {
    c.invalid(r.child_path(key), "required integer is missing");
    return 0;
  }
  return *v;
}

double required_number(const Context& c, const Reader& r, std::string_view key, double min, double max) {
  auto v = r.number(key, min, max);
  if (!v) {
    c.invalid(r.child_path(key), "required number is missing");
    return 0;
  }
  return *v;
}

// An array of integers (booleans read as 0/1) within [min, max].
std::vector<int> int_list(const Context& c, const Reader& r, std::string_view key, int min, int max, size_t max_len,
                          bool required) {
  std::vector<int> out;
  const auto* list = r.array(key);
  if (!list) {
    if (required) c.invalid(r.child_path(key), "a list of integers is required");
    return out;
  }
  if (list->empty() || list->size() > max_len) {
    c.invalid(r.child_path(key), "between 1 and " + std::to_string(max_len) + " entries are required");
    return out;
  }
  for (size_t i = 0; i < list->size(); ++i) {
    const auto& v = (*list)[i];
    std::string path = r.child_path(key) + "[" + std::to_string(i) + "]";
    long long n = 0;
    if (v.is_boolean()) {
      n = v.get<bool>() ? 1 : 0;
    } else if (v.is_number_integer() || v.is_number_unsigned()) {
      n = v.get<long long>();
    } else {
      c.invalid(path, "an integer is required");
      return {};
    }
    if (n < min || n > max) {
      c.invalid(path, "must be between " + std::to_string(min) + " and " + std::to_string(max));
      return {};
    }
    out.push_back(int(n));
  }
  return out;
}

// Each family's names, in the order read below (docs/memory-model.md).
constexpr std::string_view kResnetFields[] = {
    "family", "stage_blocks", "width_per_group", "block", "replace_stride_with_dilation", "num_classes"};
constexpr std::string_view kDeeplabFields[] = {
    "family", "stage_blocks", "width_per_group", "block", "replace_stride_with_dilation", "num_classes",
    "atrous_rates", "aspp_channels", "aux_classifier"};
constexpr std::string_view kYoloFields[] = {"family", "depth_multiple", "width_multiple", "max_channels", "num_classes", "reg_max"};
constexpr std::string_view kUnetFields[] = {
    "family", "latent_channels", "model_channels", "channel_mult", "num_res_blocks", "transformer_depth",
    "mid_transformer_depth", "num_heads", "head_channels", "context_dim", "context_tokens", "adm_in_channels",
    "linear_projection", "vae"};
constexpr std::string_view kVaeFields[] = {"block_out_channels", "layers_per_block", "quant_conv"};
constexpr std::string_view kFluxFields[] = {
    "family", "latent_channels", "num_attention_heads", "attention_head_dim", "num_layers", "num_single_layers",
    "joint_attention_dim", "max_sequence_length", "pooled_projection_dim", "guidance_embeds", "vae"};
constexpr std::string_view kAnyFamilyFields[] = {
    "family", "stage_blocks", "width_per_group", "block", "replace_stride_with_dilation", "num_classes",
    "atrous_rates", "aspp_channels", "aux_classifier", "depth_multiple", "width_multiple", "max_channels", "reg_max",
    "latent_channels", "model_channels", "channel_mult", "num_res_blocks", "transformer_depth",
    "mid_transformer_depth", "num_heads", "head_channels", "context_dim", "context_tokens", "adm_in_channels",
    "linear_projection", "vae", "num_attention_heads", "attention_head_dim", "num_layers", "num_single_layers",
    "joint_attention_dim", "max_sequence_length", "pooled_projection_dim", "guidance_embeds"};

void read_resnet(const Context& c, const Reader& r, CnnArchitecture& a) {
  a.stage_blocks = int_list(c, r, "stage_blocks", 1, 100, 8, true);
  a.base_width = r.integer("width_per_group", 8, 1024).value_or(64);
  if (auto b = r.choice("block", {"bottleneck", "basic"})) a.expansion = *b == 0 ? 4 : 1;
  a.replace_stride_with_dilation = int_list(c, r, "replace_stride_with_dilation", 0, 1, 7, false);
  if (!a.replace_stride_with_dilation.empty() && a.replace_stride_with_dilation.size() + 1 != a.stage_blocks.size())
    return c.invalid(r.child_path("replace_stride_with_dilation"), "one entry per stage after the first is required");
  if (a.expansion == 1)
    for (int d : a.replace_stride_with_dilation)
      if (d) return c.invalid(r.child_path("replace_stride_with_dilation"), "basic blocks do not support dilation (torchvision)");
}

// The AutoencoderKL that maps images to latents (SD, SDXL, FLUX).
void read_vae(const Context& c, const Reader& r, CnnArchitecture& a) {
  auto vae = r.object("vae", kVaeFields);
  if (!vae) return c.invalid(r.child_path("vae"), "the VAE's block_out_channels are required (image size = latent x 2^(levels-1))");
  a.vae_channels = int_list(c, *vae, "block_out_channels", 1, 4096, 8, true);
  a.vae_layers_per_block = vae->integer("layers_per_block", 1, 16).value_or(2);
  a.vae_quant_conv = vae->boolean("quant_conv").value_or(true);
}

void read_sd_unet(const Context& c, const Reader& r, CnnArchitecture& a) {
  a.latent_channels = r.integer("latent_channels", 1, 64).value_or(4);
  a.model_channels = required_int(c, r, "model_channels", 8, 4096);
  a.channel_mult = int_list(c, r, "channel_mult", 1, 16, 8, true);
  a.num_res_blocks = required_int(c, r, "num_res_blocks", 1, 16);
  a.transformer_depth = int_list(c, r, "transformer_depth", 0, 64, 8, true);
  if (a.transformer_depth.size() != a.channel_mult.size())
    return c.invalid(r.child_path("transformer_depth"), "one entry per level of channel_mult is required");
  a.mid_transformer_depth = required_int(c, r, "mid_transformer_depth", 0, 64);
  a.num_heads = r.integer("num_heads", 1, 256).value_or(0);
  a.head_channels = r.integer("head_channels", 1, 4096).value_or(0);
  // Checked before the division below, which a failed read of either would make by 0.
  if ((a.num_heads > 0) == (a.head_channels > 0))
    return c.invalid(r.child_path("num_heads"), "exactly one of num_heads and head_channels is required");
  for (size_t i = 0; i < a.channel_mult.size(); ++i) {
    const int channels = a.model_channels * a.channel_mult[i];
    const int by = a.num_heads > 0 ? a.num_heads : a.head_channels;
    if (channels % by != 0)
      return c.invalid(r.child_path("channel_mult") + "[" + std::to_string(i) + "]", "channels not divisible into heads");
  }
  a.context_dim = required_int(c, r, "context_dim", 1, 16384);
  a.context_tokens = r.integer("context_tokens", 1, 4096).value_or(77);
  a.adm_in_channels = r.integer("adm_in_channels", 0, 65536).value_or(0);
  a.linear_projection = r.boolean("linear_projection").value_or(false);
  read_vae(c, r, a);
}

// FLUX.1 (diffusers transformer/config.json names in docs/memory-model.md).
void read_flux(const Context& c, const Reader& r, CnnArchitecture& a) {
  a.latent_channels = required_int(c, r, "latent_channels", 1, 64);
  a.num_heads = required_int(c, r, "num_attention_heads", 1, 256);
  a.head_channels = required_int(c, r, "attention_head_dim", 8, 1024);
  a.double_blocks = required_int(c, r, "num_layers", 0, 256);
  a.single_blocks = required_int(c, r, "num_single_layers", 0, 256);
  a.context_dim = required_int(c, r, "joint_attention_dim", 1, 16384);
  a.context_tokens = r.integer("max_sequence_length", 1, 4096).value_or(512);
  a.pooled_dim = r.integer("pooled_projection_dim", 1, 16384).value_or(768);
  a.guidance_embeds = r.boolean("guidance_embeds").value_or(false);
  read_vae(c, r, a);
}

}  // namespace

FieldNames cnn_architecture_fields(const nlohmann::json& parent) {
  auto a = parent.find("architecture");
  if (a == parent.end() || !a->is_object()) return kAnyFamilyFields;
  auto f = a->find("family");
  if (f == a->end() || !f->is_string()) return kAnyFamilyFields;
  const std::string& family = f->get_ref<const std::string&>();
  if (family == "resnet") return kResnetFields;
  if (family == "deeplabv3") return kDeeplabFields;
  if (family == "yolov8") return kYoloFields;
  if (family == "sd-unet") return kUnetFields;
  if (family == "flux") return kFluxFields;
  return kAnyFamilyFields;
}

CnnArchitecture read_cnn_architecture(const Reader& r, ArchitectureSource source) {
  const Context c{source, r.locale()};
  CnnArchitecture a;
  auto family = r.choice("family", {"resnet", "deeplabv3", "yolov8", "sd-unet", "flux"});
  if (!family) {
    c.invalid(r.child_path("family"), "family is required (resnet, deeplabv3, yolov8, sd-unet, flux)");
    return a;
  }
  switch (*family) {
    case 0:
      a.family = CnnFamily::resnet;
      read_resnet(c, r, a);
      a.num_classes = r.integer("num_classes", 1, 1 << 20).value_or(1000);
      break;
    case 1:
      a.family = CnnFamily::deeplabv3;
      read_resnet(c, r, a);
      a.num_classes = r.integer("num_classes", 1, 1 << 20).value_or(21);
      a.atrous_rates = int_list(c, r, "atrous_rates", 1, 1024, 6, true);
      a.aspp_channels = r.integer("aspp_channels", 1, 8192).value_or(256);
      a.aux_classifier = r.boolean("aux_classifier").value_or(false);
      if (a.stage_blocks.size() < 3) c.invalid(r.child_path("stage_blocks"), "DeepLabV3 needs at least three stages");
      break;
    case 2:
      a.family = CnnFamily::yolov8;
      a.depth_multiple = required_number(c, r, "depth_multiple", 0.01, 10);
      a.width_multiple = required_number(c, r, "width_multiple", 0.01, 10);
      a.max_channels = required_int(c, r, "max_channels", 8, 65536);
      a.num_classes = r.integer("num_classes", 1, 1 << 20).value_or(80);
      a.reg_max = r.integer("reg_max", 1, 256).value_or(16);
      break;
    case 3:
      a.family = CnnFamily::sd_unet;
      read_sd_unet(c, r, a);
      break;
    default:
      a.family = CnnFamily::flux;
      read_flux(c, r, a);
      break;
  }
  return a;
}

}  // namespace gpuplan
