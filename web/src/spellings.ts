// The contract's enum spellings for the page, generated from the C++ tables
// beside each enum (core/include/gpuplan/spelling.h) by
// tests/core/spellings_test.cpp, which fails while this file differs from
// them. Do not edit; rewrite it with
//   GPUPLAN_WRITE_SPELLINGS=1 build/native/bin/gpuplan_tests --gtest_filter=Spellings.PageFileIsCurrent
// Each list is in its table's order; a precision list starts with the mode's default.
export const MODE = ['train', 'infer', 'science'] as const;
export const METHOD = ['full', 'lora', 'qlora'] as const;
export const PRECISION_TRAIN = ['bf16-mixed', 'fp32', 'fp16-mixed', 'bf16-true'] as const;
export const PRECISION_INFER = ['bf16', 'fp32', 'fp16', 'int8', 'nf4', 'int4'] as const;
export const OPTIMIZER = ['adamw', 'adamw-8bit', 'sgd', 'sgd-momentum', 'adafactor'] as const;
export const SHARDING = ['none', 'ddp', 'zero1', 'zero2', 'zero3'] as const;
export const LORA_TARGETS = ['qv', 'attention', 'all-linear'] as const;
export const LOSS = ['standard', 'chunked', 'fused'] as const;
export const STACK = ['eager', 'optimized', 'vllm', 'llama.cpp'] as const;
export const MODEL_KIND = ['decoder', 'encoder', 'encoder-decoder', 'cnn', 'vlm'] as const;
export const STAGE = ['debug', 'formal', 'revision'] as const;
export const BILLING = ['on-demand', 'spot', 'monthly', 'yearly', 'off-peak', 'weekly', 'daily'] as const;
export const PACKAGE_BILLING = ['monthly', 'yearly', 'weekly', 'daily'] as const;
export const PLATFORM_KIND = ['cloud', 'marketplace', 'campus'] as const;
export const SCIENCE_KIND = ['md', 'cfd', 'fem', 'other'] as const;
export const SCIENCE_PRECISION = ['fp64', 'fp32', 'mixed'] as const;
export const SCIENCE_BOUND = ['compute', 'bandwidth'] as const;
export const RATE_UNIT = ['ns/day', 'steps/s', 'hours'] as const;
