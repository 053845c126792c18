#!/usr/bin/python3
"""Measure what autograd saves for one training forward of the convolutional
presets' networks, to check the core's layer-by-layer expansion
(core/src/estimate/cnn_*.cpp) against PyTorch itself.

Runs on the CPU with random weights (no download): torchvision's ResNet-50,
ResNet-101 and DeepLabV3-ResNet101 as published, and small UNets / YOLOv8
built here from the same module definitions the core follows (diffusers
UNet2DConditionModel blocks, Ultralytics yolov8.yaml modules), in fp32 with
eager attention (what the expansion computes with precision fp32 and
flash_attention false). Every tensor autograd packs for backward is recorded
through torch.autograd.graph.saved_tensors_hooks; tensors are counted once per
storage, parameters excluded. Prints JSON for tests/data/cnn_saved_measurements.json.

usage: /usr/bin/python3 tools/measure_cnn_saved.py > tests/data/cnn_saved_measurements.json
(Debian bookworm: apt-get install python3-torch python3-torchvision)
"""
import json
import math
import platform

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision


BATCH = 2


def saved_bytes(model, make_inputs, loss_fn):
    params = {p.data_ptr() for p in model.parameters()}
    buffers = {b.data_ptr() for b in model.buffers()}
    seen = {}

    def pack(t):
        ptr = t.storage().data_ptr()
        if ptr not in params and ptr not in buffers:
            seen[ptr] = max(seen.get(ptr, 0), t.storage().nbytes())
        return t

    model.train()
    inputs = make_inputs()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = model(*inputs)
        loss = loss_fn(out)
    del loss, out
    return sum(seen.values())


# --- YOLOv8 (ultralytics/nn/modules: Conv, Bottleneck, C2f, SPPF, Detect) ----

class Conv(nn.Module):
    def __init__(self, c1, c2, k=1, s=1):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c2)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class Bottleneck(nn.Module):
    def __init__(self, c, shortcut):
        super().__init__()
        self.cv1, self.cv2, self.add = Conv(c, c, 3), Conv(c, c, 3), shortcut

    def forward(self, x):
        return x + self.cv2(self.cv1(x)) if self.add else self.cv2(self.cv1(x))


class C2f(nn.Module):
    def __init__(self, c1, c2, n, shortcut):
        super().__init__()
        self.c = c2 // 2
        self.cv1 = Conv(c1, 2 * self.c, 1)
        self.cv2 = Conv((2 + n) * self.c, c2, 1)
        self.m = nn.ModuleList(Bottleneck(self.c, shortcut) for _ in range(n))

    def forward(self, x):
        y = list(self.cv1(x).chunk(2, 1))
        y.extend(m(y[-1]) for m in self.m)
        return self.cv2(torch.cat(y, 1))


class SPPF(nn.Module):
    def __init__(self, c1, c2):
        super().__init__()
        c_ = c1 // 2
        self.cv1, self.cv2 = Conv(c1, c_, 1), Conv(c_ * 4, c2, 1)
        self.m = nn.MaxPool2d(5, 1, 2)

    def forward(self, x):
        y = [self.cv1(x)]
        y.extend(self.m(y[-1]) for _ in range(3))
        return self.cv2(torch.cat(y, 1))


class YOLOv8(nn.Module):
    def __init__(self, d, w, mc, nc=80, reg_max=16):
        super().__init__()
        ch = lambda c: int(math.ceil(min(c, mc) * w / 8) * 8)
        rep = lambda n: max(round(n * d), 1)
        self.b = nn.ModuleList([
            Conv(3, ch(64), 3, 2), Conv(ch(64), ch(128), 3, 2), C2f(ch(128), ch(128), rep(3), True),
            Conv(ch(128), ch(256), 3, 2), C2f(ch(256), ch(256), rep(6), True),
            Conv(ch(256), ch(512), 3, 2), C2f(ch(512), ch(512), rep(6), True),
            Conv(ch(512), ch(1024), 3, 2), C2f(ch(1024), ch(1024), rep(3), True), SPPF(ch(1024), ch(1024))])
        self.h12 = C2f(ch(1024) + ch(512), ch(512), rep(3), False)
        self.h15 = C2f(ch(512) + ch(256), ch(256), rep(3), False)
        self.d16 = Conv(ch(256), ch(256), 3, 2)
        self.h18 = C2f(ch(256) + ch(512), ch(512), rep(3), False)
        self.d19 = Conv(ch(512), ch(512), 3, 2)
        self.h21 = C2f(ch(512) + ch(1024), ch(1024), rep(3), False)
        c2, c3 = max(16, ch(256) // 4, reg_max * 4), max(ch(256), min(nc, 100))
        chs = (ch(256), ch(512), ch(1024))
        self.cv2 = nn.ModuleList(nn.Sequential(Conv(x, c2, 3), Conv(c2, c2, 3), nn.Conv2d(c2, 4 * reg_max, 1)) for x in chs)
        self.cv3 = nn.ModuleList(nn.Sequential(Conv(x, c3, 3), Conv(c3, c3, 3), nn.Conv2d(c3, nc, 1)) for x in chs)

    def forward(self, x):
        outs = []
        for i, m in enumerate(self.b):
            x = m(x)
            outs.append(x)
        p3, p4, p5 = outs[4], outs[6], outs[9]
        up = lambda t: F.interpolate(t, scale_factor=2.0, mode="nearest")
        h12 = self.h12(torch.cat([up(p5), p4], 1))
        h15 = self.h15(torch.cat([up(h12), p3], 1))
        h18 = self.h18(torch.cat([self.d16(h15), h12], 1))
        h21 = self.h21(torch.cat([self.d19(h18), p5], 1))
        return [torch.cat([self.cv2[i](f), self.cv3[i](f)], 1) for i, f in enumerate((h15, h18, h21))]


def yolo_loss(outs, nc=80):
    scores = torch.cat([o.flatten(2)[:, -nc:] for o in outs], 2)
    return F.binary_cross_entropy_with_logits(scores.float(), torch.zeros_like(scores))


# --- UNet (diffusers ResnetBlock2D, Transformer2DModel, BasicTransformerBlock) --

class ResBlock(nn.Module):
    def __init__(self, cin, cout, temb=None):
        super().__init__()
        self.norm1, self.conv1 = nn.GroupNorm(32, cin), nn.Conv2d(cin, cout, 3, 1, 1)
        self.temb = nn.Linear(temb, cout) if temb else None
        self.norm2, self.conv2 = nn.GroupNorm(32, cout), nn.Conv2d(cout, cout, 3, 1, 1)
        self.short = nn.Conv2d(cin, cout, 1) if cin != cout else None

    def forward(self, x, temb=None):
        h = self.conv1(F.silu(self.norm1(x)))
        if self.temb is not None:
            h = h + self.temb(F.silu(temb))[:, :, None, None]
        h = self.conv2(F.silu(self.norm2(h)))
        return (self.short(x) if self.short is not None else x) + h


class Attention(nn.Module):
    def __init__(self, c, ctx, heads, bias=False):
        super().__init__()
        self.heads = heads
        self.q, self.k, self.v = nn.Linear(c, c, bias=bias), nn.Linear(ctx, c, bias=bias), nn.Linear(ctx, c, bias=bias)
        self.out = nn.Linear(c, c)

    def forward(self, x, ctx=None):
        ctx = x if ctx is None else ctx
        b, n, c = x.shape
        split = lambda t: t.reshape(b, -1, self.heads, c // self.heads).permute(0, 2, 1, 3).reshape(b * self.heads, -1, c // self.heads)
        q, k, v = split(self.q(x)), split(self.k(ctx)), split(self.v(ctx))
        scores = torch.baddbmm(torch.empty(q.shape[0], q.shape[1], k.shape[1]), q, k.transpose(-1, -2), beta=0,
                               alpha=(c // self.heads) ** -0.5)
        o = torch.bmm(scores.softmax(dim=-1), v)
        o = o.reshape(b, self.heads, n, c // self.heads).permute(0, 2, 1, 3).reshape(b, n, c)
        return self.out(o)


class BasicBlock(nn.Module):
    def __init__(self, c, ctx, heads):
        super().__init__()
        self.n1, self.a1 = nn.LayerNorm(c), Attention(c, c, heads)
        self.n2, self.a2 = nn.LayerNorm(c), Attention(c, ctx, heads)
        self.n3, self.proj, self.ff = nn.LayerNorm(c), nn.Linear(c, 8 * c), nn.Linear(4 * c, c)

    def forward(self, x, ctx):
        x = self.a1(self.n1(x)) + x
        x = self.a2(self.n2(x), ctx) + x
        h, gate = self.proj(self.n3(x)).chunk(2, dim=-1)
        return self.ff(h * F.gelu(gate)) + x


class Transformer(nn.Module):
    def __init__(self, c, ctx, heads, depth):
        super().__init__()
        self.norm, self.proj_in = nn.GroupNorm(32, c, eps=1e-6), nn.Conv2d(c, c, 1)
        self.blocks = nn.ModuleList(BasicBlock(c, ctx, heads) for _ in range(depth))
        self.proj_out = nn.Conv2d(c, c, 1)

    def forward(self, x, ctx):
        b, c, hh, ww = x.shape
        t = self.proj_in(self.norm(x)).permute(0, 2, 3, 1).reshape(b, hh * ww, c)
        for blk in self.blocks:
            t = blk(t, ctx)
        return self.proj_out(t.reshape(b, hh, ww, c).permute(0, 3, 1, 2).contiguous()) + x


class UNet(nn.Module):
    """UNet2DConditionModel's structure (SD 1.x: conv projections, fixed heads)."""

    def __init__(self, c0, mult, nrb, depth, mid_depth, heads, ctx):
        super().__init__()
        te = 4 * c0
        self.c0, self.mult, self.nrb = c0, mult, nrb
        self.t1, self.t2 = nn.Linear(c0, te), nn.Linear(te, te)
        self.conv_in = nn.Conv2d(4, c0, 3, 1, 1)
        self.down = nn.ModuleList()
        skips, cin = [c0], c0
        for i, m in enumerate(mult):
            c = c0 * m
            for _ in range(nrb):
                self.down.append(nn.ModuleList([ResBlock(cin, c, te), Transformer(c, ctx, heads, depth[i]) if depth[i] else nn.Identity()]))
                cin = c
                skips.append(c)
            if i + 1 < len(mult):
                self.down.append(nn.Conv2d(c, c, 3, 2, 1))
                skips.append(c)
        self.mid = nn.ModuleList([ResBlock(cin, cin, te), Transformer(cin, ctx, heads, mid_depth), ResBlock(cin, cin, te)])
        self.up = nn.ModuleList()
        for r in range(len(mult)):
            i = len(mult) - 1 - r
            c = c0 * mult[i]
            for _ in range(nrb + 1):
                self.up.append(nn.ModuleList([ResBlock(cin + skips.pop(), c, te), Transformer(c, ctx, heads, depth[i]) if depth[i] else nn.Identity()]))
                cin = c
            if i > 0:
                self.up.append(nn.Conv2d(c, c, 3, 1, 1))
        self.norm_out, self.conv_out = nn.GroupNorm(32, c0), nn.Conv2d(c0, 4, 3, 1, 1)

    def forward(self, x, t_emb, ctx):
        temb = self.t2(F.silu(self.t1(t_emb)))
        x = self.conv_in(x)
        skips = [x]
        for m in self.down:
            if isinstance(m, nn.Conv2d):
                x = m(x)
            else:
                x = m[0](x, temb)
                x = x if isinstance(m[1], nn.Identity) else m[1](x, ctx)
            skips.append(x)
        x = self.mid[2](self.mid[1](self.mid[0](x, temb), ctx), temb)
        for m in self.up:
            if isinstance(m, nn.Conv2d):
                x = m(F.interpolate(x, size=skips[-1].shape[2:], mode="nearest"))
            else:
                x = m[0](torch.cat([x, skips.pop()], 1), temb)
                x = x if isinstance(m[1], nn.Identity) else m[1](x, ctx)
        return self.conv_out(F.silu(self.norm_out(x)))


def main():
    torch.manual_seed(0)
    torch.set_grad_enabled(True)
    cases = []
    ce = lambda out: F.cross_entropy(out, torch.zeros(out.shape[0], dtype=torch.long))
    B = BATCH

    # Batch 2 (BatchNorm over DeepLab's 1 x 1 pooled branch needs two values
    # per channel), reported per sample.
    def add(case_id, architecture, image_size, model, make_inputs, loss_fn):
        b = saved_bytes(model, make_inputs, loss_fn)
        cases.append({"id": case_id, "architecture": architecture, "image_size": image_size,
                      "saved_bytes_per_sample": b / BATCH})

    for name, blocks in (("resnet-50", [3, 4, 6, 3]), ("resnet-101", [3, 4, 23, 3])):
        for size in (224, 225):
            model = getattr(torchvision.models, name.replace("-", ""))(weights=None)
            add(f"{name}@{size}", {"family": "resnet", "stage_blocks": blocks}, size, model,
                lambda s=size: (torch.randn(B, 3, s, s),), ce)
    add("resnet-18@224", {"family": "resnet", "stage_blocks": [2, 2, 2, 2], "block": "basic"}, 224,
        torchvision.models.resnet18(weights=None), lambda: (torch.randn(B, 3, 224, 224),), ce)

    deeplab = torchvision.models.segmentation.deeplabv3_resnet101(weights=None, weights_backbone=None, num_classes=21,
                                                                  aux_loss=True)
    seg = lambda out: F.cross_entropy(out["out"], torch.zeros(B, 257, 257, dtype=torch.long)) + 0.5 * F.cross_entropy(
        out["aux"], torch.zeros(B, 257, 257, dtype=torch.long))
    add("deeplabv3-resnet101@257", {"family": "deeplabv3", "stage_blocks": [3, 4, 23, 3],
                                    "replace_stride_with_dilation": [False, True, True], "atrous_rates": [12, 24, 36],
                                    "aux_classifier": True, "num_classes": 21}, 257, deeplab,
        lambda: (torch.randn(B, 3, 257, 257),), seg)

    add("yolov8n@320", {"family": "yolov8", "depth_multiple": 0.33, "width_multiple": 0.25, "max_channels": 1024}, 320,
        YOLOv8(0.33, 0.25, 1024), lambda: (torch.randn(B, 3, 320, 320),), yolo_loss)

    unet = UNet(64, [1, 2, 2], 2, [1, 1, 0], 1, 4, 96)
    mse = lambda out: F.mse_loss(out.float(), torch.zeros_like(out))
    add("small-sd-unet@128", {"family": "sd-unet", "model_channels": 64, "channel_mult": [1, 2, 2], "num_res_blocks": 2,
                              "transformer_depth": [1, 1, 0], "mid_transformer_depth": 1, "num_heads": 4,
                              "context_dim": 96, "context_tokens": 77, "vae": {"block_out_channels": [32, 32, 32, 32]}},
        128, unet, lambda: (torch.randn(B, 4, 16, 16), torch.randn(B, 64), torch.randn(B, 77, 96)), mse)

    # LoRA-like: the base frozen, only the attention projections trained (the
    # diffusers LoRA targets to_q, to_k, to_v, to_out.0; an adapter's weight
    # requiring grad makes its linear save the same input as the base one).
    lora = UNet(64, [1, 2, 2], 2, [1, 1, 0], 1, 4, 96)
    for name, p in lora.named_parameters():
        p.requires_grad = any(f".{a}.{l}." in name for a in ("a1", "a2") for l in ("q", "k", "v", "out"))
    add("small-sd-unet-lora@128", dict(cases[-1]["architecture"]), 128, lora,
        lambda: (torch.randn(B, 4, 16, 16), torch.randn(B, 64), torch.randn(B, 77, 96)), mse)
    cases[-1]["frozen"] = True

    print(json.dumps({
        "about": "What autograd saves for one fp32 training forward (per sample of a batch of 2, eager attention; on the "
                 "CPU dropout saves a 4-byte noise tensor where CUDA's fused kernel saves a 1-byte mask), measured with "
                 "torch.autograd.graph.saved_tensors_hooks, one count per storage, parameters and buffers excluded. "
                 "Produced by tools/measure_cnn_saved.py; compared with the core's expansion by "
                 "tests/core/cnn_architecture_test.cpp.",
        "environment": {"torch": torch.__version__, "torchvision": torchvision.__version__, "device": "cpu",
                        "python": platform.python_version()},
        "cases": cases}, indent=1))


if __name__ == "__main__":
    main()
