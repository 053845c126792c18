// A pasted Hugging Face config.json -> the model dimensions of the request.
// Field names follow transformers' configuration classes (LlamaConfig,
// Qwen2Config, MistralConfig, MixtralConfig, GPT2Config, BertConfig, T5Config).
// The total parameter count uses the same accounting as the core
// (core/src/estimate/model_shapes.cpp; Narayanan et al. 2021, "Efficient Large-Scale
// Language Model Training on GPU Clusters", section 5.1): attention
// 2h^2 + 2h*kv_dim, MLP 2 or 3 (gated) h*ffn per expert, embeddings vocab*h
// (twice when the LM head is untied), plus the norms (2h per layer) and the
// learned positions GPT-2 and BERT carry.

import type { T } from './i18n.ts';
import { LIMITS } from './limits.ts';
import { limitNumber } from './limit_text.ts';
import type { State } from './state.ts';

export interface Dimensions {
  kind: 'decoder' | 'encoder' | 'encoder-decoder';
  params: number; layers: number; hidden: number; heads: number; kv_heads: number; ffn: number; vocab: number;
  gated_mlp: boolean; tied_embeddings: boolean; experts: number; experts_per_token: number;
  // The config's head_dim when it says one (Qwen3: 128 on hidden 2560 with 32 heads), else 0 (hidden / heads).
  head_dim: number;
  model_type: string;
}

function pick(o: Record<string, unknown>, names: string[]): number | undefined {
  for (const n of names) {
    const v = o[n];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v;
  }
  return undefined;
}

const ENCODERS = ['bert', 'roberta', 'deberta', 'deberta-v2', 'electra', 'albert', 'distilbert', 'xlm-roberta', 'vit'];
const ENCODER_DECODERS = ['t5', 'mt5', 'bart', 'mbart', 'pegasus', 'marian', 'whisper'];
const GATED_ACTIVATIONS = ['silu', 'swiglu', 'geglu', 'gelu_pytorch_tanh'];

// range: the config's `field` says `value`, outside the planner's limits
// for it (min to max, whole numbers when int): refused here, in the config's
// own words, rather than by the planner in the request's.
export type ParseResult =
  | { ok: true; dims: Dimensions }
  | { ok: false; reason: 'json' | 'not_object' | 'missing'; field?: string }
  | { ok: false; reason: 'range'; field: string; value: number; min: number; max: number; int: boolean };

// The config's name for each dimension, for the message.
const CONFIG_NAMES = {
  hidden: 'hidden_size', layers: 'num_hidden_layers', heads: 'num_attention_heads', kv_heads: 'num_key_value_heads',
  ffn: 'intermediate_size', vocab: 'vocab_size', experts: 'num_local_experts', experts_per_token: 'num_experts_per_tok', params: 'params',
} as const;

function outOfRange(d: Dimensions): ParseResult | null {
  for (const [key, field] of Object.entries(CONFIG_NAMES) as [keyof typeof CONFIG_NAMES, string][]) {
    const lim = LIMITS[`model.${key}`];
    const v = d[key];
    if (!(v >= lim.min && v <= lim.max) || (lim.int && !Number.isInteger(v))) return { ok: false, reason: 'range', field, value: v, ...lim };
  }
  return null;
}

// Dimensions this parser returned, read back from a lab's settings link or
// file (lab_settings.ts): the same fields, kinds and limits, so a link carries
// no model a paste here would refuse.
export function checkDims(v: unknown): v is Dimensions {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const d = v as Record<string, unknown>;
  const keys = ['kind', 'params', 'layers', 'hidden', 'heads', 'kv_heads', 'ffn', 'vocab', 'gated_mlp', 'tied_embeddings', 'experts', 'experts_per_token', 'head_dim', 'model_type'];
  const hd = LIMITS['model.head_dim'];
  return Object.keys(d).length === keys.length && keys.every((k) => k in d) &&
    ['decoder', 'encoder', 'encoder-decoder'].includes(d.kind as string) &&
    Object.keys(CONFIG_NAMES).every((k) => typeof d[k] === 'number') && outOfRange(d as unknown as Dimensions) === null &&
    (d.experts_per_token as number) <= (d.experts as number) &&
    (d.head_dim === 0 || (Number.isInteger(d.head_dim) && (d.head_dim as number) >= hd.min && (d.head_dim as number) <= hd.max)) &&
    typeof d.gated_mlp === 'boolean' && typeof d.tied_embeddings === 'boolean' && typeof d.model_type === 'string' && d.model_type.length <= 40;
}

export function parseHfConfig(text: string): ParseResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'json' };
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { ok: false, reason: 'not_object' };
  let o = data as Record<string, unknown>;
  // Multimodal wrappers (e.g. Qwen2-VL, Llava) keep the language model inside.
  if (o.text_config && typeof o.text_config === 'object') o = { ...o, ...(o.text_config as Record<string, unknown>) };
  const modelType = typeof o.model_type === 'string' ? o.model_type.toLowerCase().slice(0, 40) : '';
  const hidden = pick(o, ['hidden_size', 'n_embd', 'd_model', 'dim']);
  if (!hidden) return { ok: false, reason: 'missing', field: 'hidden_size' };
  const layers = pick(o, ['num_hidden_layers', 'n_layer', 'num_layers', 'n_layers']);
  if (!layers) return { ok: false, reason: 'missing', field: 'num_hidden_layers' };
  const heads = pick(o, ['num_attention_heads', 'n_head', 'num_heads', 'n_heads']);
  if (!heads) return { ok: false, reason: 'missing', field: 'num_attention_heads' };
  const vocab = pick(o, ['vocab_size', 'padded_vocab_size']);
  if (!vocab) return { ok: false, reason: 'missing', field: 'vocab_size' };
  const kvHeads = pick(o, ['num_key_value_heads', 'n_kv_heads', 'multi_query_group_num']) ?? heads;
  const ffn = pick(o, ['intermediate_size', 'n_inner', 'ffn_dim', 'd_ff', 'encoder_ffn_dim']) ?? 4 * hidden;
  const experts = pick(o, ['num_local_experts', 'num_experts', 'n_routed_experts']) ?? 1;
  const perToken = Math.min(experts, pick(o, ['num_experts_per_tok', 'num_experts_per_token', 'top_k']) ?? 1);
  const act = String(o.hidden_act ?? o.activation_function ?? o.feed_forward_proj ?? '').toLowerCase();
  const gated = GATED_ACTIVATIONS.some((a) => act.includes(a)) || act.startsWith('gated');
  const kind = ENCODER_DECODERS.includes(modelType) ? 'encoder-decoder' : ENCODERS.includes(modelType) ? 'encoder' : 'decoder';
  // transformers defaults tie_word_embeddings to true; Llama-family configs say false.
  const tied = typeof o.tie_word_embeddings === 'boolean' ? o.tie_word_embeddings : kind !== 'decoder' || !gated;
  const givenHeadDim = pick(o, ['head_dim']);
  const headDim = givenHeadDim ?? hidden / heads;
  const kvDim = headDim * kvHeads;
  const attention = hidden * heads * headDim * 2 + 2 * hidden * kvDim;
  const mlp = (gated ? 3 : 2) * hidden * ffn * experts + (experts > 1 ? hidden * experts : 0);
  const norms = 2 * hidden;
  // Encoder-decoders have a decoder stack with cross-attention as deep as the encoder.
  const decoderLayers = kind === 'encoder-decoder' ? (pick(o, ['num_decoder_layers', 'decoder_layers']) ?? layers) : 0;
  const positions = pick(o, ['n_positions', 'max_position_embeddings']) ?? 0;
  const learnedPositions = ['gpt2', 'gpt_neo', 'opt', 'bert', 'roberta', 'distilbert', 'electra', 'xlm-roberta'].includes(modelType);
  const params =
    layers * (attention + mlp + norms) +
    decoderLayers * (2 * attention + mlp + 3 * hidden) +
    vocab * hidden * (tied ? 1 : 2) +
    (learnedPositions ? positions * hidden : 0) +
    hidden;
  const dims: Dimensions = {
    kind, params: Math.round(params), layers, hidden, heads, kv_heads: kvHeads, ffn, vocab,
    gated_mlp: gated, tied_embeddings: tied, experts, experts_per_token: perToken,
    head_dim: givenHeadDim !== undefined && Number.isInteger(givenHeadDim) && givenHeadDim !== hidden / heads ? givenHeadDim : 0, model_type: modelType,
  };
  return outOfRange(dims) ?? { ok: true, dims };
}

// A parsed config.json as the form's custom model (the paste here and the lab's pasted models).
export function customOf(d: Dimensions): State['custom'] {
  return { kind: d.kind, params: d.params, layers: d.layers, hidden: d.hidden, heads: d.heads, kv_heads: d.kv_heads, ffn: d.ffn,
    vocab: d.vocab, gated_mlp: d.gated_mlp, tied_embeddings: d.tied_embeddings, experts: d.experts, experts_per_token: d.experts_per_token, head_dim: d.head_dim };
}

// Why a pasted config.json was refused, in the config's own words.
export function hfRefusal(t: T, r: Exclude<ParseResult, { ok: true }>): string {
  return r.reason === 'range'
    ? t('hf.range', { field: r.field, value: limitNumber(r.value), min: limitNumber(r.min), max: limitNumber(r.max) })
    : r.reason === 'missing' ? t('hf.missing', { field: r.field ?? '' }) : t('hf.invalid');
}
