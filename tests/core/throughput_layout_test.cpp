// Tensor layout of convolutional networks (workload.channels_last,
// docs/time-model.md "Memory traffic"): cuDNN's tensor-core convolutions work
// on NHWC tensors, so on PyTorch's default NCHW layout every convolution
// transposes its input and output (and in backward their gradients).
// MosaicML's Composer "Channels Last" method card measures what removing the
// transposes is worth: ResNet-50 on ImageNet "about 30 %" faster on V100 and
// A100. FP32 convolutions on CUDA cores run NCHW natively.
#include <gtest/gtest.h>

#include <string>

#include "test_support.h"

namespace gpuplan {
namespace {

nlohmann::json resnet_request(const std::string& gpu, const std::string& precision, bool channels_last,
                              const std::string& mode = "train") {
  nlohmann::json r = {
      {"model", {{"preset", "resnet-50"}}},
      {"workload",
       {{"mode", mode}, {"precision", precision}, {"optimizer", "sgd-momentum"}, {"micro_batch", 256},
        {"image_size", 224}, {"channels_last", channels_last}}},
      {"hardware", {{"gpu", gpu}, {"count", 1}}}};
  return r;
}

double images_per_s(const nlohmann::json& request) {
  const nlohmann::json r = test::run(request);
  EXPECT_TRUE(r.contains("gpus") && !r["gpus"].empty()) << r.dump();
  return r["gpus"][0]["throughput"]["samples_per_s"].get<double>();
}

TEST(TimeLayout, ChannelsLastSpeedsTensorCoreResNetTrainingByAboutAThird) {
  for (const char* gpu : {"a100-sxm4-80g", "v100-sxm2-16g"}) {
    const double nhwc = images_per_s(resnet_request(gpu, "fp16-mixed", true));
    const double nchw = images_per_s(resnet_request(gpu, "fp16-mixed", false));
    // Composer's "about 30 %", with room for the card's compute-to-bandwidth ratio.
    EXPECT_GT(nhwc / nchw, 1.2) << gpu;
    EXPECT_LT(nhwc / nchw, 1.45) << gpu;
  }
}

TEST(TimeLayout, TransposesCostTf32ButNotCudaCoreFp32) {
  // TF32 convolutions on the A100 run on tensor cores: NCHW pays the transposes.
  EXPECT_GT(images_per_s(resnet_request("a100-sxm4-80g", "fp32", true)),
            1.1 * images_per_s(resnet_request("a100-sxm4-80g", "fp32", false)));
  // The V100 has no TF32: FP32 convolutions are CUDA-core kernels on NCHW.
  EXPECT_DOUBLE_EQ(images_per_s(resnet_request("v100-sxm2-16g", "fp32", true)),
                   images_per_s(resnet_request("v100-sxm2-16g", "fp32", false)));
}

TEST(TimeLayout, InferenceTransposesOnTensorCoresOnly) {
  // A forward pass transposes each convolution's input and output too.
  EXPECT_GT(images_per_s(resnet_request("v100-sxm2-16g", "fp16", true, "infer")),
            1.1 * images_per_s(resnet_request("v100-sxm2-16g", "fp16", false, "infer")));
  EXPECT_DOUBLE_EQ(images_per_s(resnet_request("v100-sxm2-16g", "fp32", true, "infer")),
                   images_per_s(resnet_request("v100-sxm2-16g", "fp32", false, "infer")));
}

TEST(TimeLayout, TransformersAreUnaffected) {
  nlohmann::json r = {{"model", {{"preset", "bert-large"}}},
                      {"workload", {{"precision", "fp16-mixed"}, {"micro_batch", 8}, {"seq_len", 128}}},
                      {"hardware", {{"gpu", "a100-sxm4-80g"}}}};
  nlohmann::json nhwc = r;
  nhwc["workload"]["channels_last"] = true;
  EXPECT_DOUBLE_EQ(images_per_s(r), images_per_s(nhwc));
}

TEST(TimeLayout, ANonBooleanIsAnErrorNamingTheField) {
  nlohmann::json r = resnet_request("a100-sxm4-80g", "fp16-mixed", true);
  r["workload"]["channels_last"] = "yes";
  const nlohmann::json reply = test::run(r);
  ASSERT_TRUE(reply.contains("error")) << reply.dump();
  EXPECT_EQ(reply["error"]["path"], "workload.channels_last");
  EXPECT_EQ(reply["error"]["code"], "wrong_type");
}

}  // namespace
}  // namespace gpuplan
