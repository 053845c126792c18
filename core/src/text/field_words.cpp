#include "text/field_words.h"

#include <cmath>
#include <string>
#include <vector>

#include "text/messages.h"

namespace gpuplan {
namespace {

// A request field as the student knows it, by the field's shape (indices
// written "[]"): "{p}" is the words of the object that holds it (the stage's
// name where the reader knows it), "{n}" the element's number counted from 1.
// A field not in the table is named by its key inside its object's words.
struct FieldWords {
  std::string_view shape;
  std::string_view zh;
  std::string_view en;
};

constexpr FieldWords kFieldWords[] = {
    {"", "请求", "the request"},
    {"locale", "语言", "the language"},
    // model
    {"model", "模型设置", "the model settings"},
    {"model.preset", "模型", "the model"},
    {"model.kind", "模型结构", "the model's architecture"},
    {"model.params", "参数量", "the parameter count"},
    {"model.layers", "层数", "the number of layers"},
    {"model.hidden", "隐藏维度", "the hidden size"},
    {"model.heads", "注意力头数", "the number of attention heads"},
    {"model.kv_heads", "KV 头数", "the number of key/value heads"},
    {"model.ffn", "FFN 维度", "the FFN size"},
    {"model.vocab", "词表大小", "the vocabulary size"},
    {"model.gated_mlp", "门控 MLP", "the gated MLP switch"},
    {"model.tied_embeddings", "输入输出词嵌入共享", "the tied-embeddings switch"},
    {"model.experts", "专家数", "the number of experts"},
    {"model.experts_per_token", "每个 token 激活的专家数", "the experts active per token"},
    {"model.head_dim", "每个注意力头的宽度", "the width of each attention head"},
    {"model.reference_image_size", "模型的参考图像尺寸", "the model's reference image size"},
    {"model.architecture", "卷积网络的结构", "the convolutional network's architecture"},
    {"model.activation_bytes_per_sample", "每个样本的激活显存", "the activation memory per sample"},
    {"model.gflops_per_sample", "每个样本的计算量（GFLOPs）", "the compute per sample (GFLOPs)"},
    {"model.vision", "视觉编码器", "the vision encoder"},
    {"model.patch_size", "图像块大小", "the patch size"},
    // workload
    {"workload", "训练设置", "the workload settings"},
    {"workload.mode", "任务类型", "the task type"},
    {"workload.method", "训练方式", "the training method"},
    {"workload.precision", "精度", "the precision"},
    {"workload.optimizer", "优化器", "the optimizer"},
    {"workload.micro_batch", "每卡批大小", "the micro-batch per GPU"},
    {"workload.seq_len", "序列长度", "the sequence length"},
    {"workload.image_size", "图像尺寸", "the image size"},
    {"workload.grad_checkpointing", "梯度检查点", "gradient checkpointing"},
    {"workload.flash_attention", "FlashAttention", "FlashAttention"},
    {"workload.tf32", "TF32", "TF32"},
    {"workload.lora", "LoRA 设置", "the LoRA settings"},
    {"workload.lora.rank", "LoRA 秩", "the LoRA rank"},
    {"workload.lora.targets", "LoRA 作用层", "the layers LoRA adapts"},
    {"workload.kv_cache_bits", "KV 缓存精度", "the KV-cache precision"},
    {"workload.gpus", "GPU 数量", "the number of GPUs"},
    {"workload.sharding", "分片方式", "the sharding"},
    {"workload.cpu_offload", "卸载到 CPU 内存", "offloading to CPU memory"},
    {"workload.loss", "损失计算方式", "the loss computation"},
    {"workload.torch_compile", "torch.compile 开关", "the torch.compile switch"},
    {"workload.channels_last", "channels-last 内存布局", "the channels-last layout"},
    {"workload.optimizer_in_backward", "反向传播中更新参数", "the optimizer step in the backward pass"},
    {"workload.activation_offload", "激活卸载", "activation offloading"},
    {"workload.grad_accumulation", "梯度累积步数", "the gradient-accumulation steps"},
    {"workload.stack", "训练框架", "the framework"},
    {"workload.objective", "训练目标", "the training objective"},
    {"workload.rl", "强化学习设置", "the reinforcement-learning settings"},
    {"workload.rl.group_size", "每个题目生成的回答数", "the answers generated per prompt"},
    {"workload.rl.completion_len", "每个回答的最长词元数", "the longest answer in tokens"},
    {"workload.rl.rollout", "生成回答的方式", "where the answers are generated"},
    {"workload.rl.reference", "参考模型", "the reference model"},
    {"workload.rl.reward_model", "奖励模型", "the reward model"},
    {"workload.cached_text_embeddings", "预先算好的文本嵌入", "the cached text embeddings"},
    {"workload.images_per_sample", "每个样本的图片数", "the images per sample"},
    {"workload.train_vision_tower", "是否训练视觉编码器", "training the vision tower"},
    {"workload.frozen_base_fp32", "冻结的基座权重用 fp32", "the frozen base held in fp32"},
    {"workload.steps", "采样步数", "the sampling steps"},
    {"workload.guidance", "无分类器引导", "classifier-free guidance"},
    // hardware, data
    {"hardware", "指定的显卡", "the chosen card"},
    {"hardware.gpu", "指定的显卡", "the chosen card"},
    {"hardware.count", "指定显卡的张数", "the chosen card's count"},
    {"data", "数据设置", "the data settings"},
    {"data.tokens", "数据的词元总数", "the number of data tokens"},
    {"data.samples", "样本数", "the number of samples"},
    {"data.epochs", "轮数", "the number of epochs"},
    {"data.mean_seq_len", "样本的平均长度", "the mean sample length"},
    {"data.packing", "样本拼接（packing）", "sample packing"},
    {"data.length_bin", "按长度分桶的宽度", "the length-bucket width"},
    // baseline (a measured run, or a paper's run)
    {"baseline", "实测数据", "the measured run"},
    {"baseline.gpu", "实测用的卡", "the card of the measured run"},
    {"baseline.count", "实测用的卡数", "the card count of the measured run"},
    {"baseline.micro_batch", "实测时每卡批大小", "the measured run's micro-batch per GPU"},
    {"baseline.seconds_per_epoch", "实测每轮秒数", "the measured seconds per epoch"},
    {"baseline.samples_per_s", "实测每秒样本数", "the measured samples per second"},
    {"baseline.tokens_per_s", "实测每秒词元数", "the measured tokens per second"},
    {"baseline.wall_hours", "论文报告的总训练时长", "the paper's total training time"},
    {"baseline.memory_bytes", "实测峰值显存", "the measured peak memory"},
    // science
    {"science", "科学计算设置", "the scientific-computing settings"},
    {"science.kind", "计算类型", "the kind of computation"},
    {"science.precision", "计算精度", "the numeric precision"},
    {"science.bound", "性能瓶颈", "what limits the speed"},
    {"science.baseline", "基准测速", "the benchmark"},
    {"science.baseline.gpu", "基准测速用的卡", "the benchmark's card"},
    {"science.baseline.count", "基准测速用的卡数", "the benchmark's card count"},
    {"science.baseline.unit", "速度单位", "the speed unit"},
    {"science.baseline.rate", "基准速度", "the benchmark speed"},
    {"science.job", "任务总量", "the size of the job"},
    {"science.memory_gb", "每卡工作集", "the working set per card"},
    // planning
    {"stages", "实验阶段列表", "the list of stages"},
    {"stages[]", "第 {n} 个阶段", "stage {n}"},
    {"stages[].stage", "{p}的类型", "the kind of {p}"},
    {"stages[].runs", "{p}的运行次数", "the number of runs of {p}"},
    {"stages[].data_fraction", "{p}所用的数据比例", "the share of data {p} uses"},
    {"budget", "预算", "the budget"},
    {"budget.amount", "预算", "the budget"},
    {"budget.currency", "预算的币种", "the budget's currency"},
    {"prefs", "偏好设置", "the preferences"},
    {"prefs.billing", "计费方式", "the billing"},
    {"prefs.platforms", "所选平台列表", "the list of chosen platforms"},
    {"prefs.platforms[]", "所选的第 {n} 个平台", "chosen platform {n}"},
    {"prefs.deadline_days", "截止期限（天）", "the deadline (days)"},
    {"prefs.education", "教育优惠", "the education discount"},
    {"prefs.dataset_gb", "数据集大小", "the dataset size"},
    {"prefs.storage_gb", "存储空间", "the storage size"},
    {"prefs.upload_mbps", "上传带宽", "the upload bandwidth"},
    {"prefs.group_size", "课题组人数", "the group size"},
    {"prefs.scope", "平台范围", "the platform scope"},
    {"prefs.display_currency", "显示币种", "the display currency"},
    {"prefs.time_value_per_hour", "等待一小时的代价", "what an hour of waiting is worth"},
    {"buy", "买卡设置", "the purchase settings"},
    {"buy.price", "买卡价格", "the card's purchase price"},
    {"buy.currency", "买卡价格的币种", "the purchase price's currency"},
    {"buy.watts", "整机功率", "the power draw"},
    {"buy.electricity_per_kwh", "电价", "the electricity price"},
    {"buy.resale_fraction", "转卖残值比例", "the resale share"},
    {"buy.years", "使用年限", "the years of use"},
    {"prices", "报价列表", "the list of quotes"},
    {"prices[]", "第 {n} 条报价", "quote {n}"},
    {"prices[].platform", "{p}的平台", "the platform of {p}"},
    {"prices[].gpu", "{p}的显卡", "the card of {p}"},
    {"prices[].per_gpu_hour", "{p}的每卡时价格", "the price per GPU-hour of {p}"},
    {"prices[].currency", "{p}的币种", "the currency of {p}"},
    {"prices[].billing", "{p}的计费方式", "the billing of {p}"},
    {"prices[].as_of", "{p}的日期", "the date of {p}"},
    // the lab's own resources
    {"lab", "实验室设置", "the lab settings"},
    {"lab.name", "实验室名称", "the lab's name"},
    {"lab.written", "实验室设置的填写日期", "the date the lab settings were written"},
    {"lab.notes", "实验室备注", "the lab's notes"},
    {"lab.models", "实验室常用模型", "the lab's models"},
    {"lab.models[]", "实验室的第 {n} 个模型", "lab model {n}"},
    {"lab.gpus", "实验室的显卡", "the lab's cards"},
    {"lab.gpus[]", "实验室的第 {n} 种显卡", "lab card {n}"},
    {"lab.gpus[].gpu", "{p}的型号", "the model of {p}"},
    {"lab.gpus[].count", "{p}的张数", "the count of {p}"},
    {"lab.gpus[].machines", "{p}的机器台数", "the machines of {p}"},
    {"lab.gpus[].wait_hours", "{p}的等待时间（小时）", "the wait for {p} (hours)"},
    {"lab.gpus[].hours_per_week", "{p}每周可用小时数", "the weekly hours of {p}"},
    {"lab.campus", "校级计算中心", "the campus centre"},
    {"lab.campus.wait_hours", "校级计算中心的排队时间（小时）", "the campus centre's wait (hours)"},
    {"lab.campus.max_gpus", "校级计算中心一次最多的卡数", "the campus centre's most cards at once"},
    {"lab.campus.max_hours", "校级计算中心一次最长的时长", "the campus centre's longest job"},
    {"lab.campus.currency", "校级计算中心的币种", "the campus centre's currency"},
    {"lab.campus.prices", "校级计算中心的价格", "the campus centre's prices"},
    {"lab.campus.prices[]", "校级计算中心的第 {n} 条价格", "campus price {n}"},
    {"lab.prices", "实验室的报价", "the lab's quotes"},
    {"lab.prices[]", "实验室的第 {n} 条报价", "lab quote {n}"},
    {"lab.budget", "实验室预算", "the lab's budget"},
    {"lab.budget.amount", "实验室预算", "the lab's budget"},
    {"lab.budget.currency", "实验室预算的币种", "the lab's budget currency"},
    {"lab.scope", "实验室的平台范围", "the lab's platform scope"},
    {"lab.electricity", "实验室电费设置", "the lab's electricity"},
    {"lab.electricity_per_kwh", "实验室电价", "the lab's electricity price"},
    {"lab.electricity_currency", "实验室电价的币种", "the lab's electricity currency"},
    {"lab.version", "实验室设置的版本", "the lab settings' version"},
};

// Fields the page asks for in another unit than the request carries: their
// figures in messages are in the student's unit.
struct FieldUnit {
  std::string_view shape;
  double per_unit;  // request units in one of the student's
  std::string_view zh;
  std::string_view en;
};
constexpr FieldUnit kFieldUnits[] = {
    {"baseline.memory_bytes", 1073741824.0, " GiB", " GiB"},
    {"model.activation_bytes_per_sample", 1048576.0, " MiB", " MiB"},
    {"stages[].data_fraction", 0.01, "%", "%"},
    {"science.memory_gb", 1.0, " GB", " GB"},
    {"prefs.dataset_gb", 1.0, " GB", " GB"},
    {"prefs.storage_gb", 1.0, " GB", " GB"},
    {"prefs.upload_mbps", 1.0, " Mbit/s", " Mbit/s"},
    {"buy.watts", 1.0, " W", " W"},
};

struct Shape {
  std::string shape;      // "stages[].runs"
  std::string parent;     // the holding object's path: "stages[1]"
  std::string key;        // the last member or element: "runs", "[1]"
  int number = 0;         // the last index + 1
};

Shape shape_of(std::string_view path) {
  Shape s;
  size_t cut = 0;
  for (size_t i = 0; i < path.size(); ++i) {
    const char c = path[i];
    if (c == '[') {
      size_t j = path.find(']', i);
      if (j == std::string_view::npos) j = path.size() - 1;
      // An index no array of a request can reach (a member's name may hold
      // "[4444444444", and the parser names it in a path) stops growing at
      // nine digits rather than overflowing an int.
      int n = 0;
      for (size_t k = i + 1; k < j; ++k)
        if (path[k] >= '0' && path[k] <= '9' && n < 100000000) n = n * 10 + (path[k] - '0');
      s.number = n + 1;
      s.shape += "[]";
      cut = i;
      i = j;
    } else {
      if (c == '.') cut = i;
      s.shape += c;
    }
  }
  s.parent = std::string(path.substr(0, cut));
  s.key = std::string(path.substr(cut < path.size() && path[cut] == '.' ? cut + 1 : cut));
  return s;
}

const FieldWords* find_words(std::string_view shape) {
  for (const auto& w : kFieldWords)
    if (w.shape == shape) return &w;
  // The lab's quotes (lab.prices[], lab.campus.prices[]) say their fields as a quote does.
  const size_t quote = shape.find(".prices[].");
  if (shape.rfind("lab.", 0) == 0 && quote != std::string_view::npos) return find_words(shape.substr(quote + 1));
  return nullptr;
}

void replace_all(std::string& text, std::string_view from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
}

}  // namespace

std::string field_words(Locale locale, std::string_view path, std::string_view holder) {
  const bool en = locale == Locale::en;
  const Shape s = shape_of(path);
  if (const FieldWords* w = find_words(s.shape)) {
    std::string text(en ? w->en : w->zh);
    replace_all(text, "{n}", std::to_string(s.number));
    if (text.find("{p}") != std::string::npos)
      replace_all(text, "{p}", holder.empty() ? field_words(locale, s.parent) : std::string(holder));
    return text;
  }
  // Not a field of the table (a misspelt or unknown name, a field of a
  // pasted architecture): the name as written, inside its object's words.
  std::string key = s.key;
  if (!key.empty() && key.front() == '[') key = en ? "entry " + std::to_string(s.number) : "第 " + std::to_string(s.number) + " 项";
  else key = (en ? "“" : "“") + key + "”";
  if (path == s.key || s.parent.empty()) return key;
  const std::string in = holder.empty() ? field_words(locale, s.parent) : std::string(holder);
  return en ? key + " in " + in : in + "中的" + key;
}

std::string field_amount(Locale locale, std::string_view path, double value) {
  const std::string shape = shape_of(path).shape;
  for (const auto& u : kFieldUnits)
    if (u.shape == shape) return format_number(value / u.per_unit) + std::string(locale == Locale::en ? u.en : u.zh);
  return format_number(value);
}

bool field_has_unit(std::string_view path) {
  const std::string shape = shape_of(path).shape;
  for (const auto& u : kFieldUnits)
    if (u.shape == shape) return true;
  return false;
}

}  // namespace gpuplan
