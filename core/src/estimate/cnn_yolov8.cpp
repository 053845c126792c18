// YOLOv8 detection (ultralytics/cfg/models/v8/yolov8.yaml @023641f5, modules in
// ultralytics/nn/modules/{conv,block,head}.py): the backbone, the PAN neck and
// the decoupled Detect head, with each scale's depth and width multiples and
// channel cap. Channels are make_divisible(min(c, max_channels) * width, 8),
// repeats max(round(n * depth), 1); images are letterboxed to a multiple of
// the largest stride, 32 (ultralytics check_imgsz rounds up).
#include <cmath>

#include "estimate/cnn_architecture.h"

namespace gpuplan {
namespace {

struct Yolo {
  const CnnArchitecture& a;
  Tally& t;

  int ch(int c) const { return int(std::ceil(std::min(c, a.max_channels) * a.width_multiple / 8) * 8); }
  int rep(int n) const { return std::max(int(std::lround(n * a.depth_multiple)), 1); }

  // Conv: Conv2d (no bias, padding k/2) + BatchNorm2d + SiLU.
  Tensor conv(Tensor& x, int cout, int k, int s = 1) {
    Tensor c = t.conv(x, cout, k, s, k / 2, 1, false);
    Tensor b = t.batch_norm(c);
    return t.silu(b);
  }

  // C2f: cv1 to 2c channels, chunk in two, n Bottlenecks (two 3x3 Convs,
  // residual when shortcut) on the last chunk, concat everything, cv2.
  Tensor c2f(Tensor& x, int cout, int n, bool shortcut) {
    t.begin_unit(x);
    const int c = cout / 2;
    Tensor y = conv(x, 2 * c, 1);
    t.hold(y);
    // The first bottleneck reads a chunk: a view, which keeps all of y.
    if (y.grad) t.save(y);
    Tensor prev{c, y.h, y.w, y.wide, true, y.grad};
    int concat_c = 2 * c;
    for (int i = 0; i < n; ++i) {
      Tensor a1 = conv(prev, c, 3);
      Tensor a2 = conv(a1, c, 3);
      Tensor out = shortcut ? t.add(prev, a2) : a2;
      t.hold(out);
      prev = out;
      concat_c += c;
    }
    Tensor cat{concat_c, y.h, y.w, y.wide, false, y.grad};
    t.release(cat);  // y and the bottleneck outputs: the concat's parts
    if (!t.pass().train) t.live(2 * t.bytes(cat));
    Tensor out = conv(cat, cout, 1);
    t.end_unit(x, out);
    return out;
  }

  // SPPF: cv1 to c/2, three chained 5x5 max pools (stride 1), concat, cv2.
  Tensor sppf(Tensor& x, int cout) {
    t.begin_unit(x);
    Tensor y0 = conv(x, x.c / 2, 1);
    t.hold(y0);
    Tensor y1 = t.max_pool(y0, 5, 1, 2);
    t.hold(y1);
    Tensor y2 = t.max_pool(y1, 5, 1, 2);
    t.hold(y2);
    Tensor y3 = t.max_pool(y2, 5, 1, 2);
    t.release(y0);
    t.release(y1);
    t.release(y2);
    Tensor cat{y0.c + y1.c + y2.c + y3.c, y0.h, y0.w, y0.wide, false, y0.grad};
    if (!t.pass().train) t.live(2 * t.bytes(cat));
    Tensor out = conv(cat, cout, 1);
    t.end_unit(x, out);
    return out;
  }

  Tensor up_cat(Tensor& x, Tensor& skip) {
    Tensor up = t.upsample(x, skip.h, skip.w);
    return t.cat(up, skip);
  }
};

}  // namespace

void expand_yolov8(const CnnArchitecture& a, int image_size, Tally& t) {
  Yolo y{a, t};
  const int s = a.stride_multiple;
  const int side = (image_size + s - 1) / s * s;
  Tensor img = t.make(3, side, side, true);
  Tensor x0 = y.conv(img, y.ch(64), 3, 2);
  Tensor x1 = y.conv(x0, y.ch(128), 3, 2);
  Tensor x2 = y.c2f(x1, y.ch(128), y.rep(3), true);
  Tensor x3 = y.conv(x2, y.ch(256), 3, 2);
  Tensor p3 = y.c2f(x3, y.ch(256), y.rep(6), true);
  t.hold(p3);
  Tensor x5 = y.conv(p3, y.ch(512), 3, 2);
  Tensor p4 = y.c2f(x5, y.ch(512), y.rep(6), true);
  t.hold(p4);
  Tensor x7 = y.conv(p4, y.ch(1024), 3, 2);
  Tensor x8 = y.c2f(x7, y.ch(1024), y.rep(3), true);
  Tensor p5 = y.sppf(x8, y.ch(1024));
  t.hold(p5);
  // Neck (layers 10-21): no shortcuts in the head's C2f.
  Tensor u1 = y.up_cat(p5, p4);
  t.release(p4);
  Tensor h12 = y.c2f(u1, y.ch(512), y.rep(3), false);
  t.hold(h12);
  Tensor u2 = y.up_cat(h12, p3);
  t.release(p3);
  Tensor h15 = y.c2f(u2, y.ch(256), y.rep(3), false);
  t.hold(h15);
  Tensor d1 = y.conv(h15, h15.c, 3, 2);
  Tensor c17 = t.cat(d1, h12);
  t.release(h12);
  Tensor h18 = y.c2f(c17, y.ch(512), y.rep(3), false);
  t.hold(h18);
  Tensor d2 = y.conv(h18, h18.c, 3, 2);
  Tensor c20 = t.cat(d2, p5);
  t.release(p5);
  Tensor h21 = y.c2f(c20, y.ch(1024), y.rep(3), false);
  t.hold(h21);
  // Detect: per level a box branch (3x3, 3x3, 1x1 to 4 * reg_max) and a class
  // branch (3x3, 3x3, 1x1 to nc); DFL's fixed 1x1 conv (reg_max weights).
  const int c2 = std::max({16, h15.c / 4, a.reg_max * 4});
  const int c3 = std::max(h15.c, std::min(a.num_classes, 100));
  double anchors = 0;
  for (Tensor* level : {&h15, &h18, &h21}) {
    Tensor b1 = y.conv(*level, c2, 3);
    Tensor b2 = y.conv(b1, c2, 3);
    t.conv(b2, 4 * a.reg_max, 1, 1, 0, 1, true);
    Tensor k1 = y.conv(*level, c3, 3);
    Tensor k2 = y.conv(k1, c3, 3);
    t.conv(k2, a.num_classes, 1, 1, 0, 1, true);
    t.release(*level);
    anchors += double(level->h) * level->w;
  }
  t.add_params(a.reg_max);
  // v8DetectionLoss: BCE-with-logits on the class scores runs in fp32 under
  // autocast and saves its input and target (4 + 4 bytes per score).
  t.save_bytes(anchors * a.num_classes * 8);
}

}  // namespace gpuplan
