// Request parsing: every field of contract v1 with its default (docs/api.md),
// and the checks that catch contradictory input before any estimate is made.
#include "gpuplan/request.h"

#include <cmath>
#include <limits>

#include "cnn_architecture.h"
#include "cnn_architecture_json.h"
#include "gpuplan/memory.h"
#include "gpuplan/throughput.h"
#include "json_reader.h"
#include "model_shapes.h"
#include "messages.h"
#include "science_request.h"

namespace gpuplan {
namespace {

constexpr size_t kMaxRequestBytes = 1 << 20;  // 1 MiB: a request is a form, not a data set
constexpr int kMaxDepth = 32;
constexpr int kMaxCount = 1 << 20;

Locale read_locale(const nlohmann::json& root) {
  auto it = root.find("locale");
  if (it != root.end() && it->is_string() && it->get<std::string>().rfind("en", 0) == 0) return Locale::en;
  return Locale::zh_CN;
}

void fail_inconsistent(Locale l, const std::string& path, const std::string& why) {
  fail(l, "inconsistent", path, message(l, "inconsistent", {path, why}));
}

ModelSpec read_model(const Reader& r, const Catalog& catalog) {
  Locale l = r.locale();
  ModelSpec m;
  if (auto preset = r.string("preset")) {
    const ModelSpec* found = catalog.find_model(*preset);
    if (!found) {
      std::string p = r.child_path("preset");
      fail(l, "unknown_preset", p, message(l, "unknown_preset", {p, describe(r.json()["preset"])}));
    }
    m = *found;
  }
  if (auto k = r.choice("kind", {"decoder", "encoder", "encoder-decoder", "cnn"})) m.kind = ModelKind(*k);
  if (auto v = r.number("params", 1, 1e14)) m.params = *v;
  if (auto v = r.integer("layers", 1, 1000)) m.layers = *v;
  if (auto v = r.integer("hidden", 1, 1 << 20)) m.hidden = *v;
  if (auto v = r.integer("heads", 1, 4096)) m.heads = *v;
  if (auto v = r.integer("kv_heads", 1, 4096)) m.kv_heads = *v;
  if (auto v = r.integer("ffn", 1, 1 << 22)) m.ffn = *v;
  if (auto v = r.integer("vocab", 1, 1 << 24)) m.vocab = *v;
  const std::optional<bool> gated = r.boolean("gated_mlp");
  if (gated) m.gated_mlp = *gated;
  if (auto v = r.boolean("tied_embeddings")) m.tied_embeddings = *v;
  if (auto v = r.integer("experts", 1, 1024)) m.experts = *v;
  if (auto v = r.integer("experts_per_token", 1, 1024)) m.experts_per_token = *v;
  if (auto v = r.integer("head_dim", 1, 4096)) m.head_dim = *v;
  const std::optional<int> reference_size = r.integer("reference_image_size", 8, 16384);
  // A network's own published dimensions (kind cnn; fields in
  // docs/memory-model.md): expanded layer by layer like a preset's, with its
  // parameter count and FLOPs from the expansion unless given.
  if (auto arch = r.object("architecture")) {
    if (m.kind != ModelKind::cnn)
      fail_inconsistent(l, r.child_path("architecture"), message(l, "why.architecture_kind"));
    m.architecture = read_cnn_architecture(*arch, ArchitectureSource::request);
    if (reference_size) m.reference_image_size = *reference_size;
    const CnnFootprint f = expand_cnn(m.architecture, m.reference_image_size, CnnPass{});
    if (!r.has("params")) m.params = f.params;
    if (!r.has("gflops_per_sample")) m.gflops_per_sample = 2 * f.macs / 1e9;
    m.activation_bytes_per_sample = f.saved_bytes;
    if (!r.string("preset")) {
      m.frozen_params = 0;
      m.frozen_gflops_per_sample = 0;
    }
  }
  // An explicit activation figure overrides a preset's architecture: the
  // user's own network, scaled by image area (docs/memory-model.md).
  if (auto v = r.number("activation_bytes_per_sample", 1, 1e13)) {
    m.activation_bytes_per_sample = *v;
    m.architecture = CnnArchitecture{};
  }
  if (reference_size) m.reference_image_size = *reference_size;
  if (auto v = r.number("gflops_per_sample", 0, 1e9)) m.gflops_per_sample = *v;

  if (m.kv_heads == 0) m.kv_heads = m.heads;
  // A model must be describable: a preset, or params plus the dimensions the
  // memory model needs (a CNN needs its measured activation figure instead).
  if (m.kind == ModelKind::cnn) {
    if (m.params <= 0)
      fail(l, "missing_field", r.child_path("params"),
           message(l, "missing_field", {r.child_path("params"), message(l, "why.model_needs_dims")}));
    if (m.activation_bytes_per_sample <= 0)
      fail(l, "missing_field", r.child_path("activation_bytes_per_sample"),
           message(l, "missing_field", {r.child_path("activation_bytes_per_sample"), message(l, "why.cnn_needs_activation")}));
    return m;
  }
  const char* required[] = {"params", "layers", "hidden", "heads", "vocab"};
  const double values[] = {m.params, double(m.layers), double(m.hidden), double(m.heads), double(m.vocab)};
  for (size_t i = 0; i < 5; ++i) {
    if (values[i] <= 0) {
      std::string p = r.child_path(required[i]);
      fail(l, "missing_field", p, message(l, "missing_field", {p, message(l, "why.model_needs_dims")}));
    }
  }
  if (m.ffn == 0) m.ffn = 4 * m.hidden;
  // Explicit dimensions without gated_mlp: classify the MLP from the
  // published parameter count (3 matrices gated, 2 plain; model_shapes.h).
  if (!gated && !r.string("preset")) m.gated_mlp = implied_mlp_matrices(m) > 2.5;
  if (m.hidden % m.heads != 0)
    fail_inconsistent(l, r.child_path("heads"),
                      message(l, "why.heads_divide_hidden", {std::to_string(m.hidden), std::to_string(m.heads)}));
  if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0)
    fail_inconsistent(l, r.child_path("kv_heads"),
                      message(l, "why.kv_heads_divide_heads", {std::to_string(m.kv_heads), std::to_string(m.heads)}));
  if (m.experts_per_token > m.experts)
    fail_inconsistent(l, r.child_path("experts_per_token"),
                      message(l, "why.experts_per_token", {std::to_string(m.experts_per_token), std::to_string(m.experts)}));
  double embedding = double(m.vocab) * m.hidden;
  if (m.params < embedding)
    fail_inconsistent(l, r.child_path("params"),
                      message(l, "why.params_too_small", {format_number(m.params), format_number(embedding)}));
  return m;
}

Workload read_workload(const Reader* r, const ModelSpec& model) {
  Workload w;
  if (model.kind != ModelKind::decoder) w.seq_len = 512;
  if (r) {
    Locale l = r->locale();
    if (auto v = r->choice("mode", {"train", "infer", "science"})) w.mode = Mode(*v);
    if (w.mode == Mode::infer) w.precision = Precision::bf16;
    if (auto v = r->choice("method", {"full", "lora", "qlora"})) w.method = Method(*v);
    if (auto v = r->choice("precision",
                           {"fp32", "fp16-mixed", "bf16-mixed", "bf16-true", "fp16", "bf16", "int8", "nf4", "int4"})) {
      w.precision = Precision(*v);
      bool train_regime = *v <= size_t(Precision::bf16_true);
      bool infer_format = *v == 0 || *v >= size_t(Precision::fp16);
      if ((w.mode == Mode::train && !train_regime) || (w.mode == Mode::infer && !infer_format)) {
        std::string p = r->child_path("precision");
        fail(l, "not_for_mode", p,
             message(l, "not_for_mode", {p, describe(r->json()["precision"]), w.mode == Mode::train ? "train" : "infer"}));
      }
    }
    if (auto v = r->choice("optimizer", {"adamw", "adamw-8bit", "sgd", "sgd-momentum", "adafactor"}))
      w.optimizer = Optimizer(*v);
    if (auto v = r->integer("micro_batch", 1, 65536)) w.micro_batch = *v;
    if (auto v = r->integer("seq_len", 1, 1 << 24)) w.seq_len = *v;
    if (auto v = r->integer("image_size", 8, 16384)) w.image_size = *v;
    if (auto v = r->boolean("grad_checkpointing")) w.grad_checkpointing = *v;
    if (auto v = r->boolean("flash_attention")) w.flash_attention = *v;
    if (auto v = r->boolean("tf32")) w.tf32 = *v;
    if (auto lora = r->object("lora")) {
      if (auto v = lora->integer("rank", 1, 65536)) w.lora.rank = *v;
      if (auto v = lora->choice("targets", {"qv", "attention", "all-linear"})) w.lora.targets = LoraTargets(*v);
      if (w.lora.rank >= model.hidden && model.kind != ModelKind::cnn)
        fail_inconsistent(l, lora->child_path("rank"),
                          message(l, "why.lora_rank_hidden", {std::to_string(w.lora.rank), std::to_string(model.hidden)}));
    }
    if (auto v = r->integer("kv_cache_bits", 2, 32)) {
      if (*v != 4 && *v != 8 && *v != 16 && *v != 32) {
        std::string p = r->child_path("kv_cache_bits");
        fail(l, "unknown_value", p, message(l, "unknown_value", {p, "4, 8, 16, 32", describe(r->json()["kv_cache_bits"])}));
      }
      w.kv_cache_bits = *v;
    }
    if (auto v = r->integer("gpus", 1, 4096)) w.gpus = *v;
    if (auto v = r->choice("sharding", {"none", "ddp", "zero1", "zero2", "zero3", "fsdp"})) {
      w.sharding = *v == 5 ? Sharding::zero3 : Sharding(*v);
      w.sharding_requested = true;  // the planner keeps it (issue #13)
    }
    if (auto v = r->boolean("cpu_offload")) w.cpu_offload = *v;
    // Memory fields (docs/api.md, "Memory fields").
    if (auto v = r->choice("loss", {"standard", "chunked", "fused"})) w.loss = Loss(*v);
    if (auto v = r->boolean("torch_compile")) w.torch_compile = *v;
    if (auto v = r->boolean("optimizer_in_backward")) w.optimizer_in_backward = *v;
    if (auto v = r->boolean("activation_offload")) w.activation_offload = *v;
    if (auto v = r->integer("grad_accumulation", 1, 1 << 20)) w.grad_accumulation = *v;
  }
  if (w.seq_len == 0) w.seq_len = 2048;
  // Several GPUs with no strategy named: plain data parallelism, what
  // torchrun + DDP (and HF Trainer) do by default.
  if (w.gpus > 1 && w.sharding == Sharding::none) w.sharding = Sharding::ddp;
  if (w.gpus == 1 && w.sharding == Sharding::ddp) w.sharding = Sharding::none;
  // LoRA trains low-rank adapters on linear projections (Hu et al. 2021). A
  // network whose architecture has none in the chosen target set (ResNet,
  // YOLOv8, DeepLabV3: convolutions only) would train nothing, and its
  // estimate would describe an empty run; say so instead. (A method other
  // than full is only ever read from a workload section, so r is set.)
  if (w.mode == Mode::train && w.method != Method::full && model.kind == ModelKind::cnn &&
      model.architecture.family != CnnFamily::none) {
    if (lora_trainable_params(model, w.lora) <= 0)
      fail_inconsistent(r->locale(), "workload.method", message(r->locale(), "why.lora_needs_linear", {model.name.empty() ? model.id : model.name}));
  }
  return w;
}

DataSize read_data(const Reader& r) {
  DataSize d;
  if (auto v = r.number("tokens", 0, 1e16)) d.tokens = *v;
  if (auto v = r.number("samples", 0, 1e13)) d.samples = *v;
  if (auto v = r.number("epochs", 0, 1e6)) d.epochs = *v;
  return d;
}

// The user's measured speed (docs/api.md, Time fields): checked, turned into
// samples per second, and into the factor every estimate is multiplied by.
void read_baseline(const Reader& r, Request& q, const Catalog& catalog) {
  Locale l = r.locale();
  Baseline b;
  b.gpu = r.string("gpu").value_or("");
  const Gpu* g = catalog.find_gpu(b.gpu);
  if (!g) {
    std::string p = r.child_path("gpu");
    fail(l, "unknown_gpu", p, message(l, "unknown_gpu", {p, describe(r.json().value("gpu", nlohmann::json()))}));
  }
  if (auto v = r.integer("count", 1, kMaxCount)) b.count = *v;
  if (auto v = r.number("seconds_per_epoch", 1e-3, 1e9)) b.seconds_per_epoch = *v;
  if (auto v = r.number("samples_per_s", 1e-9, 1e12)) b.samples_per_s = *v;
  if (auto v = r.number("tokens_per_s", 1e-9, 1e15)) b.tokens_per_s = *v;
  double samples_per_s = b.samples_per_s;
  if (samples_per_s <= 0 && b.tokens_per_s > 0 && q.workload.seq_len > 0) samples_per_s = b.tokens_per_s / q.workload.seq_len;
  if (samples_per_s <= 0 && b.seconds_per_epoch > 0) {
    if (!q.data || q.data->samples <= 0) {
      fail(l, "missing_field", "data.samples", message(l, "missing_field", {"data.samples", message(l, "why.baseline_rate")}));
    }
    samples_per_s = q.data->samples / b.seconds_per_epoch;
  }
  if (samples_per_s <= 0)
    fail(l, "missing_field", r.child_path("samples_per_s"),
         message(l, "missing_field", {r.child_path("samples_per_s"), message(l, "why.baseline_rate")}));
  if (auto v = r.integer("micro_batch", 1, 65536)) b.micro_batch = *v;
  Workload measured = q.workload;
  if (b.micro_batch > 0) measured.micro_batch = b.micro_batch;
  q.workload.rate_scale = baseline_scale(q.model, measured, *g, b.count, samples_per_s);
  q.baseline = b;
}

void read_planning(const Reader& root, Request& q, const Catalog& catalog) {
  Locale l = q.locale;
  // prefs.scope's default follows the locale (contract v1.1): a zh-CN user rents at home.
  q.prefs.scope = l == Locale::zh_CN ? Scope::cn : Scope::global;
  if (const auto* stages = root.array("stages")) {
    for (size_t i = 0; i < stages->size(); ++i) {
      Reader s = element(*stages, i, "stages", l);
      StageRequest st;
      if (auto v = s.choice("stage", {"debug", "formal", "revision"})) st.stage = Stage(*v);
      if (auto v = s.integer("runs", 0, 100000)) st.runs = *v;
      // The seeds' debug stage runs on about a tenth of the data (seed 003).
      if (st.stage == Stage::debug) st.data_fraction = 0.1;
      if (auto v = s.number("data_fraction", 0, 1)) st.data_fraction = *v;
      q.stages.push_back(st);
    }
  }
  if (auto b = root.object("budget")) {
    Budget budget;
    if (auto v = b->number("amount", 0, 1e12)) budget.amount = *v;
    if (auto v = b->choice("currency", {"CNY", "USD"})) budget.currency = *v == 0 ? "CNY" : "USD";
    q.budget = budget;
  }
  if (auto p = root.object("prefs")) {
    if (auto v = p->choice("billing", {"on-demand", "spot", "monthly", "yearly", "off-peak"})) {
      static const char* names[] = {"on-demand", "spot", "monthly", "yearly", "off-peak"};
      q.prefs.billing = names[*v];
    }
    if (const auto* list = p->array("platforms")) {
      for (size_t i = 0; i < list->size(); ++i) {
        std::string path = p->child_path("platforms") + "[" + std::to_string(i) + "]";
        const auto& id = (*list)[i];
        if (!id.is_string() || !catalog.find_platform(id.get<std::string>()))
          fail(l, "unknown_platform", path, message(l, "unknown_platform", {path, describe(id)}));
        q.prefs.platforms.push_back(id.get<std::string>());
      }
    }
    if (auto v = p->number("deadline_days", 0, 3650)) q.prefs.deadline_days = *v;
    if (auto v = p->boolean("education")) q.prefs.education = *v;
    if (auto v = p->number("dataset_gb", 0, 1e7)) q.prefs.dataset_gb = *v;
    if (auto v = p->number("storage_gb", 0, 1e7)) q.prefs.storage_gb = *v;
    if (auto v = p->number("upload_mbps", 0.01, 1e6)) q.prefs.upload_mbps = *v;
    if (auto v = p->integer("group_size", 1, 1000)) q.prefs.group_size = *v;
    if (auto v = p->choice("scope", {"cn", "global"})) q.prefs.scope = Scope(*v);
  }
  if (auto b = root.object("buy")) {
    BuyOption buy;
    if (auto v = b->number("price", 0, 1e9)) buy.price = *v;
    if (auto v = b->choice("currency", {"CNY", "USD"})) buy.currency = *v == 0 ? "CNY" : "USD";
    if (auto v = b->number("watts", 0, 1e5)) buy.watts = *v;
    if (auto v = b->number("electricity_per_kwh", 0, 100)) buy.electricity_per_kwh = *v;
    if (auto v = b->number("resale_fraction", 0, 1)) buy.resale_fraction = *v;
    if (auto v = b->number("years", 0.1, 50)) buy.years = *v;
    q.buy = buy;
  }
  if (const auto* prices = root.array("prices")) {
    for (size_t i = 0; i < prices->size(); ++i) {
      Reader pr = element(*prices, i, "prices", l);
      UserPrice up;
      up.platform = pr.string("platform").value_or("");
      if (!catalog.find_platform(up.platform)) {
        std::string path = pr.child_path("platform");
        fail(l, "unknown_platform", path, message(l, "unknown_platform", {path, describe(pr.json().value("platform", nlohmann::json()))}));
      }
      up.gpu = pr.string("gpu").value_or("");
      if (!catalog.find_gpu(up.gpu)) {
        std::string path = pr.child_path("gpu");
        fail(l, "unknown_gpu", path, message(l, "unknown_gpu", {path, describe(pr.json().value("gpu", nlohmann::json()))}));
      }
      if (auto v = pr.number("per_gpu_hour", 0, 1e6)) up.per_gpu_hour = *v;
      if (auto v = pr.choice("currency", {"CNY", "USD"})) up.currency = *v == 0 ? "CNY" : "USD";
      if (auto v = pr.choice("billing", {"on-demand", "spot", "monthly", "yearly", "off-peak"})) up.billing = Billing(*v);
      q.prices.push_back(up);
    }
  }
}

}  // namespace

Result<Request> parse_request(std::string_view json_text, const Catalog& catalog) {
  Locale locale = Locale::zh_CN;
  try {
    nlohmann::json root = parse_json_text(json_text, locale, kMaxRequestBytes, kMaxDepth);
    if (!root.is_object())
      fail(locale, "wrong_type", "", message(locale, "wrong_type", {"request", message(locale, "type.object"), describe(root)}));
    locale = read_locale(root);
    Reader r(root, "", locale);
    Request q;
    q.locale = locale;
    if (auto v = r.string("locale"); v && *v != "zh-CN" && v->rfind("en", 0) != 0 && v->rfind("zh", 0) != 0)
      fail(locale, "unknown_value", "locale", message(locale, "unknown_value", {"locale", "zh-CN, en", describe(root["locale"])}));

    auto workload = r.object("workload");
    // Scientific computing is described by its own baseline, not by a network.
    bool science = false;
    if (workload) {
      auto mode = workload->json().find("mode");
      // The string compared as a string: json == "science" would link nlohmann's
      // comparison of every JSON type (0.9 KB of the page's wasm).
      science = mode != workload->json().end() && mode->is_string() && mode->get_ref<const std::string&>() == "science";
    }
    auto model = r.object("model");
    if (!model && !science)
      fail(locale, "missing_field", "model", message(locale, "missing_field", {"model", message(locale, "why.model_needs_dims")}));
    if (model) q.model = read_model(*model, catalog);
    q.workload = read_workload(workload ? &*workload : nullptr, q.model);
    if (science) {
      auto s = r.object("science");
      if (!s)
        fail(locale, "missing_field", "science", message(locale, "missing_field", {"science", message(locale, "why.science_baseline")}));
      q.science = read_science(*s, catalog);
    }

    if (auto h = r.object("hardware")) {
      Hardware hw;
      hw.gpu = h->string("gpu").value_or("");
      if (!catalog.find_gpu(hw.gpu)) {
        std::string p = h->child_path("gpu");
        fail(locale, "unknown_gpu", p, message(locale, "unknown_gpu", {p, describe(h->json().value("gpu", nlohmann::json()))}));
      }
      if (auto v = h->integer("count", 1, kMaxCount)) hw.count = *v;
      q.hardware = hw;
    }
    if (auto d = r.object("data")) q.data = read_data(*d);
    if (auto b = r.object("baseline")) read_baseline(*b, q, catalog);
    read_planning(r, q, catalog);
    return q;
  } catch (const InputError& e) {
    return e.error;
  } catch (const std::exception& e) {
    return Error{"internal", "", message(locale, "internal", {e.what()})};
  }
}

}  // namespace gpuplan
