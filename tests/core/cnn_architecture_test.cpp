// Convolutional and diffusion networks expanded from their published
// dimensions (core/src/estimate/cnn_*.cpp): the expansion must be the real network
// (exact published parameter counts, the publishers' multiply-accumulates),
// agree with the older offline activation counts, grow with image size and
// batch, and give plans on the right side of published training recipes.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "estimate/cnn_architecture.h"
#include "read/cnn_architecture_json.h"
#include "gpuplan/catalog.h"
#include "gpuplan/memory.h"
#include "gpuplan/throughput.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

const ModelSpec& preset(const std::string& id) {
  const ModelSpec* m = embedded_catalog().find_model(id);
  if (!m) {
    ADD_FAILURE() << "no preset " << id;
    static ModelSpec none;
    return none;
  }
  return *m;
}

CnnPass fp32_training() { return CnnPass{}; }

CnnPass amp_training() {
  CnnPass p;
  p.autocast = true;
  p.compute_bytes = 2;
  return p;
}

// Published exact parameter counts: torchvision weights meta (ResNets,
// DeepLabV3), the yolov8.yaml model summaries, diffusers' num_parameters
// docstring (SD 1.5); SDXL's is the count of the instantiated diffusers UNet
// (../shared/reference/model-configs.json).
TEST(CnnArchitecture, ExpansionReproducesThePublishedParameterCounts) {
  const struct {
    const char* id;
    double params;
  } cases[] = {{"resnet-50", 25557032},  {"resnet-101", 44549160}, {"deeplabv3-resnet101", 60996202},
               {"yolov8n", 3157200},     {"yolov8s", 11166560},    {"yolov8m", 25902640},
               {"yolov8l", 43691520},    {"yolov8x", 68229648},    {"sd15-unet", 859520964},
               {"sdxl-unet", 2567463684}};
  for (const auto& c : cases) {
    const ModelSpec& m = preset(c.id);
    ASSERT_NE(m.architecture.family, CnnFamily::none) << c.id;
    EXPECT_EQ(expand_cnn(m.architecture, m.reference_image_size, fp32_training()).params, c.params) << c.id;
  }
  // Stable Diffusion's AutoencoderKL: 83,653,863 (DeepSpeed-MII README's SD parameter counts).
  EXPECT_EQ(expand_cnn(preset("sd15-unet").architecture, 512, fp32_training()).vae_params, 83653863);
}

// Multiply-accumulates of one forward at the reference size against the
// publishers' figures: torchvision's _ops (GMACs labelled GFLOPS) and the
// Ultralytics docs table's FLOPs (2 per MAC).
TEST(CnnArchitecture, MultiplyAccumulatesMatchThePublishedFigures) {
  const struct {
    const char* id;
    double gmacs;
    double tolerance;
  } cases[] = {{"resnet-50", 4.089, 0.001},          {"resnet-101", 7.801, 0.001}, {"deeplabv3-resnet101", 258.743, 0.001},
               {"yolov8n", 8.7 / 2, 0.01},           {"yolov8s", 28.6 / 2, 0.01},  {"yolov8m", 78.9 / 2, 0.01},
               {"yolov8l", 165.2 / 2, 0.01},         {"yolov8x", 257.8 / 2, 0.01}};
  for (const auto& c : cases) {
    const ModelSpec& m = preset(c.id);
    double gmacs = expand_cnn(m.architecture, m.reference_image_size, fp32_training()).macs / 1e9;
    EXPECT_NEAR(gmacs / c.gmacs, 1.0, c.tolerance) << c.id << ": " << gmacs << " GMACs";
  }
}

// The offline derivations the presets carried before: timm's activation
// counts (conv/linear outputs; each conv-BN-ReLU saves two tensors of that
// size) and tools/yolov8_activations.py's module-by-module count. The
// expansion also counts max-pool indices, the views C2f keeps whole and the
// loss inputs, so it may exceed them by a few percent: 5 % either way.
TEST(CnnArchitecture, SavedActivationsAgreeWithTheOfflineDerivations) {
  const struct {
    const char* id;
    int size;
    double elements;
  } cases[] = {{"resnet-50", 176, 2 * 6.9e6}, {"resnet-101", 176, 2 * 10.1e6}, {"yolov8n", 640, 47.8e6},
               {"yolov8s", 640, 89.4e6},      {"yolov8m", 640, 161.1e6},     {"yolov8l", 640, 250.8e6},
               {"yolov8x", 640, 313.2e6}};
  for (const auto& c : cases) {
    double saved = expand_cnn(preset(c.id).architecture, c.size, fp32_training()).saved_bytes / 4;
    EXPECT_NEAR(saved / c.elements, 1.0, 0.05) << c.id << ": " << saved / 1e6 << " M elements";
  }
}

// CLIP text transformers: per layer two LayerNorms (2h each), q/k/v/out with
// biases (4h^2 + 4h) and a 4h MLP (8h^2 + 5h): 12h^2 + 13h; token and position
// embeddings, the final LayerNorm, and SDXL's second encoder's text projection.
double clip_text_params(double h, double layers, bool projection) {
  return layers * (12 * h * h + 13 * h) + 49408 * h + 77 * h + 2 * h + (projection ? h * h : 0);
}

TEST(CnnArchitecture, FrozenEncodersAreThePublishedTextEncodersAndVae) {
  const double clip_l = clip_text_params(768, 12, false);
  const double big_g = clip_text_params(1280, 32, true);
  EXPECT_EQ(clip_l, 123060480);  // CLIP ViT-L/14 text model
  EXPECT_EQ(big_g, 694659840);   // OpenCLIP ViT-bigG/14 with projection
  EXPECT_EQ(preset("sd15-unet").frozen_params, clip_l + 83653863);
  EXPECT_EQ(preset("sdxl-unet").frozen_params, clip_l + big_g + 83653863);
  EXPECT_EQ(preset("resnet-50").frozen_params, 0);
}

// PEFT's summary for diffusers' SD 1.5 LoRA (rank 4 on to_k, to_q, to_v,
// to_out.0): "trainable params: 797,184 || all params: 860,318,148".
TEST(CnnArchitecture, LoraAdapterCountIsPeftsForStableDiffusion) {
  Lora lora;
  lora.rank = 4;
  lora.targets = LoraTargets::attention;
  EXPECT_EQ(lora_trainable_params(preset("sd15-unet"), lora), 797184);
  lora.targets = LoraTargets::qv;
  EXPECT_LT(lora_trainable_params(preset("sd15-unet"), lora), 797184);
  lora.targets = LoraTargets::all_linear;
  EXPECT_GT(lora_trainable_params(preset("sd15-unet"), lora), 797184);
  EXPECT_EQ(lora_trainable_params(preset("resnet-50"), lora), 0);
}

// What PyTorch's autograd really saves (tools/measure_cnn_saved.py: saved-
// tensor hooks, fp32, eager attention, CPU, torchvision's own ResNets and
// DeepLabV3, YOLOv8 and an SD-structured UNet built from the same modules).
// The expansion leaves out only BatchNorm / GroupNorm statistics, the loss's
// targets and dropout's noise (4 bytes on the CPU, a 1-byte mask on CUDA):
// within 1 % (measured: -0.04 % to -0.56 %).
TEST(CnnArchitecture, ExpansionMatchesWhatAutogradSaves) {
  nlohmann::json data = nlohmann::json::parse(read_file("tests/data/cnn_saved_measurements.json"));
  ASSERT_FALSE(data["cases"].empty());
  for (const auto& c : data["cases"]) {
    ReadErrors errors;
    Reader r(c["architecture"], "architecture", Locale::en);
    CnnPass pass;
    pass.flash_attention = false;
    pass.frozen = c.value("frozen", false);  // LoRA-like: only the attention projections trained
    const CnnArchitecture a = read_cnn_architecture(r);
    ASSERT_TRUE(errors.ok()) << c["id"] << ": " << errors.first().message;
    double computed = expand_cnn(a, c["image_size"].get<int>(), pass).saved_bytes;
    double measured = c["saved_bytes_per_sample"].get<double>();
    EXPECT_NEAR(computed / measured, 1.0, 0.01) << c["id"] << ": computed " << computed << ", measured " << measured;
  }
}

// The catalog's activation_bytes_per_sample is the expansion's figure.
TEST(CnnArchitecture, CatalogActivationFigureIsTheComputedOne) {
  for (const auto& m : embedded_catalog().models) {
    if (m.architecture.family == CnnFamily::none) continue;
    EXPECT_EQ(m.activation_bytes_per_sample,
              expand_cnn(m.architecture, m.reference_image_size, fp32_training()).saved_bytes)
        << m.id;
  }
}

// PyTorch's conv arithmetic, not area scaling: 225 px gives ResNet-50 maps
// of 113, 57, 29, 15, 8 where 224 gives 112, 56, 28, 14, 7 (+3.6 % of
// elements at 1/4 scale, +31 % at 1/32), against +0.9 % of area.
TEST(CnnArchitecture, OddSizesFollowTheConvArithmetic) {
  const CnnArchitecture& a = preset("resnet-50").architecture;
  double at224 = expand_cnn(a, 224, fp32_training()).saved_bytes;
  double at225 = expand_cnn(a, 225, fp32_training()).saved_bytes;
  EXPECT_GT(at225 / at224, 1.036);
  EXPECT_LT(at225 / at224, 1.31);
  EXPECT_EQ(conv_out(225, 7, 2, 3), 113);
  EXPECT_EQ(conv_out(113, 3, 2, 1), 57);
  // The SD VAE's unpadded downsampling: 1023 px -> 511 -> 255 -> 127 latent.
  EXPECT_EQ(vae_latent_size(preset("sdxl-unet").architecture, 1023), 127);
  EXPECT_EQ(vae_latent_size(preset("sdxl-unet").architecture, 1024), 128);
}

double component(const nlohmann::json& r, const std::string& id) {
  for (const auto& c : r["memory"]["components"])
    if (c["id"] == id) return c["bytes"].get<double>();
  return 0;
}

nlohmann::json train(const std::string& id, int size, int batch, const std::string& extra = "") {
  std::string w = R"({"mode":"train","method":"full","precision":"fp16-mixed","optimizer":"sgd-momentum","micro_batch":)" +
                  std::to_string(batch) + R"(,"image_size":)" + std::to_string(size) + extra + "}";
  return run(nlohmann::json{{"model", {{"preset", id}}}, {"workload", nlohmann::json::parse(w)}});
}

double total(const nlohmann::json& r) { return r["memory"]["per_gpu"]["total_bytes"].get<double>(); }

TEST(CnnArchitecture, MemoryGrowsWithImageSizeAndBatchThroughPlan) {
  for (const char* id : {"resnet-50", "resnet-101", "deeplabv3-resnet101", "yolov8s", "sd15-unet", "sdxl-unet"}) {
    SCOPED_TRACE(id);
    double previous = 0;
    for (int size : {127, 128, 223, 224, 225, 257, 511, 512, 513, 640, 1023, 1024}) {
      nlohmann::json r = train(id, size, 8);
      ASSERT_TRUE(r.contains("memory")) << r.dump();
      EXPECT_GE(total(r), previous) << size;
      previous = total(r);
    }
    previous = 0;
    for (int batch : {1, 2, 3, 5, 8}) {
      double t = total(train(id, 333, batch));
      EXPECT_GE(t, previous) << batch;
      previous = t;
    }
    // Where the saved activations set the peak (start of backward), they are
    // per sample: twice the batch, twice the bytes.
    double a32 = component(train(id, 512, 32), "activations");
    double a64 = component(train(id, 512, 64), "activations");
    EXPECT_GT(a32, 0);
    EXPECT_NEAR(a64 / a32, 2.0, 1e-9);
    EXPECT_GT(a32, component(train(id, 480, 32), "activations"));
    // YOLOv8 letterboxes to a multiple of 32: 500 px trains as 512.
    if (std::string(id) == "yolov8s") {
      EXPECT_EQ(a32, component(train(id, 500, 32), "activations"));
    }
  }
}

TEST(CnnArchitecture, CheckpointingEagerAttentionAndLoraMoveTheSavedBytes) {
  const CnnArchitecture& sd = preset("sd15-unet").architecture;
  CnnPass base = amp_training();
  CnnPass ckpt = base, eager = base, lora = base;
  ckpt.checkpointing = true;
  eager.flash_attention = false;
  lora.frozen = true;
  double saved = expand_cnn(sd, 512, base).saved_bytes;
  EXPECT_LT(expand_cnn(sd, 512, ckpt).saved_bytes, 0.5 * saved);
  // Eager attention keeps the 4096 x 4096 score matrices of the 64 x 64 level.
  EXPECT_GT(expand_cnn(sd, 512, eager).saved_bytes, saved + 5 * 8 * 4096.0 * 4096 * 4);
  EXPECT_LT(expand_cnn(sd, 512, lora).saved_bytes, saved);
  // Half precision under autocast: less than fp32, more than half of it (fp32 norms).
  double fp32 = expand_cnn(sd, 512, fp32_training()).saved_bytes;
  EXPECT_LT(saved, fp32);
  EXPECT_GT(saved, 0.5 * fp32);
}

// Inference keeps the live feature maps of one op at a time (plus skips), far
// less than training saves, but at least the widest map's input and output.
TEST(CnnArchitecture, InferencePeakIsTheLiveSetNotATenth) {
  const CnnArchitecture& a = preset("resnet-50").architecture;
  CnnPass infer;
  infer.train = false;
  infer.compute_bytes = 2;
  double peak = expand_cnn(a, 224, infer).peak_bytes;
  double widest = 256.0 * 56 * 56 * 2;  // layer1's 256-channel output in fp16
  EXPECT_GE(peak, 2 * widest);
  EXPECT_LT(peak, 0.2 * expand_cnn(a, 224, amp_training()).saved_bytes);
  // A diffusion pipeline peaks in the VAE decode at full resolution.
  const CnnFootprint sd = expand_cnn(preset("sd15-unet").architecture, 512, infer);
  EXPECT_GT(sd.decode_peak_bytes, sd.peak_bytes);
  EXPECT_GE(sd.decode_peak_bytes, 2 * 128.0 * 512 * 512 * 2);
}

TEST(CnnArchitecture, ExplicitActivationFigureOverridesThePreset) {
  auto request = [](int size) {
    return nlohmann::json::parse(
        R"({"model":{"preset":"resnet-50","activation_bytes_per_sample":1e8,"reference_image_size":224},
            "workload":{"mode":"train","precision":"fp32","micro_batch":2,"image_size":)" +
        std::to_string(size) + "}}");
  };
  double at224 = component(run(request(224)), "activations");
  EXPECT_EQ(at224, 2e8);
  EXPECT_NEAR(component(run(request(448)), "activations") / at224, 4.0, 1e-12);
}

TEST(CnnArchitecture, DiffusionPresetsHoldTheirFrozenEncoders) {
  for (const char* mode : {R"("mode":"train","method":"lora","precision":"fp16-mixed")", R"("mode":"infer","precision":"fp16")"}) {
    nlohmann::json r = run(nlohmann::json::parse(std::string(R"({"model":{"preset":"sdxl-unet"},"workload":{)") + mode +
                                                 R"(,"micro_batch":1,"image_size":1024}})"));
    EXPECT_EQ(component(r, "frozen_encoders"), (123060480.0 + 694659840 + 83653863) * 2) << mode;
  }
  EXPECT_EQ(component(train("resnet-50", 224, 8), "frozen_encoders"), 0);
}

// A request may bring its own network's dimensions: torchvision's published
// num_params for the builders this family covers (resnet18/34/152,
// wide_resnet50_2 with width_per_group 128).
TEST(CnnArchitecture, RequestArchitectureIsExpandedLikeAPreset) {
  const struct {
    const char* architecture;
    double params;
  } cases[] = {{R"({"family":"resnet","stage_blocks":[2,2,2,2],"block":"basic"})", 11689512},
               {R"({"family":"resnet","stage_blocks":[3,4,6,3],"block":"basic"})", 21797672},
               {R"({"family":"resnet","stage_blocks":[3,8,36,3]})", 60192808},
               {R"({"family":"resnet","stage_blocks":[3,4,6,3],"width_per_group":128})", 68883240}};
  for (const auto& c : cases) {
    nlohmann::json request = nlohmann::json::parse(
        R"({"model":{"kind":"cnn"},"workload":{"mode":"train","precision":"fp32","micro_batch":32,"image_size":224}})");
    request["model"]["architecture"] = nlohmann::json::parse(c.architecture);
    nlohmann::json r = run(request);
    ASSERT_TRUE(r.contains("memory")) << r.dump();
    EXPECT_EQ(component(r, "weights"), 4 * c.params) << c.architecture;  // fp32: 4 bytes per parameter
    EXPECT_GT(component(r, "activations"), 0);
  }
  // The same dimensions as a preset give the preset's activations.
  nlohmann::json own = nlohmann::json::parse(
      R"({"model":{"kind":"cnn","architecture":{"family":"resnet","stage_blocks":[3,4,6,3]}},"workload":{"mode":"train","precision":"fp16-mixed","micro_batch":64,"image_size":224}})");
  EXPECT_EQ(component(run(own), "activations"), component(train("resnet-50", 224, 64), "activations"));
}

TEST(CnnArchitecture, RequestArchitectureErrorsNameTheFieldInTheLocale) {
  nlohmann::json bad = run(nlohmann::json::parse(
      R"({"locale":"zh-CN","model":{"kind":"cnn","architecture":{"family":"sd-unet","model_channels":320,"channel_mult":[1,2],"num_res_blocks":2,"transformer_depth":[1],"mid_transformer_depth":1,"num_heads":8,"context_dim":768,"vae":{"block_out_channels":[128,256]}}}})"));
  ASSERT_TRUE(bad.contains("error")) << bad.dump();
  EXPECT_EQ(bad["error"]["path"], "model.architecture.transformer_depth");
  EXPECT_NE(bad["error"]["message"].get<std::string>().find("卷积"), std::string::npos);
  nlohmann::json wrong_kind = run(nlohmann::json::parse(
      R"({"locale":"en","model":{"preset":"gpt2","architecture":{"family":"resnet","stage_blocks":[2,2,2,2]}}})"));
  ASSERT_TRUE(wrong_kind.contains("error")) << wrong_kind.dump();
  EXPECT_EQ(wrong_kind["error"]["path"], "model.architecture");
  nlohmann::json bad_value = run(nlohmann::json::parse(
      R"({"locale":"en","model":{"kind":"cnn","architecture":{"family":"resnet","stage_blocks":[2,-1,2,2]}}})"));
  ASSERT_TRUE(bad_value.contains("error")) << bad_value.dump();
  EXPECT_EQ(bad_value["error"]["path"], "model.architecture.stage_blocks[1]");
}

// LoRA needs linear projections to adapt: a convolution-only network refuses
// it with the method's path, while a diffusion UNet takes it.
TEST(CnnArchitecture, LoraOnAConvolutionOnlyNetworkIsRefused) {
  for (const char* preset : {"resnet-50", "yolov8s", "deeplabv3-resnet101"}) {
    nlohmann::json r = run(nlohmann::json::parse(std::string(R"({"locale":"en","model":{"preset":")") + preset +
                                                  R"("},"workload":{"mode":"train","method":"lora","precision":"fp16-mixed"}})"));
    ASSERT_TRUE(r.contains("error")) << preset;
    EXPECT_EQ(r["error"]["code"], "inconsistent") << preset;
    EXPECT_EQ(r["error"]["path"], "workload.method") << preset;
  }
  nlohmann::json unet = run(nlohmann::json::parse(
      R"({"model":{"preset":"sd15-unet"},"workload":{"mode":"train","method":"lora","precision":"fp16-mixed","image_size":512}})"));
  EXPECT_FALSE(unet.contains("error")) << unet.dump().substr(0, 300);
  nlohmann::json full = run(nlohmann::json::parse(
      R"({"model":{"preset":"resnet-50"},"workload":{"mode":"train","method":"full","precision":"fp16-mixed"}})"));
  EXPECT_FALSE(full.contains("error"));
}

// Latents on the fly: a diffusion training step also runs the VAE encoder,
// which at 512 px costs more multiply-accumulates than a UNet forward.
TEST(CnnArchitecture, TrainingTimeIncludesTheVaeEncode) {
  const ModelSpec& sd = preset("sd15-unet");
  const CnnFootprint f = expand_cnn(sd.architecture, 512, fp32_training());
  EXPECT_GT(f.encode_macs, f.macs);
  EXPECT_EQ(sd.frozen_gflops_per_sample, 2 * f.encode_macs / 1e9);
  ModelSpec without = sd;
  without.frozen_gflops_per_sample = 0;
  Workload w;
  w.precision = Precision::fp16_mixed;
  w.micro_batch = 4;
  w.image_size = 512;
  const Gpu& a100 = *embedded_catalog().find_gpu("a100-sxm4-80g");
  double with_vae = estimate_throughput(sd, w, a100, 1).samples_per_s;
  double unet_only = estimate_throughput(without, w, a100, 1).samples_per_s;
  EXPECT_LT(with_vae, 0.85 * unet_only);
}

bool fits(const std::string& request, const std::string& gpu) {
  nlohmann::json r = nlohmann::json::parse(request);
  r["hardware"] = {{"gpu", gpu}, {"count", 1}};
  nlohmann::json out = run(r);
  EXPECT_TRUE(out.contains("gpus")) << out.dump();
  return out.contains("gpus") && out["gpus"][0]["fits"].get<bool>();
}

// diffusers examples/text_to_image/README.md: "With gradient_checkpointing and
// mixed_precision it should be possible to fine tune the model on a single
// 24GB GPU" (batch 1, accumulation 4, fp16, AdamW, --use_ema); LoRA runs "on
// consumer GPUs like T4 or V100". EMA (off by default in our model) keeps an
// fp32 shadow of the UNet: added here by hand.
TEST(CnnArchitecture, StableDiffusionRecipesLandOnTheRightSide) {
  nlohmann::json full = nlohmann::json::parse(
      R"({"model":{"preset":"sd15-unet"},"workload":{"mode":"train","method":"full","precision":"fp16-mixed","optimizer":"adamw","micro_batch":1,"grad_accumulation":4,"image_size":512,"grad_checkpointing":true},"hardware":{"gpu":"rtx-4090","count":1}})");
  nlohmann::json r = run(full);
  ASSERT_TRUE(r.contains("gpus")) << r.dump();
  const double ema = 4 * 859520964.0;
  EXPECT_LE(total(r) + ema, embedded_catalog().find_gpu("rtx-4090")->memory_bytes);
  EXPECT_TRUE(fits(R"({"model":{"preset":"sd15-unet"},"workload":{"mode":"train","method":"lora","precision":"fp16-mixed","micro_batch":1,"image_size":512}})",
                   "t4"));
}

// SDXL (kohya-ss/sd-scripts docs, train_SDXL-en.md): LoRA needs a GPU of at
// least 12 GB; full fine-tuning fits 24 GB only with batch 1, U-Net only,
// checkpointing, cached latents and Adafactor — so AdamW does not.
TEST(CnnArchitecture, SdxlRecipesLandOnTheRightSide) {
  const std::string lora =
      R"({"model":{"preset":"sdxl-unet"},"workload":{"mode":"train","method":"lora","precision":"fp16-mixed","micro_batch":1,"image_size":1024,"grad_checkpointing":true}})";
  EXPECT_TRUE(fits(lora, "rtx-3060"));
  const std::string full =
      R"({"model":{"preset":"sdxl-unet"},"workload":{"mode":"train","method":"full","precision":"fp16-mixed","optimizer":"adamw","micro_batch":1,"image_size":1024,"grad_checkpointing":true}})";
  EXPECT_FALSE(fits(full, "rtx-4090"));
  EXPECT_TRUE(fits(full, "a100-sxm4-80g"));
}

// torchvision's reference recipe (references/segmentation/README.md): batch 4
// per GPU, fp32, DDP over 8 V100s (memory size unstated: 32 GB is the safe side).
TEST(CnnArchitecture, DeepLabRecipeFitsItsV100) {
  nlohmann::json r = nlohmann::json::parse(
      R"({"model":{"preset":"deeplabv3-resnet101"},"workload":{"mode":"train","method":"full","precision":"fp32","optimizer":"sgd-momentum","micro_batch":4,"image_size":480,"gpus":8,"sharding":"ddp"},"hardware":{"gpu":"v100-sxm2-32g","count":8}})");
  nlohmann::json out = run(r);
  ASSERT_TRUE(out.contains("gpus")) << out.dump();
  EXPECT_TRUE(out["gpus"][0]["fits"].get<bool>());
}

// The expansion at a new size is cheap enough for the fit-limit bisections,
// and a broken architecture is a catalog error naming its field.
TEST(CnnArchitecture, BrokenArchitectureIsACatalogErrorWithItsPath) {
  nlohmann::json catalog = nlohmann::json::parse(embedded_catalog_json());
  size_t index = 0;
  while (catalog["models"][index]["id"] != "resnet-50") ++index;
  const std::string at = "models[" + std::to_string(index) + "]";
  auto refused = [&](const std::function<void(nlohmann::json&)>& change, const std::string& path) {
    nlohmann::json broken = catalog;
    change(broken["models"][index]);
    Result<Catalog> r = parse_catalog(broken.dump());
    ASSERT_FALSE(r.ok()) << path;
    EXPECT_EQ(r.error().path, at + path) << r.error().message;
  };
  refused([](nlohmann::json& m) { m["architecture"]["stage_blocks"][2] = "six"; }, ".architecture.stage_blocks[2]");
  refused([](nlohmann::json& m) { m["architecture"]["family"] = "vgg"; }, ".architecture.family");
  refused([](nlohmann::json& m) { m["architecture"]["stage_blocks"] = {3, 4, 5, 3}; }, ".params");
  refused([](nlohmann::json& m) { m["activation_bytes_per_sample"] = 89414876; }, ".activation_bytes_per_sample");
  refused([](nlohmann::json& m) { m["architecture"]["replace_stride_with_dilation"] = {false, true}; },
          ".architecture.replace_stride_with_dilation");
}

}  // namespace
}  // namespace gpuplan::test
