#include "estimate/data_loader.h"

#include <algorithm>
#include <cmath>

namespace gpuplan {

bool decodes_images_on_cpu(const ModelSpec& model, const Workload& workload) {
  if (workload.mode != Mode::train) return false;
  if (model.frozen_params > 0) return false;  // a diffusion pipeline: latents, not a classifier's crops
  return model.kind == ModelKind::cnn || model.patch_size > 0;
}

LoaderBound loader_bound(double samples_per_s, int gpus, int vcpus_per_gpu) {
  LoaderBound b;
  if (!(samples_per_s > 0) || gpus <= 0 || vcpus_per_gpu <= 0) return b;
  b.gpu_images_per_s = samples_per_s / gpus;
  b.loader_images_per_s = vcpus_per_gpu * kLoaderImagesPerVcpu;
  b.vcpus_needed = int(std::ceil(b.gpu_images_per_s / kLoaderImagesPerVcpu - 1e-9));
  b.slowdown = std::max(1.0, b.gpu_images_per_s / b.loader_images_per_s);
  return b;
}

}  // namespace gpuplan
