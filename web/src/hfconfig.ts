// A pasted Hugging Face config.json -> the model dimensions of the request.
// Field names follow transformers' configuration classes (LlamaConfig,
// Qwen2Config, MistralConfig, MixtralConfig, GPT2Config, BertConfig, T5Config).
// The total parameter count uses the same accounting as the core
// (core/src/estimate/model_shapes.cpp; Narayanan et al. 2021, "Efficient Large-Scale
// Language Model Training on GPU Clusters", section 5.1): attention
// 2h^2 + 2h*kv_dim, MLP 2 or 3 (gated) h*ffn per expert, embeddings vocab*h
// (twice when the LM head is untied), plus the norms (2h per layer) and the
// learned positions GPT-2 and BERT carry.

import { LIMITS } from './limits.ts';

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
