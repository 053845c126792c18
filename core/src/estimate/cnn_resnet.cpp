// ResNet (He et al. 2016) as torchvision builds it (torchvision/models/resnet.py:
// v1.5, the stride in the bottleneck's 3x3 conv; replace_stride_with_dilation
// turns a stage's stride into dilation) and DeepLabV3 on it (Chen et al. 2017,
// arXiv:1706.05587; torchvision/models/segmentation/deeplabv3.py and fcn.py).
#include "estimate/cnn_architecture.h"

namespace gpuplan {
namespace {

// Bottleneck / BasicBlock.forward: identity kept for the residual, out += identity, relu.
Tensor block(Tally& t, Tensor& x, int width, int out_c, int stride, int dilation, bool downsample, bool basic) {
  t.begin_unit(x);
  Tensor o;
  if (basic) {
    Tensor c1 = t.conv(x, width, 3, stride, 1, 1, false);
    t.hold(x);
    Tensor b1 = t.batch_norm(c1);
    t.relu_(b1);
    Tensor c2 = t.conv(b1, out_c, 3, 1, 1, 1, false);
    o = t.batch_norm(c2);
  } else {
    Tensor c1 = t.conv(x, width, 1, 1, 0, 1, false);
    t.hold(x);
    Tensor b1 = t.batch_norm(c1);
    t.relu_(b1);
    Tensor c2 = t.conv(b1, width, 3, stride, dilation, dilation, false);
    Tensor b2 = t.batch_norm(c2);
    t.relu_(b2);
    Tensor c3 = t.conv(b2, out_c, 1, 1, 0, 1, false);
    o = t.batch_norm(c3);
  }
  t.release(x);
  if (downsample) {
    t.hold(o);
    Tensor d = t.conv(x, out_c, 1, stride, 0, 1, false);
    t.batch_norm(d);
    t.release(o);
  }
  t.relu_(o);  // after the in-place residual add
  t.end_unit(x, o);
  return o;
}

struct Trunk {
  Tensor stage3;  // input of the last stage (DeepLab's auxiliary head reads it)
  Tensor out;
};

// conv1 7x7/2, bn, relu, maxpool 3x3/2, then the stages. `keep_stage3`: the
// third stage's output stays alive through the fourth (IntermediateLayerGetter).
Trunk trunk(const CnnArchitecture& a, int image_size, Tally& t, bool keep_stage3) {
  Tensor x = t.make(3, image_size, image_size, true);  // the fp32 image batch
  Tensor c = t.conv(x, 64, 7, 2, 3, 1, false);
  Tensor b = t.batch_norm(c);
  t.relu_(b);
  Tensor cur = t.max_pool(b, 3, 2, 1);
  const bool basic = a.expansion == 1;
  int inplanes = 64, dilation = 1;
  Trunk out;
  for (size_t i = 0; i < a.stage_blocks.size(); ++i) {
    const int planes = 64 << i;
    const int width = planes * a.base_width / 64;
    int stride = i == 0 ? 1 : 2;
    const int previous_dilation = dilation;
    if (i > 0 && i - 1 < a.replace_stride_with_dilation.size() && a.replace_stride_with_dilation[i - 1]) {
      dilation *= stride;
      stride = 1;
    }
    if (i + 1 == a.stage_blocks.size()) {
      out.stage3 = cur;
      if (keep_stage3) t.hold(cur);
    }
    for (int j = 0; j < a.stage_blocks[i]; ++j) {
      const bool first = j == 0;
      const bool down = first && (stride != 1 || inplanes != planes * a.expansion);
      Tensor& in = i + 1 == a.stage_blocks.size() && first ? out.stage3 : cur;
      Tensor next = block(t, in, width, planes * a.expansion, first ? stride : 1, first ? previous_dilation : dilation,
                          down, basic);
      cur = next;
      inplanes = planes * a.expansion;
    }
  }
  out.out = cur;
  return out;
}

// log_softmax of the loss: its fp32 output (autocast runs it in fp32).
void loss(Tally& t, const Tensor& logits, int h, int w) {
  Tensor logp = t.like(logits, logits.c, h, w, true);
  if (logp.grad) t.save(logp);
}

// conv 3x3 (or 1x1) + BN + ReLU, as the ASPP branches and heads build them.
Tensor conv_bn_relu(Tally& t, Tensor& x, int cout, int k, int dilation) {
  Tensor c = t.conv(x, cout, k, 1, k == 1 ? 0 : dilation, dilation, false);
  Tensor b = t.batch_norm(c);
  return t.relu_(b);
}

}  // namespace

void expand_resnet(const CnnArchitecture& a, int image_size, Tally& t) {
  Trunk tr = trunk(a, image_size, t, false);
  // adaptive_avg_pool2d saves its input (the last ReLU output, already kept).
  t.save(tr.out);
  Tensor pooled = t.like(tr.out, tr.out.c, 1, 1);
  if (!t.pass().train) t.live(t.bytes(tr.out) + t.bytes(pooled));
  Tensor logits = t.linear(pooled, a.num_classes);
  loss(t, logits, 1, 1);
}

// DeepLabV3: dilated backbone (output stride 8 with [false, true, true]),
// DeepLabHead = ASPP(2048, rates) + 3x3 conv-BN-ReLU + 1x1 classifier,
// FCNHead(1024) as the auxiliary classifier; both upsampled (bilinear: nothing
// saved) to the image, where the loss's log_softmax keeps fp32 logits.
void expand_deeplabv3(const CnnArchitecture& a, int image_size, Tally& t) {
  Trunk tr = trunk(a, image_size, t, a.aux_classifier);
  Tensor& x = tr.out;
  const int c = a.aspp_channels;
  t.hold(x);
  Tensor branches[8];
  int n = 0;
  branches[n] = conv_bn_relu(t, x, c, 1, 1);
  t.hold(branches[n++]);
  for (int rate : a.atrous_rates) {
    branches[n] = conv_bn_relu(t, x, c, 3, rate);
    t.hold(branches[n++]);
  }
  // ASPPPooling: global average pool (saves its input, x), 1x1 conv-BN-ReLU, upsample.
  t.save(x);
  Tensor pooled = t.like(x, x.c, 1, 1);
  Tensor p = conv_bn_relu(t, pooled, c, 1, 1);
  Tensor up = t.upsample(p, x.h, x.w);
  t.release(x);
  Tensor cat = up;
  cat.c = c * (n + 1);
  for (int i = 0; i < n; ++i) t.release(branches[i]);
  if (!t.pass().train) t.live(2 * t.bytes(cat));
  Tensor proj = conv_bn_relu(t, cat, c, 1, 1);
  Tensor dropped = t.dropout(proj, 0.5);
  Tensor h = conv_bn_relu(t, dropped, c, 3, 1);
  Tensor logits = t.conv(h, a.num_classes, 1, 1, 0, 1, true);
  Tensor full = t.upsample(logits, image_size, image_size);
  loss(t, full, full.h, full.w);
  if (a.aux_classifier) {
    if (!t.pass().train) t.release(tr.stage3);
    t.hold(full);
    Tensor ah = conv_bn_relu(t, tr.stage3, c, 3, 1);
    Tensor ad = t.dropout(ah, 0.1);
    Tensor al = t.conv(ad, a.num_classes, 1, 1, 0, 1, true);
    Tensor aux = t.upsample(al, image_size, image_size);
    loss(t, aux, image_size, image_size);
    t.release(full);
  }
}

}  // namespace gpuplan
