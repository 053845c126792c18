#include "messages.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace gpuplan {
namespace {

struct Template {
  std::string_view code;
  std::string_view zh;
  std::string_view en;
};

// Errors: what was expected and what was given. Warnings: what to do about it.
constexpr Template kTemplates[] = {
    // --- errors: input
    {"invalid_json", "请求不是有效的 JSON：{0}", "The request is not valid JSON: {0}"},
    {"too_deep", "JSON 嵌套过深（超过 {0} 层）", "JSON nesting is too deep (more than {0} levels)"},
    {"too_large", "请求过大（{0} 字节，上限 {1} 字节）", "The request is too large ({0} bytes, limit {1} bytes)"},
    {"wrong_type", "{0} 应为{1}，收到 {2}", "{0} must be {1}, got {2}"},
    {"out_of_range", "{0} 应在 {1} 到 {2} 之间，收到 {3}", "{0} must be between {1} and {2}, got {3}"},
    {"not_integer", "{0} 应为整数，收到 {1}", "{0} must be a whole number, got {1}"},
    {"unknown_value", "{0} 应为以下之一：{1}；收到 {2}", "{0} must be one of: {1}; got {2}"},
    {"unknown_preset", "{0}：目录中没有模型预设 {1}", "{0}: the catalog has no model preset {1}"},
    {"unknown_gpu", "{0}：目录中没有 GPU {1}", "{0}: the catalog has no GPU {1}"},
    {"unknown_platform", "{0}：目录中没有平台 {1}", "{0}: the catalog has no platform {1}"},
    {"missing_field", "缺少 {0}：{1}", "{0} is missing: {1}"},
    {"inconsistent", "{0} 与其他字段矛盾：{1}", "{0} contradicts another field: {1}"},
    {"not_for_mode", "{0} 的取值 {1} 不适用于 {2} 模式", "{0} value {1} does not apply to mode {2}"},
    {"internal", "内部错误：{0}", "Internal error: {0}"},
    // --- type names used inside wrong_type
    {"type.integer", "整数", "a whole number"},
    {"type.number", "数字", "a number"},
    {"type.string", "字符串", "a string"},
    {"type.boolean", "true 或 false", "true or false"},
    {"type.object", "对象", "an object"},
    {"type.array", "数组", "an array"},
    // --- explanations used inside missing_field / inconsistent
    {"why.baseline_rate", "baseline 需要实测速度：seconds_per_epoch（同时给出 data.samples）、samples_per_s 或 tokens_per_s 之一",
     "baseline needs a measured speed: seconds_per_epoch (with data.samples), samples_per_s or tokens_per_s"},
    {"why.model_needs_dims", "请给出 model.preset，或给出 params 与 layers、hidden、heads 等尺寸",
     "give model.preset, or params with layers, hidden, heads and the other dimensions"},
    {"why.heads_divide_hidden", "hidden（{0}）应能被 heads（{1}）整除",
     "hidden ({0}) must be divisible by heads ({1})"},
    {"why.kv_heads_divide_heads", "kv_heads（{0}）应不大于且能整除 heads（{1}）",
     "kv_heads ({0}) must divide heads ({1}) and not exceed it"},
    {"why.lora_rank_hidden", "LoRA 秩（{0}）应小于 hidden（{1}）", "the LoRA rank ({0}) must be below hidden ({1})"},
    {"why.tokens_or_samples", "请给出 tokens，或 samples 与 epochs", "give tokens, or samples with epochs"},
    {"why.sharding_needs_gpus", "{0} 需要 gpus ≥ 2 才有意义；单卡请用 none",
     "{0} needs gpus ≥ 2; use none for one GPU"},
    {"why.params_too_small", "params（{0}）小于由尺寸算出的嵌入层参数（{1}）",
     "params ({0}) is below the embedding parameters implied by the dimensions ({1})"},
    {"why.experts_per_token", "每个 token 路由的专家数（{0}）应不大于专家数（{1}）",
     "experts per token ({0}) must not exceed the number of experts ({1})"},
    {"why.cnn_needs_activation", "卷积网络需要目录预设或 activation_bytes_per_sample",
     "a convolutional network needs a catalog preset or activation_bytes_per_sample"},
};

const Template* find(std::string_view code) {
  for (const auto& t : kTemplates)
    if (t.code == code) return &t;
  return nullptr;
}

}  // namespace

std::string message(Locale locale, std::string_view code, std::initializer_list<std::string> args) {
  const Template* t = find(code);
  std::string_view pattern = t ? (locale == Locale::en ? t->en : t->zh) : code;
  std::vector<std::string> values(args);
  std::string out;
  out.reserve(pattern.size() + 32);
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '{' && i + 2 < pattern.size() && pattern[i + 2] == '}' && pattern[i + 1] >= '0' &&
        pattern[i + 1] <= '9') {
      size_t k = static_cast<size_t>(pattern[i + 1] - '0');
      if (k < values.size()) out += values[k];
      i += 2;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

std::string format_number(double value) {
  if (!std::isfinite(value)) return "?";
  char buf[64];
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", value);
  } else {
    std::snprintf(buf, sizeof buf, "%.6g", value);
  }
  return buf;
}

}  // namespace gpuplan
