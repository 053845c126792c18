// The data loader that feeds an image workload: JPEG decode and augmentation
// on the instance's CPU, one DataLoader worker per vCPU (docs/time-model.md,
// "The data loader"). The step is the slower of the GPU and the loader.
#pragma once

#include "gpuplan/model.h"
#include "gpuplan/request.h"

namespace gpuplan {

// Images one vCPU (one hardware thread) decodes and augments per second in
// PyTorch's DataLoader: ImageNet JPEGs, RandomResizedCrop 224, flip,
// normalize. From NVIDIA DeepLearningExamples' ResNet-50 v1.5 PyTorch README
// (pytorch-21.03 NGC; configs.yml `data_backend: pytorch`, 16 workers per
// A100, 8 per V100), whose 8-GPU AMP rows the host's decoding bounds (they
// scale 6.7-7.0x on 8 GPUs against 7.7x in FP32; docs/time-model.md): DGX A100
// 16 621 images/s over its 256 threads (2 x EPYC 7742) = 65 a thread; DGX-1
// 8 322 and 8 056 over its 80 threads (2 x Xeon E5-2698 v4) = 104 and 101.
// The two machines are the range, its middle the rate.
inline constexpr double kLoaderImagesPerVcpuLow = 65;
inline constexpr double kLoaderImagesPerVcpuHigh = 104;
inline constexpr double kLoaderImagesPerVcpu = 85;

// Whether the job decodes and augments images on the CPU as it trains: a
// convolutional network or a vision transformer trained on images. A
// diffusion model (frozen VAE and text encoders) and text models do not count.
bool decodes_images_on_cpu(const ModelSpec& model, const Workload& workload);

struct LoaderBound {
  double gpu_images_per_s = 0;     // per card, what the GPU alone would take
  double loader_images_per_s = 0;  // per card, what its vCPUs deliver
  int vcpus_needed = 0;            // per card, to keep the GPU fed (rounded up)
  double slowdown = 1;             // the run's hours over the GPU's alone (>= 1)
  bool bound() const { return slowdown > 1; }
};

// The loader against the GPU: `samples_per_s` is the whole job's rate on
// `gpus` cards, `vcpus_per_gpu` what the instance gives each card.
LoaderBound loader_bound(double samples_per_s, int gpus, int vcpus_per_gpu);

}  // namespace gpuplan
