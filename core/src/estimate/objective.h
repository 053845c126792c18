// Training objectives beyond next-token SFT (request workload.objective):
// DPO, GRPO and PPO, composed from the plain memory and time estimates.
// Derivation and sources: docs/objectives.md.
#pragma once

#include "gpuplan/catalog.h"
#include "gpuplan/memory.h"
#include "gpuplan/request.h"
#include "gpuplan/throughput.h"

namespace gpuplan {

// Whether the objective keeps a frozen reference model in memory: its default
// (DPO, PPO yes; GRPO no) or rl.reference, and never with LoRA / QLoRA, where
// the base with its adapters disabled is the reference (TRL, PEFT).
// Whether the request trains with DPO, GRPO or PPO (phases beyond one SFT
// step): the estimators then compose objective_memory / objective_throughput.
bool has_objective_phases(const ModelSpec& m, const Workload& w);

bool holds_reference_copy(const Workload& w);
// Whether a reference forward runs each step at all (a copy, or the base
// with the adapters disabled).
bool runs_reference(const Workload& w);

// The training-phase workload of one policy micro-step: DPO's chosen and
// rejected sequences, RL's prompt + completion.
Workload policy_step_workload(const Workload& w);

MemoryEstimate objective_memory(const ModelSpec& m, const Workload& w);
Throughput objective_throughput(const ModelSpec& m, const Workload& w, const Gpu& g, int n);

}  // namespace gpuplan
