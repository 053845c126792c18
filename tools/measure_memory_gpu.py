#!/usr/bin/env python3
"""Measure GPU memory peaks for a grid of training and inference regimes on
random-weight models built from published configs (nothing is downloaded),
and write them as cases in the format of tests/data/memory_cases.json
(kind "measured", metric "allocated" and "reserved", plus the device total).

For a session that has a GPU machine: run it there, commit its
output under tests/data/ with the environment it records, and add the cases
to the validation suite. Written without a GPU at hand: untested until then.

usage: python3 tools/measure_memory_gpu.py OUT.json [--quick]
needs: torch with CUDA, transformers (peft and bitsandbytes optional)
"""
import json
import platform
import sys
import time

import torch
import transformers

GIB = 2.0 ** 30

# Published dimensions (catalog/models.json cites their sources).
CONFIGS = {
    "llama-3.2-1b": dict(model_type="llama", hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
                         num_attention_heads=32, num_key_value_heads=8, vocab_size=128256, tie_word_embeddings=True),
    "qwen2.5-0.5b": dict(model_type="qwen2", hidden_size=896, intermediate_size=4864, num_hidden_layers=24,
                         num_attention_heads=14, num_key_value_heads=2, vocab_size=151936, tie_word_embeddings=True),
    "gpt2-medium": dict(model_type="gpt2", n_embd=1024, n_layer=24, n_head=16, vocab_size=50257),
    "bert-base": dict(model_type="bert", hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
                      intermediate_size=3072, vocab_size=30522),
}
PRESET_KIND = {"bert-base": "encoder"}


def build(name, dtype):
    cfg = dict(CONFIGS[name])
    kind = cfg.pop("model_type")
    config = transformers.AutoConfig.for_model(kind, **cfg)
    config._attn_implementation = "sdpa"
    if PRESET_KIND.get(name) == "encoder":
        model = transformers.AutoModelForSequenceClassification.from_config(config, torch_dtype=dtype)
    else:
        model = transformers.AutoModelForCausalLM.from_config(config, torch_dtype=dtype)
    return model.cuda()


def reset():
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()


def device_used_bytes():
    free, total = torch.cuda.mem_get_info()
    return total - free


def train_step(name, precision, batch, seq, checkpointing, optimizer_name, steps=3):
    dtype = torch.bfloat16 if precision == "bf16-true" else torch.float32
    model = build(name, dtype)
    if checkpointing:
        model.gradient_checkpointing_enable()
    if optimizer_name == "adamw":
        opt = torch.optim.AdamW(model.parameters(), lr=1e-5, fused=True)
    else:
        opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    vocab = model.config.vocab_size
    ids = torch.randint(0, vocab, (batch, seq), device="cuda")

    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=precision == "bf16-mixed"):
            if PRESET_KIND.get(name) == "encoder":
                out = model(input_ids=ids, labels=torch.zeros(batch, dtype=torch.long, device="cuda"))
            else:
                out = model(input_ids=ids, labels=ids)
        out.loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    result = peaks(step, steps)
    del model, opt
    return result


def peaks(step, steps):
    """Runs `step` `steps` times from a clean allocator: (allocated, reserved, device used) peaks."""
    reset()
    peak_total = 0
    for _ in range(steps):
        step()
        peak_total = max(peak_total, device_used_bytes())
    return (torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved(), peak_total)


# ViT-L/16 at 224 px (google/vit-large-patch16-224's config), for the caching
# allocator's fragmentation under eager attention (docs/memory-model.md,
# "Large ViTs with eager attention near a card's limit"): with eager attention every layer allocates and frees
# batch x heads x 197 x 197 score and probability tensors beside the
# batch x 197 x hidden activations; reserved - allocated near the limit is
# the waste the memory model's 6 % reserve may not cover. SDPA rows beside
# them for the same batches.
VIT_LARGE = dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096,
                 image_size=224, patch_size=16, num_labels=1000)


def vit_train_step(attention, precision, batch, steps=3):
    config = transformers.ViTConfig(**VIT_LARGE)
    config._attn_implementation = attention
    model = transformers.ViTForImageClassification(config).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-5, fused=True)
    scaler = torch.amp.GradScaler("cuda", enabled=precision == "fp16-mixed")
    dtype = torch.float16 if precision == "fp16-mixed" else torch.bfloat16
    pixels = torch.randn(batch, 3, 224, 224, device="cuda")
    labels = torch.randint(0, 1000, (batch,), device="cuda")

    def step():
        with torch.autocast("cuda", dtype=dtype):
            out = model(pixel_values=pixels, labels=labels)
        scaler.scale(out.loss).backward()
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)

    result = peaks(step, steps)
    del model, opt
    return result


def vit_cases(quick):
    cases = []
    for attention in ("eager", "sdpa"):
        for batch in ((64,) if quick else (32, 64, 128, 256, 384)):
            try:
                stats = vit_train_step(attention, "fp16-mixed", batch)
            except torch.cuda.OutOfMemoryError:
                reset()
                continue
            workload = {"mode": "train", "method": "full", "precision": "fp16-mixed", "optimizer": "adamw",
                        "micro_batch": batch, "image_size": 224, "grad_checkpointing": False,
                        "flash_attention": attention == "sdpa"}
            note = ("random weights from google/vit-large-patch16-224's config, %s attention, fp16 autocast with "
                    "GradScaler, fused torch AdamW, zero_grad(set_to_none=True); peak over 3 steps" % attention)
            cases.extend(case("gpu-grid-vit-large-%s-b%d" % (attention, batch), "vit-large", workload, stats, note))
            reset()
    return cases


def infer(name, batch, seq):
    model = build(name, torch.bfloat16).eval()
    ids = torch.randint(0, model.config.vocab_size, (batch, seq), device="cuda")
    reset()
    with torch.inference_mode():
        model(input_ids=ids, use_cache=True)
    result = (torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved(), device_used_bytes())
    del model
    return result


def case(case_id, name, workload, stats, note):
    alloc, reserved, total = stats
    base = {
        "source": "gpuplan tools/measure_memory_gpu.py on " + torch.cuda.get_device_name(0),
        "locator": "this repository, tools/measure_memory_gpu.py",
        "kind": "measured",
        "request": {"model": {"preset": name}, "workload": workload},
        "note": note,
    }
    return [dict(base, id=case_id + "-alloc", metric="allocated", measured_gib=alloc / GIB),
            dict(base, id=case_id + "-reserved", metric="reserved", measured_gib=reserved / GIB),
            dict(base, id=case_id + "-total", metric="total", measured_gib=total / GIB)]


def main():
    out_path = sys.argv[1]
    quick = "--quick" in sys.argv
    grid = []
    for name in CONFIGS:
        for precision in ("bf16-mixed", "bf16-true"):
            for checkpointing in (False, True):
                for batch, seq in ((1, 512), (4, 1024)) if not quick else ((1, 512),):
                    grid.append(("train", name, precision, batch, seq, checkpointing, "adamw"))
        grid.append(("infer", name, "bf16", 4, 2048, False, None))
    cases = []
    for mode, name, precision, batch, seq, ckpt, optim in grid:
        try:
            if mode == "train":
                stats = train_step(name, precision, batch, seq, ckpt, optim)
                workload = {"mode": "train", "method": "full", "precision": precision, "optimizer": optim,
                            "micro_batch": batch, "seq_len": seq, "grad_checkpointing": ckpt, "flash_attention": True}
            else:
                stats = infer(name, batch, seq)
                workload = {"mode": "infer", "precision": precision, "micro_batch": batch, "seq_len": seq,
                            "flash_attention": True}
        except torch.cuda.OutOfMemoryError:
            reset()
            continue
        cid = "gpu-grid-%s-%s-%s-b%d-s%d%s" % (mode, name, precision, batch, seq, "-ckpt" if ckpt else "")
        note = ("random weights from the published config, SDPA attention, fused torch AdamW, "
                "zero_grad(set_to_none=True), standard HF loss; peak over 3 steps")
        cases.extend(case(cid, name, workload, stats, note))
        reset()
    cases.extend(vit_cases(quick))
    env = {"torch": torch.__version__, "cuda": torch.version.cuda, "transformers": transformers.__version__,
           "device": torch.cuda.get_device_name(0), "python": platform.python_version(),
           "date": time.strftime("%Y-%m-%d")}
    json.dump({"about": "GPU memory measured by tools/measure_memory_gpu.py", "environment": env, "cases": cases},
              open(out_path, "w"), indent=1)


if __name__ == "__main__":
    main()
