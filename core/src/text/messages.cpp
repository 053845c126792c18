#include "text/messages.h"

#include <cmath>
#include <cstdio>
#include <string>

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
    {"at_byte", "第 {0} 字节处出错", "at byte {0}"},
    {"too_large.over", "请求过大（超过上限 {0} 字节）", "The request is too large (more than the limit of {0} bytes)"},
    {"too_deep", "JSON 嵌套过深（超过 {0} 层）", "JSON nesting is too deep (more than {0} levels)"},
    {"too_large", "请求过大（{0} 字节，上限 {1} 字节）", "The request is too large ({0} bytes, limit {1} bytes)"},
    {"wrong_type", "{0}应为{1}，收到 {2}", "{0} must be {1}, got {2}"},
    {"invalid_date", "{0}应是日期 YYYY-MM-DD，收到 \"{1}\"", "{0} must be a date YYYY-MM-DD, got \"{1}\""},
    {"out_of_range", "{0}应在 {1} 到 {2} 之间，收到 {3}", "{0} must be between {1} and {2}, got {3}"},
    {"not_integer", "{0}应为整数，收到 {1}", "{0} must be a whole number, got {1}"},
    {"unknown_value", "{0}应为以下之一：{1}；收到 {2}", "{0} must be one of: {1}; got {2}"},
    {"unknown_preset", "{0}：目录中没有模型预设 {1}", "{0}: the catalog has no model preset {1}"},
    {"unknown_gpu", "{0}：目录中没有 GPU {1}", "{0}: the catalog has no GPU {1}"},
    {"unknown_platform", "{0}：目录中没有平台 {1}", "{0}: the catalog has no platform {1}"},
    {"missing_field", "缺少{0}：{1}", "{0} is missing: {1}"},
    {"inconsistent", "{0}与其他设置矛盾：{1}", "{0} contradicts another setting: {1}"},
    {"not_for_mode", "{0}的取值 {1} 不适用于{2}", "{0} {1} does not apply to {2}"},
    {"internal", "内部错误：{0}", "Internal error: {0}"},
    // --- strict input and limits (docs/api.md, "Strict input", "Limits")
    {"unknown_field", "{0}不是已知字段；是不是 {1}？", "{0} is not a known field; did you mean {1}?"},
    {"unknown_field.list", "{0}不是已知字段；这里可用的字段：{1}", "{0} is not a known field; the fields here are: {1}"},
    {"unknown_field.none", "{0}不是已知字段：这个对象不接受任何字段", "{0} is not a known field: this object takes no fields"},
    {"out_of_range.items", "{0}最多 {1} 项，收到 {2} 项", "{0} holds at most {1} entries, got {2}"},
    {"out_of_range.runs", "{0}（= 随机种子数 × 超参数点数 × 消融数）应在 {1} 到 {2} 之间，收到 {3}",
     "{0} (seeds × hyper-parameter points × ablations) must be between {1} and {2}, got {3}"},
    {"unknown_field.near", "“{0}”（{1}）", "“{0}” ({1})"},
    {"field.stage.debug", "调试阶段", "the debug stage"},
    {"field.stage.formal", "正式实验阶段", "the formal-experiments stage"},
    {"field.stage.revision", "返修阶段", "the revision stage"},
    {"field.mode.train", "训练", "training"},
    {"field.mode.infer", "推理", "inference"},
    {"field.mode.science", "科学计算", "scientific computing"},
    {"why.gpus_vs_count", "指定显卡的张数（{0}）与 GPU 数量（{1}）是同一个数：一次运行用的 GPU 数；只给一个，或给相同的值",
     "the chosen card's count ({0}) and the number of GPUs ({1}) are the same number, the GPUs one run uses: give one of them, or the same value in both"},
    {"warn.params_mismatch", "参数量（{0}）与由尺寸算出的约 {1} 个参数相差 {2}%（超过 20%）：估算按参数量计，请检查参数量或尺寸是否写错",
     "The parameter count ({0}) is {2}% away from the about {1} parameters the dimensions give (more than 20 %): estimates use the parameter count, so check it and the dimensions for a typo"},
    // --- science warnings (docs/science.md)
    {"warn.fp64_consumer_card",
     "这是 FP64 计算密集型任务：GeForce 等消费级卡的 FP64 只有 FP32 的 1/64（见各卡 fp64_ratio），按 FP32 排名租卡会严重高估速度；请看 A100/H100 等数据中心卡或 CPU 集群",
     "This is FP64 compute-bound work: consumer cards such as GeForce run FP64 at 1/64 of FP32 (see each card's fp64_ratio), so a ranking by FP32 badly overstates their speed; look at datacenter cards (A100/H100) or a CPU cluster"},
    {"warn.fp64_consider_cpu",
     "FP64 代码在校级/区域计算中心的 CPU 集群上常常更划算：先问机时价格，再和数据中心 GPU 的租金比较",
     "FP64 codes are often cheaper on a campus or regional centre's CPU cluster: ask for its core-hour rate and compare it with datacenter GPU rents"},
    {"warn.md_mixed_precision",
     "GROMACS、AMBER、OpenMM 默认用混合单精度，速度取决于 FP32 吞吐：消费级卡通常性价比最高",
     "GROMACS, AMBER and OpenMM run mixed single precision by default, so speed follows FP32 throughput: consumer cards are usually the best value"},
    // --- speed tips (OOM doctor)
    {"tip.mixed_precision", "这张卡上混合精度（bf16/fp16）约快 {0} 倍：AMP 一行代码即可开启",
     "Mixed precision (bf16/fp16) is about {0}x faster on this card: one line of AMP turns it on"},
    {"tip.data_loader",
     "租来的卡按小时计费：DataLoader 设 num_workers≈CPU 核数、pin_memory=True，用 nvidia-smi 确认 GPU 利用率接近 100%，否则是在为等数据付钱",
     "Rented cards bill by the hour: set DataLoader num_workers near the CPU core count and pin_memory=True, and check with nvidia-smi that GPU utilization is near 100 %, or you pay for waiting on data"},
    // --- type names used inside wrong_type
    {"type.integer", "整数", "a whole number"},
    {"type.number", "数字", "a number"},
    {"type.string", "字符串", "a string"},
    {"type.boolean", "布尔值（true 或 false）", "true or false"},
    {"type.object", "对象", "an object"},
    {"type.array", "数组", "an array"},
    // --- explanations used inside missing_field / inconsistent
    {"why.baseline_rate", "实测数据需要实测速度：每轮秒数（同时给出样本数）、每秒样本数或每秒词元数之一",
     "the measured run needs a measured speed: seconds per epoch (with the number of samples), samples per second or tokens per second"},
    {"why.model_needs_dims", "请选一个模型预设，或给出参数量与层数、隐藏维度、注意力头数等尺寸",
     "choose a model preset, or give the parameter count with the layers, hidden size, attention heads and the other dimensions"},
    {"why.heads_divide_hidden", "隐藏维度（{0}）应能被注意力头数（{1}）整除",
     "the hidden size ({0}) must be divisible by the attention heads ({1})"},
    {"why.kv_heads_divide_heads", "KV 头数（{0}）应不大于且能整除注意力头数（{1}）",
     "the key/value heads ({0}) must divide the attention heads ({1}) and not exceed them"},
    {"why.lora_rank_hidden", "LoRA 秩（{0}）应小于隐藏维度（{1}）", "the LoRA rank ({0}) must be below the hidden size ({1})"},
    {"why.mean_seq_len", "样本的平均长度（{0}）不能超过序列长度（{1}）",
     "the mean sample length ({0}) cannot exceed the sequence length ({1})"},
    {"why.tokens_or_samples", "请给出词元总数，或样本数与轮数", "give the number of tokens, or the samples with the epochs"},
    {"why.sharding_needs_gpus", "{0}需要至少 2 张卡才有意义；单卡请选不分片",
     "{0} needs at least 2 GPUs; choose no sharding for one GPU"},
    {"why.frozen_base_fp32", "冻结的基座权重用 fp32 只用于 LoRA / QLoRA 训练，且不能与纯 bf16 精度同用（它把所有权重存为 bf16）",
     "a frozen base held in fp32 applies to LoRA / QLoRA training, and not with pure bf16 precision (which holds every weight in bf16)"},
    {"why.params_too_small", "参数量（{0}）小于由尺寸算出的嵌入层参数（{1}）",
     "the parameter count ({0}) is below the embedding parameters implied by the dimensions ({1})"},
    {"why.experts_per_token", "每个 token 路由的专家数（{0}）应不大于专家数（{1}）",
     "experts per token ({0}) must not exceed the number of experts ({1})"},
    {"why.science_baseline", "科学计算需要基准测速：在哪张卡上测得的速度（卡、速度、单位）",
     "scientific computing needs a benchmark: the speed measured on a card (the card, the speed, its unit)"},
    {"why.cnn_needs_activation", "卷积网络需要一个模型预设、网络结构或每个样本的激活显存",
     "a convolutional network needs a model preset, an architecture or the activation memory per sample"},
    {"why.architecture", "卷积网络结构的尺寸缺失或不一致（{0}）",
     "the convolutional architecture's dimensions are missing or inconsistent ({0})"},
    {"why.lora_needs_linear", "{0} 没有 LoRA 可作用的线性层（LoRA 加在注意力和全连接投影上）；卷积网络请用全量训练，或只训练部分层",
     "{0} has no linear layers for LoRA to adapt (LoRA adds adapters to attention and linear projections); train a convolutional network fully, or only some of its layers"},
    // --- objectives, VLM, a paper's run (docs/objectives.md, docs/vlm.md, docs/api.md)
    {"why.objective_train", "DPO、GRPO、PPO 训练目标只适用于训练任务",
     "the DPO, GRPO and PPO objectives apply to training only"},
    {"why.objective_transformer", "DPO、GRPO、PPO 训练的是语言模型；卷积或扩散网络请用监督微调（SFT）",
     "DPO, GRPO and PPO train language models; use supervised fine-tuning (SFT) for convolutional or diffusion networks"},
    {"why.rl_needs_rl_objective", "强化学习设置只在训练目标为 GRPO 或 PPO 时使用", "the reinforcement-learning settings are used with the GRPO or PPO objective only"},
    {"why.vlm_needs_vision", "视觉语言模型需要视觉编码器的尺寸（层数、隐藏维度、注意力头数、FFN 维度、图像块、合并）",
     "a vision-language model needs its vision encoder's dimensions (layers, hidden size, heads, FFN size, patch, merge)"},
    {"why.paper_run_rate", "论文报告的总训练时长是整个任务的时长，不能与实测速度（每轮秒数、每秒样本数、每秒词元数）同时给出",
     "the paper's total training time is the whole job's time; give it instead of a measured speed (seconds per epoch, samples or tokens per second), not with one"},
    {"why.architecture_kind", "网络结构只适用于卷积网络", "an architecture applies to convolutional networks only"},
    {"why.rl_mean_over_cap", "平均生成长度不能超过最大生成长度",
     "the mean completion length cannot exceed the longest completion allowed"},
    // --- planning (core/src/plan/planner_search.cpp, planner_advice.cpp): category advice, why each choice, warnings, budget changes
    {"plan.category.single-gpu-small",
     "单卡小模型：一张 24GB 消费级卡（如 RTX 4090）即可，按小时计费、选秒级开机的平台，快速迭代；不要按周包断。",
     "Small single-GPU job: one 24 GB consumer card (e.g. RTX 4090) is enough; rent by the hour on a platform that starts in seconds and iterate fast; do not book weeks."},
    {"plan.category.single-gpu-large",
     "单卡大模型：先算清参数、梯度与优化器状态的显存，再选刚好装得下的卡（48GB 或 80GB）；别为小模型租 A100。",
     "Large single-GPU job: add up weights, gradients and optimizer states first, then rent the card that just holds them (48 GB or 80 GB); do not rent an A100 for a small model."},
    {"plan.category.multi-gpu",
     "多卡并行：单卡放不下或需要超过 3 天时才值得上多卡；通信开销会吃掉一部分加速，同一台机器内（NVLink）最好。",
     "Multi-GPU job: worth it only when one card cannot hold the job or would need more than 3 days; communication eats part of the speed-up, so keep it within one machine (NVLink)."},
    {"plan.category.inference-eval",
     "推理与批量评估：算力要求不高，但要长时间稳定运行；选支持自动续租、断点续跑的平台，长上下文时注意 KV 缓存显存。",
     "Inference and batch evaluation: little compute but long, steady runs; pick a platform with auto-renewal and resumable jobs, and watch KV-cache memory for long contexts."},
    {"plan.why.debug", "调试阶段：用 {0}% 的数据在 {1}（{2}）上按小时计费试跑 {3} 次，每次约 {4}；目的是找出代码和数据问题，不追求性能。",
     "Debug stage: {3} trial runs on {0}% of the data on {1} ({2}), billed by the hour, about {4} each; the aim is to find code and data bugs, not speed."},
    {"plan.why.debug_no_consumer", "没有消费级卡装得下，只好用专业卡调试。",
     "No consumer card holds the job, so debugging uses a data-centre card."},
    {"plan.why.formal", "正式实验：装得下（约 {4} GiB）、没有别的选项又便宜又快的方案：{0} ×{1}（{2}），每次约 {3}。",
     "Formal stage: an option that holds the job (about {4} GiB) and that no other beats on both cost and time: {0} ×{1} on {2}, about {3} per run."},
    {"plan.why.revision", "返修阶段：在装得下（约 {4} GiB）、又便宜又快的选项上重跑：{0} ×{1}（{2}），每次约 {3}。",
     "Revision stage: reruns on an option that holds the job (about {4} GiB) and that no other beats on both cost and time: {0} ×{1} on {2}, about {3} per run."},
    {"plan.why.right_size", "默认不考虑显存 ≥ {0} GiB 的大卡：任务用不满它。",
     "Cards with {0} GiB or more are left out by default: the job would not use them."},
    {"plan.why.multi_gpu", "最少的卡数每次需要约 {0}；用 {1} 张卡快得多（扩展效率约 {2}%），花费相差无几或为赶截止日期。",
     "The fewest cards would need about {0} per run; {1} GPUs are much faster (scaling efficiency about {2}%) for about the same cost, or for the deadline."},
    {"plan.why.science", "科学计算：{0} ×{1}（{2}），每次约 {3}，共 {4} 次；速度按基准卡 {6} 的测量值乘以限制资源的峰值之比（约 {5}×）换算。",
     "Scientific computing: {0} ×{1} on {2}, about {3} a run, {4} runs; the speed is the baseline {6}'s measured rate times the ratio of the limiting resource's peaks (about {5}×)."},
    {"plan.why.tie_band", "比最便宜的选项多花 {0} {1}（在 10% 或 20 元的容差内），但每阶段从约 {2} 缩短到约 {3}，或显存更宽裕。",
     "It costs {0} {1} more than the cheapest option (within the 10 % or 20 CNY tie band) but takes about {3} instead of {2}, or has more memory headroom."},
    {"plan.why.multi_gpu_cheaper", "最少的卡数每次需要约 {0}，{1} 张卡总花费反而更低（扩展效率约 {2}%）。",
     "The fewest cards would need about {0} per run; {1} GPUs cost less in all (scaling efficiency about {2}%)."},
    {"plan.why.packed", "把 {0} 次运行排到同一台 {1} 卡实例上并行执行，少开机、少传数据。",
     "The {0} runs are packed onto one {1}-GPU instance side by side: fewer starts and data transfers."},
    {"plan.why.queued", "{0} 次运行在同一台实例上排队执行，只开机、传数据一次。",
     "The {0} runs queue on one instance: one start and one data transfer."},
    {"plan.why.separate", "{0} 次运行各租一台实例同时执行，为了赶时间。",
     "Each of the {0} runs gets its own instance at the same time, to save time."},
    {"plan.why.spot", "抢占式实例：计入预期被回收的损失（每天约 {1} 次回收，约多用 {0}% 时间）后仍更便宜。",
     "Spot instance: still cheaper after the expected interruption losses (about {1} reclaims a day, about {0}% more time)."},
    {"plan.why.spot_assumed", "（该平台未公布回收频率，这是假设值。）",
     "(The platform publishes no reclaim rate; this one is assumed.)"},
    {"plan.why.checkpoint", "每 {0} 分钟存一次 checkpoint（写一次约 {1} 秒；Young/Daly 间隔 √(2·C·MTBF)）。",
     "Checkpoint every {0} minutes (one write takes about {1} s; the Young/Daly interval √(2·C·MTBF))."},
    {"plan.why.off_peak", "错峰时段折扣价：只在夜间和周末运行，墙钟时间约为两倍。",
     "Off-peak price: runs only at night and at weekends, so it takes about twice the wall-clock time."},
    {"plan.why.package", "按{0}套餐计费：用量足够长，整段套餐比按小时便宜。",
     "Billed as a {0} package: the use is long enough for the whole package to beat hourly prices."},
    {"plan.why.education", "已按平台的学生认证优惠计价。", "Priced with the platform's student discount."},
    {"plan.why.data_loader_bound", "解码和增强图片每张 {1} 约需 {0} 个 CPU 核，{2}每张卡只配 {3} 个：用时按 CPU 供数据的速度算，比 GPU 自身慢。",
     "Decoding and augmenting the images takes about {0} CPU cores per {1}, and {2} gives each card {3}: the time is what the CPU can feed, slower than the GPU alone."},
    // Making it fit (evaluation.cpp Evaluator::fit; docs/api.md "Making it fit"): each change with its cost.
    {"plan.why.changes", "为了装得下，规划对训练设置做了这些改动：{0}。", "To make it fit, the planner changed the workload: {0}."},
    {"plan.why.change.grad_checkpointing", "开启梯度检查点（反向时重算前向，约多三分之一的计算）",
     "gradient checkpointing on (the forward pass is recomputed in backward: about a third more compute)"},
    {"plan.why.change.optimizer", "8-bit AdamW 优化器状态（bitsandbytes；速度几乎不变，数值略有差异）",
     "8-bit AdamW optimizer states (bitsandbytes; about the same speed, slightly different numerics)"},
    {"plan.why.change.micro_batch", "micro-batch 降到 {0}，梯度累积 {1} 步（全局批量不变，每步更慢）",
     "micro-batch {0} with {1} gradient-accumulation steps (the same global batch, slower per sample)"},
    {"plan.why.change.loss", "融合的交叉熵（不存 fp32 logits，损失不变）",
     "a fused cross-entropy (no fp32 logits, the same loss)"},
    {"plan.why.change.cpu_offload", "优化器状态放到 CPU 内存（DeepSpeed ZeRO-Offload；优化器步骤在 CPU 上，慢得多）",
     "optimizer states in host memory (DeepSpeed ZeRO-Offload; the optimizer step runs on the CPU, much slower)"},
    {"plan.why.sharding", "{0} 张卡之间用 {1}（装得下的通信最少的方式）。", "{1} across the {0} GPUs (the least communication that fits)."},
    {"plan.why.infer_layer_split", "模型按层切分到 {0} 张卡（transformers 的 device_map=\"auto\"、llama.cpp 默认的按层切分）：各卡依次计算，速度约等于一张卡，多出的卡只为装下模型。",
     "The model's layers are split across the {0} GPUs (transformers' device_map=\"auto\", llama.cpp's default layer split): the cards compute in turn, about as fast as one; the extra cards are there to hold the model."},
    {"plan.why.infer_tensor_parallel", "模型的每一层切分到 {0} 张卡上并行计算（张量并行，如 vLLM 的 tensor_parallel_size={0}）。",
     "Every layer is split across the {0} GPUs, which compute at once (tensor parallelism, e.g. vLLM's tensor_parallel_size={0})."},
    {"plan.why.infer_replicas", "{0} 张卡各放一份完整模型，各自处理一部分样本（数据并行）。",
     "Each of the {0} GPUs holds the whole model and works through its own share of the samples (data parallel)."},
    {"plan.why.sharding_requested", "按请求使用 {1}（{0} 张卡）。", "{1} across the {0} GPUs, as requested."},
    {"plan.why.tight", "只在安全余量内装得下（紧张）：估算误差的 90% 分位约 30%，可能 OOM；没有花费相近又不更慢的宽裕选项。",
     "It fits only inside the safety headroom (tight): the estimate's 90th-percentile error is about 30 %, so it may run out of memory; no comfortable option costs about the same without being slower."},
    {"plan.why.relaxed", "没有符合默认策略的选项，改用全部选项中最合适的。",
     "No option follows the default policy, so the best of all options is used."},
    {"plan.why.deadline", "为赶上 {0}的截止日期，改用更快的选项。",
     "Switched to a faster option to meet the deadline of {0}."},
    {"plan.warn.plan_needs_data", "请求没有 data（tokens 或 samples 与 epochs），无法估算时长，费用只含开机与存储。",
     "The request has no data (tokens, or samples with epochs): durations are unknown and costs cover only start-up and storage."},
    {"plan.warn.nothing_fits", "{0}阶段没有可用的选项。最近的可行方案：{1} ×{2}（{3}），约 {4} {5}，需要放宽：{6}。",
     "Nothing holds the {0} stage. The nearest option that would: {1} ×{2} on {3}, about {4} {5}, if you drop: {6}."},
    {"plan.warn.nothing_fits_anywhere", "{0}阶段没有可用的选项，放宽显卡、平台、范围和计费方式也不够：需要改变实验本身（LoRA / QLoRA、更短的序列或更小的模型）。",
     "Nothing holds the {0} stage, even without the pinned card, the platform list, the scope and the billing: the experiment itself must change (LoRA / QLoRA, a shorter sequence or a smaller model)."},
    // Stage names as the student reads them (the page's stage labels).
    {"plan.stage.debug", "调试", "Debug"},
    {"plan.stage.formal", "正式实验", "Formal experiments"},
    {"plan.stage.revision", "返修", "Revision"},
    {"plan.constraint.hardware", "指定的显卡", "the card you named"},
    {"plan.constraint.platforms", "你选的平台列表", "the platforms you chose"},
    {"plan.constraint.scope", "只用国内平台", "domestic platforms only"},
    {"plan.constraint.billing", "你选的计费方式", "the billing you chose"},
    // Billing names as a student reads them (the request spells them on-demand, monthly, ...).
    {"plan.billing.on-demand", "按量（按小时）", "on-demand (by the hour)"},
    {"plan.billing.spot", "竞价", "spot"},
    {"plan.billing.monthly", "包月", "monthly"},
    {"plan.billing.yearly", "包年", "yearly"},
    {"plan.billing.off-peak", "闲时", "off-peak"},
    {"plan.billing.weekly", "包周", "weekly"},
    {"plan.billing.daily", "包天", "daily"},
    {"plan.warn.cross_border", "{0} 以美元计费：需要能付外币的信用卡，数据从国内上传到海外通常更慢，价格按 {1} 的汇率换算。",
     "{0} bills in USD: it needs a card that pays abroad, uploads from China are usually slower, and its prices are converted at {1}."},
    {"plan.warn.no_option", "{0}阶段没有可用的选项：没有装得下任务且有价格的 GPU 与平台组合。",
     "No option for the {0} stage: no GPU and platform with a price holds the job."},
    {"plan.warn.memory_within_headroom", "{0} 只在安全余量内装得下：任务约 {1} GiB，卡有 {2} GiB，不足 {3}% 余量，可能 OOM。",
     "{0} holds the job only inside the safety headroom: about {1} GiB on a {2} GiB card, less than {3}% to spare; it may run out of memory."},
    {"plan.warn.big_card_small_job", "{0}（{1} GiB）对这个任务太大：只需约 {2} GiB，小卡就够，大卡浪费预算。",
     "{0} ({1} GiB) is far bigger than this job needs (about {2} GiB): a smaller card would do, the big one wastes budget."},
    {"plan.warn.package_price_as_hourly", "{0} 上 {1} 的 {2} {3}/小时是{4}套餐的折算价：你只用约 {5} 小时，实际每小时约 {6} {3}。",
     "The {2} {3}/h for {1} on {0} is a {4} package turned into an hourly figure: at your {5} h it costs about {6} {3} per hour used."},
    {"plan.warn.spot_interruptions", "{0}的抢占式实例会被回收（约每天 {1} 次）：被回收的运行会丢失，除非能从 checkpoint 恢复。请约每 {2} 分钟存一次 checkpoint，并写好断点续跑。",
     "Spot instances on {0} get reclaimed (about {1} a day): a reclaimed run is lost unless it resumes from a checkpoint. Save one about every {2} minutes and make the job resume on its own."},
    {"plan.warn.disk_after_stop.gap", "{0}阶段前实例停机约 {1}。",
     "The instance is stopped about {1} before the {0} stage."},
    {"plan.warn.disk_after_stop.gap_unknown", "{0}阶段通常在几周到几个月后（等审稿），其间实例停机。",
     "The {0} stage usually comes weeks or months later (the reviews), the instance stopped meanwhile."},
    {"plan.warn.disk_after_stop.cost", "{0} 的 {1} GB 数据盘停机也计费：约 {2} {3}（未计入总价）。",
     "{0} bills its {1} GB data disk while stopped: about {2} {3} (not in the total)."},
    {"plan.warn.disk_after_stop.per_month", "{0} 的 {1} GB 数据盘停机也计费：每月约 {2} {3}（未计入总价）。",
     "{0} bills its {1} GB data disk while stopped: about {2} {3} a month (not in the total)."},
    {"plan.warn.disk_after_stop.unpriced", "{0} 的 {1} GB 数据盘停机也计费，单价未知。",
     "{0} bills its {1} GB data disk while stopped, price unknown."},
    {"plan.warn.disk_after_stop.unknown", "{0} 停机时是否对 {1} GB 数据盘计费未知。",
     "Whether {0} bills the {1} GB data disk while stopped is unknown."},
    {"plan.warn.disk_after_stop.wiped", "{0} 连续停机 {1} 天会释放实例并清空数据：第 {1} 天前拷走数据或开机。",
     "{0} erases an instance stopped {1} days in a row: copy the data off or start it before day {1}."},
    {"plan.why.shrunk", "可先跑缩小版（隐藏层 {0} → {1}，同样比例的数据）：{2} ×{3}（{4}）约 {5} {6}；只查代码错误，显存仍以完整调试为准。",
     "A shrunk run first (hidden {0} → {1}, the same share of data): about {5} {6} on {2} ×{3} ({4}); it finds code bugs only, the full-size debug checks the memory."},
    {"warn.input_ignored", "推理不训练：{0} 对推理没有作用，已忽略。",
     "Inference trains nothing: {0} has no effect on it and is ignored."},
    {"warn.micro_batch_absurd", "每张卡的 micro-batch 为 {0}，远超常见范围（1–{1}）：请确认这是每卡每步的样本数，而不是数据集大小或全局批量。",
     "A micro-batch of {0} per GPU is far beyond the usual range (1–{1}): check that it is the samples per GPU per step, not the dataset size or the global batch."},
    {"plan.warn.spot_near_deadline", "截止日期（{0}）临近时不要完全依赖抢占式实例：一次回收就可能赶不上。",
     "Do not rely on spot instances this close to the deadline ({0}): one reclaim can make you miss it."},
    {"plan.warn.queue_before_deadline", "{0}排队时间不可控，方案的用时没有算排队：截止日期（{1}）前能否开跑取决于队列，请备一个按量租用的选项。",
     "{0} has a queue whose wait the plan's time does not count: whether the runs start before the deadline ({1}) depends on it; keep an on-demand option ready."},
    {"plan.warn.data_loader_bound", "{0}每张卡只配 {1} 个 CPU 核，而喂饱一张 {2} 解码和增强图片约需 {3} 个：GPU 会等数据，用时已按 CPU 的速度算。可以把图片预先缩小、用 DALI 在 GPU 上解码，或选 CPU 核更多的实例。",
     "{0} gives each card {1} CPU cores, but keeping one {2} fed with decoded, augmented images takes about {3}: the GPU waits for data, and the time is priced at the CPU's pace. Pre-resize the images, decode on the GPU with DALI, or pick an instance with more cores."},
    {"plan.warn.long_upload", "上传 {0} GB 数据约需 {1} 小时（{2} Mbit/s）：先压缩打包，用断点续传工具上传，上传时不要挂 GPU。",
     "Uploading {0} GB takes about {1} h at {2} Mbit/s: compress and pack it first, use a resumable tool, and upload with no GPU attached."},
    {"plan.warn.disk_bills_after_release", "{0} 的数据盘在实例释放后仍计费：{1} GB 每月约 {2} {3}；训练完拷走结果并删除云盘。",
     "{0} keeps billing disks after the instance is released: {1} GB costs about {2} {3} a month; copy the results off and delete the disk."},
    {"plan.warn.disk_bills_after_release_unpriced", "{0} 的数据盘在实例释放后仍计费（{1} GB，单价未知）；训练完拷走结果并删除云盘。",
     "{0} keeps billing disks after the instance is released ({1} GB, price unknown); copy the results off and delete the disk."},
    {"plan.warn.debug_over_share", "调试阶段占预算的 {0}%，超过建议的 {1}%：减少调试次数或数据比例。",
     "Debugging takes {0}% of the budget, above the advised {1}%: fewer debug runs or a smaller data fraction."},
    {"plan.warn.deadline_missed", "计划需要约 {0}，超过 {1} 的截止日期，即使用最快的选项。",
     "The plan needs about {0}, past the deadline of {1}, even with the fastest options."},
    {"plan.change.qlora", "改用 QLoRA（4-bit 基座 + LoRA）。", "Use QLoRA (4-bit base model plus LoRA)."},
    {"plan.change.grad-accumulation", "micro-batch 从 {0} 降到 1，用梯度累积保持等效 batch，换更小更便宜的卡。",
     "Lower the micro-batch from {0} to 1 and keep the effective batch with gradient accumulation, on a smaller, cheaper card."},
    {"plan.change.spot", "正式实验和返修改用抢占式实例，并做好 checkpoint。",
     "Use spot instances with checkpoints."},
    {"plan.change.fewer-runs", "把每个阶段的运行次数减半。", "Halve the number of runs in each stage."},
    {"plan.change.campus", "把实验放到 {0}。", "Run the experiments on {0}."},
    {"plan.change.campus_unpriced", "申请校级或区域算力平台（{0}）的配额：免费或极低价，最多可省 {1} {2}，但要排队、申请周期长。",
     "Apply for quota on a campus or regional computing centre ({0}): free or nearly so, saving up to {1} {2}, but with queues and a long application."},
    {"plan.change.saving", "可省约 {0} {1}，总计约 {2} {1}。", "Saves about {0} {1}, for a total of about {2} {1}."},
    {"plan.change.lora", "改用 LoRA（冻结基座，只训练低秩适配器；不是同一种实验）。", "Use LoRA (a frozen base with low-rank adapters; not the same experiment)."},
    {"plan.change.shorter-sequence", "把序列长度减半到 {0}（改变了实验）。", "Halve the sequence length to {0} (this changes the experiment)."},
    {"plan.reference.as_low_as", "可能低至 {0} {1}（{2} 的{3} {4} {1}/卡时，{5}，未核实），不作为方案的费用。",
     "May be as low as {0} {1} ({2}'s {3} of {4} {1} per card-hour, {5}, unverified); not counted as the plan's cost."},
    {"plan.reference.floor", "起价（最便宜的挂牌）", "'from' price (the cheapest listing)"},
    {"plan.reference.promo", "促销价", "promotional price"},
    {"plan.reference.spot", "抢占式价格", "spot price"},
    {"plan.reference.low", "低可信度报价", "low-confidence price"},
    {"plan.warn.storage_price_unknown", "{0} 的数据盘单价未收录：{1} GB 存 {2} 可能要 0–{3} {4}（按已收录平台最高的 {5} {4}/GB/月估算），未计入方案。",
     "{0}'s disk price is not in the catalog: {1} GB kept {2} could cost 0-{3} {4} (at the dearest recorded price, {5} {4} per GB-month), not counted in the plan."},
    {"plan.warn.billing_granularity_unknown", "{0} 的计费粒度未查到：按整小时计费估算。",
     "{0}'s billing granularity was not found: whole hours are assumed."},
    {"plan.change.makes_feasible", "这样所有阶段都有可用的选项，总计约 {0} {1}。", "Then every stage has an option, for a total of about {0} {1}."},
    {"plan.advice.small_budget", "预算在 5000 元以内：优先保证核心实验的算力，减少无意义的模型规模试探。",
     "Budget under 5000 CNY: keep the compute for the core experiments and skip exploratory model-size sweeps."},
    {"plan.advice.upload_cpu_only", "在 {0} 用无卡模式上传约 {1} 小时只需约 {2} {3}，挂着 GPU 上传要约 {4} {3}。",
     "On {0}, uploading for about {1} h in GPU-less mode costs about {2} {3}; with the GPUs attached it would cost about {4} {3}."},
    {"plan.advice.campus_queue_priority",
     "校级算力平台常按队列优先级收费，优先级越高越贵：例如{0}（{1} 年的价目）低 / 普通 / 高优先级分别为 {2} / {3} / {4} {5}/卡时。低优先级便宜但排队更久：能等的调试和消融实验放低优先级，赶截止日期时再用高优先级。",
     "Campus centres often price by queue priority, and priority costs more: {0} ({1} price list) charges {2} / {3} / {4} {5} per card-hour for low / normal / high priority. A low-priority queue is cheaper but waits longer: put debugging and ablations that can wait there, and pay for high priority when a deadline is near."},
    {"plan.advice.upload_without_gpu", "上传数据时用不挂 GPU 的实例（如 AutoDL 的无卡模式）或对象存储中转，别让 GPU 空转计费。",
     "Upload data on an instance with no GPU attached (e.g. AutoDL's GPU-less mode) or through object storage, so no GPU bills while you wait."},
    // --- honest billing and durations
    {"plan.why.package_forced", "按你选择的{0}套餐计费。", "Billed as a {0} package, as you asked."},
    {"plan.warn.package_costs_more",
     "你选择的{0}套餐按整段计费，这次用量要约 {1} {3}；按量（按小时）计费约 {2} {3}。计划保留你的选择；改为按量计费可省约 {4} {3}。",
     "The {0} package you chose bills whole periods: about {1} {3} for this use, against about {2} {3} on-demand (by the hour). The plan keeps your choice; on-demand would save about {4} {3}."},
    {"plan.warn.billing_unavailable",
     "所选平台中没有提供{0}计费的报价（有的是：{1}）。换一种计费方式、加入其他平台，或填入你拿到的{0}报价（页面“选平台”一步，或请求的 prices）。",
     "No platform in scope offers {0} billing (what they offer: {1}). Choose another billing, add platforms, or give the {0} quote you have (the page's platform step, or the request's prices)."},
    {"plan.warn.billing_unavailable_none",
     "所选平台中没有任何有价格的报价：填入你拿到的报价（页面“选平台”一步，或请求的 prices），或加入其他平台。",
     "No platform in scope has any priced offer: give the quote you have (the page's platform step, or the request's prices), or add platforms."},
    {"duration.days", "{0} 天", "{0} days"},
    {"duration.hours", "{0} 小时", "{0} h"},
    {"duration.minutes", "{0} 分钟", "{0} min"},
    {"duration.under_a_minute", "不到 1 分钟", "under a minute"},
};

const Template* find(std::string_view code) {
  for (const auto& t : kTemplates)
    if (t.code == code) return &t;
  return nullptr;
}

}  // namespace

std::string message(Locale locale, std::string_view code, std::initializer_list<std::string_view> args) {
  const Template* t = find(code);
  return fill_template(t ? (locale == Locale::en ? t->en : t->zh) : code, args);
}

std::string fill_template(std::string_view pattern, std::initializer_list<std::string_view> args) {
  std::string out;
  out.reserve(pattern.size() + 32);
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '{' && i + 2 < pattern.size() && pattern[i + 2] == '}' && pattern[i + 1] >= '0' &&
        pattern[i + 1] <= '9') {
      size_t k = static_cast<size_t>(pattern[i + 1] - '0');
      if (k < args.size()) out += args.begin()[k];
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
