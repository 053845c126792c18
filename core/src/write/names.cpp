#include "names.h"

namespace gpuplan {

const char* name_of(Mode v) {
  switch (v) {
    case Mode::train: return "train";
    case Mode::infer: return "infer";
    case Mode::science: return "science";
  }
  return "";
}

const char* name_of(Method v) {
  switch (v) {
    case Method::full: return "full";
    case Method::lora: return "lora";
    case Method::qlora: return "qlora";
  }
  return "";
}

const char* name_of(Precision v) {
  switch (v) {
    case Precision::fp32: return "fp32";
    case Precision::fp16_mixed: return "fp16-mixed";
    case Precision::bf16_mixed: return "bf16-mixed";
    case Precision::bf16_true: return "bf16-true";
    case Precision::fp16: return "fp16";
    case Precision::bf16: return "bf16";
    case Precision::int8: return "int8";
    case Precision::nf4: return "nf4";
    case Precision::int4: return "int4";
  }
  return "";
}

const char* name_of(Optimizer v) {
  switch (v) {
    case Optimizer::adamw: return "adamw";
    case Optimizer::adamw_8bit: return "adamw-8bit";
    case Optimizer::sgd: return "sgd";
    case Optimizer::sgd_momentum: return "sgd-momentum";
    case Optimizer::adafactor: return "adafactor";
  }
  return "";
}

const char* name_of(Sharding v) {
  switch (v) {
    case Sharding::none: return "none";
    case Sharding::ddp: return "ddp";
    case Sharding::zero1: return "zero1";
    case Sharding::zero2: return "zero2";
    case Sharding::zero3: return "zero3";
  }
  return "";
}

const char* name_of(LoraTargets v) {
  switch (v) {
    case LoraTargets::qv: return "qv";
    case LoraTargets::attention: return "attention";
    case LoraTargets::all_linear: return "all-linear";
  }
  return "";
}

const char* name_of(Billing v) {
  switch (v) {
    case Billing::on_demand: return "on-demand";
    case Billing::spot: return "spot";
    case Billing::monthly: return "monthly";
    case Billing::yearly: return "yearly";
    case Billing::off_peak: return "off-peak";
  }
  return "";
}

const char* name_of(Stage v) {
  switch (v) {
    case Stage::debug: return "debug";
    case Stage::formal: return "formal";
    case Stage::revision: return "revision";
  }
  return "";
}

}  // namespace gpuplan
