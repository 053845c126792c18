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

export interface Component { id: string; bytes: number }
export interface GpuRow {
  id: string; fits: boolean; count: number; hours: number;
  hours_low?: number; hours_high?: number; memory_total_bytes?: number;
  throughput?: { samples_per_s?: number; tokens_per_s?: number; utilization?: number; achieved_tflops?: number; fp32_peak_tflops?: number; [k: string]: unknown };
  max_micro_batch?: number; max_seq_len?: number; reasons?: unknown;
  // contract v1.1: the planner's one verdict, and one run's cost on the
  // cheapest in-scope offer (with its platform and billing).
  fit?: 'comfortable' | 'tight' | 'no'; cost?: number; platform?: string; billing?: string;
  currency?: string; price_per_gpu_hour?: number; price_as_of?: string; offer?: OfferRef;
  // contract v1.2: seed 004's coefficient on the row's offer price (plan currency), and on the FP32 peak as the seed computes it.
  cost_effectiveness?: number; cost_effectiveness_fp32?: number;
  // docs/science.md: rate is in the baseline's unit (0 when the unit is hours).
  science?: { speedup?: number; rate?: number; fp64_ratio?: number; fp64_starved?: boolean };
  [k: string]: unknown;
}
// What a price is (contract v1.2): the core says it, the page shows it.
export interface OfferRef {
  platform?: string; gpu?: string; billing?: string; price_kind?: string; as_of?: string;
  confidence?: string; source?: string; stale?: boolean; derived?: boolean;
}

export interface PlanStage {
  stage: string; gpu?: string; count?: number; platform?: string; billing?: string;
  hours?: number; cost?: number; share?: number; wall_hours?: number; gpu_hours?: number; runs?: number;
  // contract v1.1
  sharding?: string; fit?: string; workload_changes?: { field: string; value: unknown }[];
  // docs/api.md: per-GPU memory of one run as planned (workload_changes applied).
  memory_bytes?: number; gpus_per_run?: number; parallel_runs?: number;
  // contract v1.2: the price the stage rests on, the cost range, a lower unverified price beside it
  offer?: OfferRef; cost_low?: number; cost_high?: number;
  reference?: { cost?: number; message?: string; offer?: OfferRef; price_per_gpu_hour?: number };
  [k: string]: unknown;
}
export interface PlanChange { code: string; patch?: Record<string, unknown>; saving?: number; new_total?: number; saving_is_upper_bound?: boolean; message?: string }
export interface RentVsBuy {
  gpu?: string; gpu_hours?: number; rent_cost?: number; buy_cost?: number; break_even_gpu_hours?: number;
  utilization_to_break_even?: number; cheaper?: string; source?: string; [k: string]: unknown;
}
export interface Plan {
  category?: string; category_advice?: string; stages?: PlanStage[]; total_cost?: number; currency?: string;
  total_cost_low?: number; total_cost_high?: number;
  within_budget?: boolean; feasible?: boolean; wall_hours?: number; meets_deadline?: boolean; budget?: number; deadline_hours?: number;
  changes?: PlanChange[]; advice?: { code: string; message?: string }[]; rent_vs_buy?: RentVsBuy; [k: string]: unknown;
}
// docs/oom-doctor.md: present when the request names a card (`hardware`).
export interface OomRemedy {
  id: string; fits?: boolean; total_bytes?: number; quality_impact?: string;
  time_factor?: number; gpu_hours_factor?: number; gradient_accumulation?: number; message?: string;
  patch?: Record<string, unknown>;
}
export interface OomDoctor {
  gpu: string; count?: number; fits: boolean; capacity_bytes?: number; total_bytes?: number;
  remedies?: OomRemedy[]; speed_tips?: { code: string; speedup?: number; message?: string }[];
}

export interface PlanResponse {
  memory: {
    per_gpu: { allocated_bytes: number; reserved_bytes: number; total_bytes: number };
    components: Component[]; headroom: number; recommended_bytes: number; [k: string]: unknown;
  };
  gpus: GpuRow[];
  warnings: { code: string; message: string }[];
  plan?: Plan;
  oom_doctor?: OomDoctor;
  [k: string]: unknown;
}
export interface PlanError { error: { code: string; path: string; message: string } }

export interface Planner {
  plan(request: string): string;
  catalog(): string;
}
