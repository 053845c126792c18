// Shapes of the catalog and the response as the page reads them (contract v1,
// docs/api.md). Everything beyond the contract's names is optional: other
// engineers add fields, and the page renders what is present.

export interface Range3 { low: number; typical: number; high: number }

// Catalog notes are either plain text or {"zh": ..., "en": ...}.
export type Localized = string | { zh?: string; en?: string };

export interface CatalogGpu {
  id: string; name: string; memory_bytes: number;
  arch?: string; segment?: string; launch_year?: number; sources?: string[];
  device_names?: string[]; // as nvidia-smi prints them (catalog/gpus.json)
}
export interface CatalogOffer {
  gpu: string; billing: string; per_gpu_hour?: Partial<Range3> | null; currency: string;
  as_of?: string; source?: string; confidence?: string; note?: string;
  // contract v1.1: list / floor / promo (a floor or promo has no typical).
  // A package (daily, weekly, monthly, yearly) may be quoted per period
  // instead of per hour (docs/catalog.md).
  price_kind?: string; per_period?: Partial<Range3> | null;
  // More than six months before the catalog's date, by the core's rule (the page's copy: catalog_profile.cpp).
  stale?: boolean;
}
export interface CatalogPlatform {
  id: string; name: string; name_zh?: string; kind: string; region?: string; currency?: string;
  billing_rules?: { granularity_seconds?: number; minimum_charge_seconds?: number; disk_bills_after_release?: boolean; packages?: string[] };
  queue_risk?: string; sources?: string[]; offers: CatalogOffer[];
  notes?: Localized;
  // docs/catalog.md: spot.discount is the typical fraction off on-demand.
  spot?: { available?: boolean; discount?: number; max_discount?: number; interruptions_per_hour?: number; notes?: Localized };
}
export interface CatalogModel {
  id: string; name?: string; kind: string; params: number;
  layers?: number; hidden?: number; heads?: number; kv_heads?: number; ffn?: number; vocab?: number;
  gated_mlp?: boolean;  // every transformer's (the verify script reads it)
  patch_size?: number;  // a vision transformer's (docs/api.md)
}
// catalog/scenarios.json (docs/scenarios.md): the page's first question.
export interface CatalogScenario {
  id: string; name: { zh?: string; en?: string }; explain?: { zh?: string; en?: string };
  request: Record<string, unknown>; sources?: string[];
}
export interface Catalog {
  version: string;
  scenarios?: CatalogScenario[];
  fx?: { cny_per_usd: number; as_of?: string; source?: string };
  gpus: CatalogGpu[]; platforms: CatalogPlatform[]; models: CatalogModel[];
}

// The response as core/src/write/ writes it (docs/api.md). No index
// signatures: tests/js/response_types.test.mjs type-checks every response the
// suites produce against these names, so a field the writer adds, renames or
// drops fails there until it is named here. Optional: what the writer leaves
// out in some responses.
export interface Component { id: string; bytes: number }
export interface StepBreakdown {
  communication: number; compute: number; exposed_communication: number; host: number;
  kernel_tail: number; memory: number; optimizer: number;
}
export interface Throughput {
  achieved_tflops: number; bandwidth_bound: boolean; baseline_scale?: number; compute_unit: string;
  fp32_peak_tflops: number; high_factor: number; low_factor: number; peak_tflops: number;
  phase_seconds?: { rollout: number; scoring: number; training: number };
  samples_per_s: number; scaling_efficiency: number; step_breakdown_seconds: StepBreakdown;
  step_seconds: number; tokens_per_s: number; utilization: number;
}
export interface GpuRow {
  id: string; fits: boolean; count: number; hours: number;
  hours_low: number; hours_high: number; memory_total_bytes: number;
  // vLLM's pre-allocated pool on this card (docs/api.md): what nvidia-smi shows.
  memory_engine_pool_bytes?: number;
  throughput: Throughput;
  max_micro_batch: number; max_seq_len: number;
  // contract v1.1: the planner's one verdict, and one run's cost on the
  // cheapest in-scope offer (with its platform and billing).
  fit: 'comfortable' | 'tight' | 'no'; cost?: number; platform?: string; billing?: string;
  offer?: OfferRef;
  // contract v1.2: seed 004's coefficient on the row's offer price (plan currency), and on the FP32 peak as the seed computes it.
  cost_effectiveness?: number; cost_effectiveness_fp32?: number;
  // docs/science.md: rate is in the baseline's unit (0 when the unit is hours).
  science?: { speedup: number; rate: number; fp64_ratio: number; fp64_starved: boolean };
}
// What a price is (contract v1.2): the core says it, the page shows it.
export interface OfferRef {
  platform: string; gpu: string; billing: string; price_kind: string; as_of: string;
  confidence: string; source: string; stale: boolean; derived: boolean;
}
export interface WorkloadChange { field: string; value: unknown }
// The lab's cards' power, when the lab charges it (docs/api.md, "Lab settings").
export interface Electricity {
  kwh: number; per_kwh: number; currency: string; watts_per_gpu: number; as_of: string; source: string; confidence: string;
}
// One way to run a stage: the chosen one's fields, and each alternative's and Pareto point's.
export interface StageOptionFields {
  gpu: string; count: number; platform: string; billing: string; hours: number; cost: number; wall_hours: number;
  gpus_per_run: number; parallel_runs: number; separate_rentals: boolean; price_per_gpu_hour: number;
  wait_hours: number; workload_changes: WorkloadChange[]; electricity?: Electricity;
}
export interface Alternative extends StageOptionFields { kind: string }
export interface SpotDetail {
  checkpoint_interval_hours: number; checkpoint_seconds: number; expected_interruptions: number;
  interruptions_assumed: boolean; interruptions_per_hour: number; overhead_fraction: number;
}
export interface PlanStage extends Partial<StageOptionFields> {
  stage: string; runs: number; feasible: boolean; cost: number; hours: number; share: number;
  data_fraction: number; upload_hours: number; wait_hours: number; why: string;
  workload_changes: WorkloadChange[]; alternatives: Alternative[]; pareto: StageOptionFields[];
  compute_cost?: number; storage_cost?: number; credit?: number; education_discount?: boolean; instances?: number;
  run_hours?: number; tight_memory?: boolean;
  // contract v1.1
  sharding?: string; fit?: string;
  // docs/api.md: per-GPU memory of one run as planned (workload_changes applied).
  memory_bytes?: number;
  // contract v1.2: the price the stage rests on, the cost range, a lower unverified price beside it
  offer?: OfferRef; cost_low?: number; cost_high?: number;
  reference?: { cost: number; message: string; offer: OfferRef; price_per_gpu_hour: number };
  spot?: SpotDetail;
  // docs/api.md, "Between stages" and "The shrunk debug run"
  disk_after_stop?: DiskAfterStop; shrunk?: StageOptionFields;
}
// The data disk a stage finds where an earlier stage left it, the instance stopped in between (null: not known).
export interface DiskAfterStop {
  platform: string; disk_gb: number; gap_days: number | null; bills: boolean | null; per_month: number | null;
  cost: number | null; wiped_after_days: number | null; wiped: boolean;
}
export interface PlanChange { code: string; patch?: Record<string, unknown>; saving: number; new_total: number; saving_is_upper_bound: boolean; message: string }
export interface RentVsBuy {
  gpu: string; gpu_hours: number; rent_cost: number; buy_cost: number; break_even_gpu_hours: number;
  utilization_to_break_even: number; cheaper: string; source: string; depreciation_per_year: number;
  electricity_per_kwh: number; purchase_per_gpu: number; rent_per_gpu_hour: number; watts_per_gpu: number;
}
export interface GroupRental {
  billing: string; gpu: string; gpus: number; group_gpu_hours: number; hourly_equivalent_per_month: number;
  machine_per_month: number; months: number; people: number; per_person_gpu_hours_per_month: number;
  per_person_per_month: number; platform: string; saving_fraction: number; utilization: number;
}
export interface Plan {
  category: string; category_advice: string; stages: PlanStage[]; total_cost: number; currency: string;
  total_cost_low: number; total_cost_high: number; billings?: string[];
  // The catalog's platforms in the request's scope (prefs.scope, prefs.platforms), catalog order.
  platforms?: string[];
  within_budget: boolean; feasible: boolean; wall_hours: number; meets_deadline: boolean; budget?: number; deadline_hours?: number;
  changes: PlanChange[]; advice: { code: string; message: string }[]; rent_vs_buy?: RentVsBuy; group?: GroupRental;
}
// docs/oom-doctor.md: present when the request names a card (`hardware`).
export interface OomRemedy {
  id: string; fits: boolean; total_bytes: number; quality_impact: string;
  time_factor: number; gpu_hours_factor: number; gradient_accumulation: number; message: string;
  patch: Record<string, unknown>;
}
export interface OomDoctor {
  gpu: string; count: number; fits: boolean; capacity_bytes: number; total_bytes: number;
  remedies: OomRemedy[]; speed_tips: { code: string; speedup?: number; message: string }[];
}

export interface PlanResponse {
  memory: {
    per_gpu: { allocated_bytes: number; reserved_bytes: number; total_bytes: number };
    components: Component[]; headroom: number; recommended_bytes: number; baseline_scale?: number;
  };
  gpus: GpuRow[];
  warnings: { code: string; message: string }[];
  plan?: Plan;
  oom_doctor?: OomDoctor;
  // The display currency and what one unit of each currency is in it (no entry: no rate, figures stay as they are).
  display: { currency: string; as_of?: string; rates: Record<string, number> };
}
export interface PlanError { error: { code: string; path: string; message: string } }

export interface Planner {
  plan(request: string): string;
  catalog(): string;
}
