// Vision-language models (model.kind "vlm"): a vision tower and projector in
// front of a decoder, composed from the plain estimates. docs/vlm.md.
#pragma once

#include "gpuplan/catalog.h"
#include "gpuplan/memory.h"
#include "gpuplan/request.h"
#include "gpuplan/throughput.h"

namespace gpuplan {

// Decoder tokens one image becomes, and ViT patches it is cut into, at
// image_size x image_size pixels (Qwen2-VL smart_resize: sides rounded to a
// multiple of patch x merge; one temporal group for a still image).
double vlm_image_tokens(const VisionTower& v, int image_size);
double vlm_image_patches(const VisionTower& v, int image_size);

// The decoder alone (kind decoder, the tower's parameters taken out) and the
// tower as a bidirectional encoder over its patches.
ModelSpec vlm_decoder(const ModelSpec& m);
ModelSpec vlm_tower(const ModelSpec& m);

// What the optimizer updates (the decoder's share, the tower's when trained)
// and the model FLOPs of one training micro-batch (the decoder's over text and
// image tokens, the tower's forward, or its training step when trained): the
// figures gpuplan/model_arithmetic.h reports for a VLM.
double vlm_trainable_params(const ModelSpec& m, const Workload& w);
double vlm_train_flops_per_micro_batch(const ModelSpec& m, const Workload& w);

MemoryEstimate vlm_memory(const ModelSpec& m, const Workload& w);
Throughput vlm_throughput(const ModelSpec& m, const Workload& w, const Gpu& g, int n);

}  // namespace gpuplan
