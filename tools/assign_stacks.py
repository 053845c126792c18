#!/usr/bin/env python3
"""Set workload.stack on the published cases from what each run's source says
(contract v1.1: eager, optimized, vllm, llama.cpp), recording the reason in
the case's `stack_from`. Rules, by source, not by error:

- optimized: torch.compile on (torchtune rows marked compiled or "**",
  nanoGPT's compile=True, gpt-fast's compile + CUDA graphs), NVIDIA
  DeepLearningExamples (fused apex/DALI kernels, NGC containers),
  flash-attention's training scripts (fused MLP, LayerNorm, cross-entropy).
- vllm: TensorRT-LLM (serving engine: paged KV, in-flight batching, CUDA graphs).
- llama.cpp: the llama.cpp runtime logs.
- eager: everything else (HF Trainer, PEFT, accelerate generate, LLaMA-Factory,
  torchtune rows without compile, the HF blogs).

usage: tools/assign_stacks.py   (rewrites tests/data/*_cases.json in place)
"""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# (test on the case, stack, why), first match wins; torchtune rows are told
# apart by what their note says about torch.compile.
def _note(case):
    return case.get("note", "").lower()


RULES = [
    (lambda c: c["id"].startswith("dle-") or "DeepLearningExamples" in c["source"], "optimized",
     "NVIDIA DeepLearningExamples: fused kernels in NGC containers"),
    (lambda c: "flash-attention" in c["source"], "optimized",
     "flash-attention training scripts: fused MLP, LayerNorm and cross-entropy"),
    (lambda c: "gpt-fast" in c["source"], "optimized", "gpt-fast: torch.compile with CUDA graphs"),
    (lambda c: "nanoGPT" in c["source"], "optimized", "nanoGPT: compile=True by default"),
    (lambda c: "TensorRT-LLM" in c["source"], "vllm", "TensorRT-LLM: a serving engine (paged KV, in-flight batching)"),
    (lambda c: "llama.cpp" in c["source"], "llama.cpp", "llama.cpp runtime"),
    (lambda c: "torchtune" in c["source"] and "no compile" in _note(c), "eager", "torchtune without torch.compile"),
    (lambda c: "torchtune" in c["source"] and ("torch.compile" in _note(c) or "compiled" in _note(c)), "optimized",
     "torchtune with torch.compile"),
    (lambda c: "torchtune" in c["source"], "eager", "torchtune default config (no compile stated)"),
]


def stack_for(case):
    for test, stack, why in RULES:
        if test(case):
            return stack, why
    return "eager", "eager PyTorch stack (HF Trainer / PEFT / accelerate / LLaMA-Factory)"


def main():
    for name in ("throughput_cases.json", "memory_cases.json"):
        path = os.path.join(ROOT, "tests/data", name)
        data = json.load(open(path))
        for case in data["cases"]:
            stack, why = stack_for(case)
            workload = case["request"].setdefault("workload", {})
            if stack == "eager":
                workload.pop("stack", None)  # the default
            else:
                workload["stack"] = stack
            case["stack_from"] = why
        with open(path, "w") as out:
            json.dump(data, out, indent=1, ensure_ascii=False)
            out.write("\n")


if __name__ == "__main__":
    main()
