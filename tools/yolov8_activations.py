#!/usr/bin/env python3
# Derivation of catalog/models.json activation_bytes_per_sample for the YOLOv8
# presets: the tensors autograd saves for one 640x640 image, counted module by
# module from ultralytics/cfg/models/v8/yolov8.yaml @023641f5 (depth, width and
# max-channel multipliers per scale). Prints elements and fp32 bytes.
# Count what autograd saves for one 640x640 image in YOLOv8 (ultralytics yolov8.yaml),
# per scale. Conv = Conv2d + BatchNorm + SiLU: saves BN input and SiLU input (2 x out);
# every tensor a conv reads (a SiLU output or a concat) is saved once more.
import math
def div8(x): return int(math.ceil(x/8)*8)
def count(d, w, mc, img=640):
    ch = lambda c: div8(min(c, mc)*w)
    rep = lambda n: max(round(n*d), 1)
    saved = 0
    def conv(cin, cout, hw, stride=1):
        nonlocal saved
        out_hw = hw//stride
        saved += 2*cout*out_hw*out_hw + cin*hw*hw  # BN in, SiLU in, conv input
        return out_hw
    def c2f(cin, cout, n, hw):
        nonlocal saved
        c = cout//2
        conv(cin, 2*c, hw)
        for _ in range(n):
            conv(c, c, hw); conv(c, c, hw)
        conv((2+n)*c, cout, hw)  # its input is the concat
    hw = img
    c0 = ch(64); hw = conv(3, c0, hw, 2)
    c1 = ch(128); hw = conv(c0, c1, hw, 2); c2f(c1, c1, rep(3), hw)
    c3 = ch(256); hw = conv(c1, c3, hw, 2); c2f(c3, c3, rep(6), hw); p3c, p3 = c3, hw
    c5 = ch(512); hw = conv(c3, c5, hw, 2); c2f(c5, c5, rep(6), hw); p4c, p4 = c5, hw
    c7 = ch(1024); hw = conv(c5, c7, hw, 2); c2f(c7, c7, rep(3), hw)
    # SPPF
    c_ = c7//2; conv(c7, c_, hw); conv(4*c_, c7, hw); p5c, p5 = c7, hw
    # head
    h12 = ch(512); c2f(p5c + p4c, h12, rep(3), p4)
    h15 = ch(256); c2f(h12 + p3c, h15, rep(3), p3)
    conv(h15, h15, p3, 2); h18 = ch(512); c2f(h15 + h12, h18, rep(3), p4)
    conv(h18, h18, p4, 2); h21 = ch(1024); c2f(h18 + p5c, h21, rep(3), p5)
    chs = [(h15, p3), (h18, p4), (h21, p5)]
    c2 = max(16, h15//4, 64); c3_ = max(h15, 80)
    for cin, s in chs:
        conv(cin, c2, s); conv(c2, c2, s); saved += c2*s*s  # 1x1 conv input
        conv(cin, c3_, s); conv(c3_, c3_, s); saved += c3_*s*s
    return saved
for name, d, w, mc in [('n',0.33,0.25,1024),('s',0.33,0.5,1024),('m',0.67,0.75,768),('l',1.0,1.0,512),('x',1.0,1.25,512)]:
    e = count(d, w, mc)
    print(name, round(e/1e6,1), 'M elements ->', round(e*4/1e6), 'MB fp32')
