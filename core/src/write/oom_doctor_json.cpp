#include "write/oom_doctor_json.h"

#include <cmath>
#include <cstdint>
#include <string_view>

#include "text/messages.h"
#include "text/names.h"

namespace gpuplan {
namespace {

// Views, not Text's strings: a constant table, with nothing to build when the
// module starts.
struct RemedyText {
  std::string_view id;
  std::string_view zh, en;
  std::string_view in(Locale l) const { return l == Locale::en ? en : zh; }
};

// One line each: what the change does and what it costs.
constexpr RemedyText kRemedies[] = {
    {remedy_id::micro_batch, "减小 micro-batch，用梯度累积保持等效 batch：结果不变，只是每步更慢",
                             "Smaller micro-batch with gradient accumulation keeping the effective batch: same result, slower steps"},
    {remedy_id::grad_checkpointing, "开启梯度检查点：只存每层输入，反向时重算，约多 1/3 计算",
                                    "Gradient checkpointing: keep only layer inputs and recompute in backward, about a third more compute"},
    {remedy_id::mixed_precision, "改用混合精度（bf16/fp16 自动混合精度）：激活减半，张量核更快",
                                 "Mixed precision (bf16/fp16 AMP): half-size activations and tensor-core speed"},
    {remedy_id::optimizer_8bit, "改用 8-bit AdamW（bitsandbytes）：优化器状态约为 1/4，收敛基本一致",
                                "8-bit AdamW (bitsandbytes): optimizer states about a quarter, convergence close to 32-bit"},
    {remedy_id::cpu_offload, "优化器状态卸载到 CPU 内存（ZeRO-Offload）：省显存，优化器一步受 PCIe 与 CPU 限制",
                             "Offload optimizer states to CPU memory (ZeRO-Offload): saves memory, the optimizer step is bound by PCIe and CPU"},
    {remedy_id::lora, "改用 LoRA：冻结底座，只训练低秩适配器；效果通常接近全参，但不是同一种训练",
                      "LoRA: freeze the base, train low-rank adapters; often close to full fine-tuning, but a different method"},
    {remedy_id::qlora, "改用 QLoRA：底座 4-bit NF4 量化 + LoRA，显存最省，速度略慢",
                       "QLoRA: 4-bit NF4 base plus LoRA, the least memory, somewhat slower"},
    {remedy_id::flash_attention, "开启 FlashAttention / SDPA：注意力不再保存 s×s 矩阵",
                                 "FlashAttention / SDPA: attention no longer stores the s×s score matrix"},
    {remedy_id::kv_cache_8bit, "KV cache 量化到 8 bit：长上下文显存减半", "8-bit KV cache: half the cache for long contexts"},
    {remedy_id::weights_int8, "权重 int8 量化推理", "int8 weight quantization for inference"},
    {remedy_id::weights_int4, "权重 int4（GPTQ/AWQ）量化推理", "int4 (GPTQ/AWQ) weight quantization for inference"},
    {remedy_id::zero3, "用 {n} 张 {gpu} 跑 ZeRO-3 / FSDP：参数、梯度、优化器状态分摊到每张卡",
                       "ZeRO-3 / FSDP on {n} × {gpu}: parameters, gradients and optimizer states split across the cards"},
    {remedy_id::larger_gpu, "换显存更大的卡：{gpu}（能装下的最小一档）", "A card with more memory: {gpu} (the smallest that holds it)"},
    {remedy_id::combined, "单项改动都不够：以下组合才能装下", "No single change is enough: this combination fits"},
    {remedy_id::plan_fit, "规划在这张卡上采用的改法（按代价从低到高依次加上，直到装得下）",
                          "What the plan does on this card: the changes in order of cost, added until it fits"},
};

// Inference has no gradients, optimizer or ZeRO: the same remedies as an
// inference user makes them (a serving engine's batch, its tensor parallel
// or transformers' layer split: throughput.cpp, "How a generating model
// spans several GPUs").
constexpr RemedyText kInferenceRemedies[] = {
    {remedy_id::micro_batch, "减少同时生成的序列数（batch 大小，vLLM 的 max_num_seqs）：输出不变，吞吐降低",
                             "Fewer sequences generated at once (the batch size, vLLM's max_num_seqs): same outputs, lower throughput"},
    {remedy_id::zero3, "把模型切分到 {n} 张 {gpu}（vLLM 的 tensor_parallel_size，或 transformers 的 device_map=\"auto\"）",
                       "Split the model across {n} × {gpu} (vLLM's tensor_parallel_size, or transformers' device_map=\"auto\")"},
};

const RemedyText* remedy_text(std::string_view id, Mode mode) {
  if (mode == Mode::infer)
    for (const auto& r : kInferenceRemedies)
      if (r.id == id) return &r;
  for (const auto& r : kRemedies)
    if (r.id == id) return &r;
  return nullptr;
}

// A remedy's sentence with the card and count it is about ({gpu}, {n}).
std::string remedy_message(const RemedyText& what, const Remedy& r, Locale locale) {
  std::string out(what.in(locale));
  auto fill = [&](std::string_view slot, const std::string& value) {
    for (size_t at = out.find(slot); at != std::string::npos; at = out.find(slot, at + value.size()))
      out.replace(at, slot.size(), value);
  };
  fill("{gpu}", r.gpu_name.empty() ? r.gpu : r.gpu_name);
  fill("{n}", std::to_string(r.count));
  return out;
}

const char* quality_name(QualityImpact q) {
  switch (q) {
    case QualityImpact::none: return "none";
    case QualityImpact::numerics: return "numerics";
    case QualityImpact::method: return "method";
  }
  return "none";
}

// Only the fields that changed, in contract spelling, so the page or a script
// can apply it with a JSON merge patch (RFC 7396) and re-plan.
void write_patch(JsonWriter& w, const Remedy& r, const Workload& o) {
  const Workload& n = r.workload;
  w.begin_object();
  w.key("hardware").begin_object();
  w.member("count", r.count);
  w.member("gpu", r.gpu);
  w.end_object();
  const bool changed = n.method != o.method || n.precision != o.precision || n.optimizer != o.optimizer ||
                       n.micro_batch != o.micro_batch || n.grad_checkpointing != o.grad_checkpointing ||
                       n.flash_attention != o.flash_attention || n.kv_cache_bits != o.kv_cache_bits ||
                       n.gpus != o.gpus || n.sharding != o.sharding || n.cpu_offload != o.cpu_offload ||
                       n.grad_accumulation != o.grad_accumulation;
  if (changed) {
    w.key("workload").begin_object();
    if (n.cpu_offload != o.cpu_offload) w.member("cpu_offload", n.cpu_offload);
    if (n.flash_attention != o.flash_attention) w.member("flash_attention", n.flash_attention);
    if (n.gpus != o.gpus) w.member("gpus", n.gpus);
    if (n.grad_accumulation != o.grad_accumulation) w.member("grad_accumulation", n.grad_accumulation);
    if (n.grad_checkpointing != o.grad_checkpointing) w.member("grad_checkpointing", n.grad_checkpointing);
    if (n.kv_cache_bits != o.kv_cache_bits) w.member("kv_cache_bits", n.kv_cache_bits);
    if (n.method != o.method) w.member("method", name_of(n.method));
    if (n.micro_batch != o.micro_batch) w.member("micro_batch", n.micro_batch);
    if (n.optimizer != o.optimizer) w.member("optimizer", name_of(n.optimizer));
    if (n.precision != o.precision) w.member("precision", name_of(n.precision));
    if (n.sharding != o.sharding) w.member("sharding", name_of(n.sharding));
    w.end_object();
  }
  w.end_object();
}

}  // namespace

void write_json(JsonWriter& w, const Diagnosis& d, Locale locale) {
  w.begin_object();
  w.member("capacity_bytes", Bytes{d.capacity_bytes});
  w.member("count", d.count);
  w.member("fits", d.fits);
  w.member("gpu", d.gpu);
  w.key("remedies").begin_array();
  for (const auto& r : d.remedies) {
    const RemedyText* text = remedy_text(r.id, d.original.mode);
    w.begin_object();
    w.member("fits", r.fits);
    w.member("gpu_hours_factor", r.gpu_hours_factor);
    w.member("gradient_accumulation", r.gradient_accumulation);
    w.member("id", r.id);
    if (text)
      w.member("message", remedy_message(*text, r, locale));
    else
      w.member("message", r.id);
    w.key("patch");
    write_patch(w, r, d.original);
    w.member("quality_impact", quality_name(r.quality));
    w.member("time_factor", r.time_factor);
    w.member("total_bytes", Bytes{r.memory.total_bytes});
    w.end_object();
  }
  w.end_array();
  w.key("speed_tips").begin_array();
  if (d.mixed_precision_speedup > 1.2) {
    w.begin_object();
    w.member("code", "use_mixed_precision");
    w.member("message", message(locale, "tip.mixed_precision", {format_number(std::round(d.mixed_precision_speedup * 10) / 10)}));
    w.member("speedup", d.mixed_precision_speedup);
    w.end_object();
  }
  w.begin_object();
  w.member("code", "data_loader");
  w.member("message", message(locale, "tip.data_loader"));
  w.end_object();
  w.end_array();
  w.member("total_bytes", Bytes{d.total_bytes});
  w.end_object();
}

}  // namespace gpuplan
