// One table of optimizer states (estimate/optimizer_states.h): the bytes
// memory holds and the bytes a step moves are both derived from its rows, and
// both estimators read them.
#include <gtest/gtest.h>

#include <string>

#include "estimate/optimizer_states.h"
#include "gpuplan/catalog.h"
#include "gpuplan/memory.h"
#include "gpuplan/request.h"
#include "gpuplan/throughput.h"

namespace gpuplan {
namespace {

constexpr Optimizer kAll[] = {Optimizer::adamw, Optimizer::adamw_8bit, Optimizer::sgd, Optimizer::sgd_momentum,
                              Optimizer::adafactor};

Request request(const std::string& optimizer, const std::string& precision) {
  auto r = parse_request(R"({"model":{"preset":"llama-3.2-1b"},"workload":{"optimizer":")" + optimizer +
                             R"(","precision":")" + precision + R"("}})",
                         embedded_catalog());
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.value();
}

double component(const MemoryEstimate& e, const std::string& id) {
  for (const auto& c : e.components)
    if (c.id == id) return c.bytes;
  return 0;
}

// The published figures: AdamW holds two states in the parameter dtype (8 B
// at fp32) and moves 32 B a step with fp32 master weights (read p, g, m, v;
// write p, m, v; the half copies); 8-bit AdamW two 1-byte states with an
// fp32 absmax per 2048 and 20 B moved; SGD none and 12 B (read p, g, write p);
// momentum one state and 20 B; Adafactor 2/hidden of a state and 16 B.
TEST(OptimizerStates, HeldAndMovedAreThePublishedFigures) {
  ModelSpec m;
  m.hidden = 2048;
  EXPECT_DOUBLE_EQ(optimizer_state_bytes_per_param(Optimizer::adamw, 4, m), 8);
  EXPECT_DOUBLE_EQ(optimizer_state_bytes_per_param(Optimizer::adamw, 2, m), 4);
  EXPECT_DOUBLE_EQ(optimizer_state_bytes_per_param(Optimizer::adamw_8bit, 4, m), 2 * (1 + 4.0 / 2048));
  EXPECT_DOUBLE_EQ(optimizer_state_bytes_per_param(Optimizer::sgd, 4, m), 0);
  EXPECT_DOUBLE_EQ(optimizer_state_bytes_per_param(Optimizer::sgd_momentum, 4, m), 4);
  EXPECT_DOUBLE_EQ(optimizer_state_bytes_per_param(Optimizer::adafactor, 4, m), 4 * 2.0 / 2048);
  const double moved[] = {32, 20, 12, 20, 16};
  for (int i = 0; i < 5; ++i) {
    EXPECT_DOUBLE_EQ(optimizer_step_bytes_per_param(kAll[i], Precision::bf16_mixed), moved[i]) << i;
    EXPECT_DOUBLE_EQ(optimizer_step_bytes_per_param(kAll[i], Precision::bf16_true), moved[i] / 2) << i;
  }
}

// Every state held is read and written by the step: what a step moves beyond
// the weight update and the half copies is twice the full states it holds
// (block scales and factored moments aside).
TEST(OptimizerStates, AStepReadsAndWritesEveryStateItHolds) {
  ModelSpec wide;
  wide.hidden = 1 << 30;  // factored moments vanish
  for (Optimizer o : kAll) {
    const OptimizerStates& row = optimizer_states(o);
    EXPECT_EQ(row.optimizer, o);
    const double held = optimizer_state_bytes_per_param(o, 4, wide) - row.full_states * row.block_scale_bytes;
    const double moved = optimizer_step_bytes_per_param(o, Precision::fp32) - 12 - row.half_copy_bytes;
    EXPECT_NEAR(moved, 2 * held, 1e-6) << int(o);
  }
}

// Both estimators read the table: memory's `optimizer` component is the
// trainable parameters times the bytes held, and the step's optimizer time
// scales with the bytes moved.
TEST(OptimizerStates, MemoryAndTimeBothReadTheTable) {
  const Gpu* gpu = embedded_catalog().find_gpu("a100-sxm4-80g");
  ASSERT_NE(gpu, nullptr);
  const Request adamw = request("adamw", "bf16-mixed");
  const double adamw_seconds = estimate_throughput(adamw.model, adamw.workload, *gpu, 1).step.optimizer_seconds;
  ASSERT_GT(adamw_seconds, 0);
  for (const char* name : {"adamw", "adamw-8bit", "sgd", "sgd-momentum", "adafactor"}) {
    const Request q = request(name, "bf16-mixed");
    const double held = component(estimate_memory(q.model, q.workload), "optimizer");
    EXPECT_NEAR(held, q.model.params * optimizer_state_bytes_per_param(q.workload.optimizer, 4, q.model),
                1e-9 * q.model.params)
        << name;
    const double seconds = estimate_throughput(q.model, q.workload, *gpu, 1).step.optimizer_seconds;
    EXPECT_NEAR(seconds / adamw_seconds,
                optimizer_step_bytes_per_param(q.workload.optimizer, Precision::bf16_mixed) / 32, 1e-12)
        << name;
  }
}

}  // namespace
}  // namespace gpuplan
