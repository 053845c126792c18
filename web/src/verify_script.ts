// "Check it on the rented card": a short Python script, generated from the
// current request, that runs a few steps of exactly this configuration with
// random weights built from the model's dimensions (no download) and prints
// its peak memory and speed on one line the calibration inputs read back
// (views/calibrate.ts; docs/memory-model.md "Calibration from your own run").
// PyTorch + transformers + peft (+ bitsandbytes for QLoRA, 8-bit Adam and
// 8/4-bit inference). The page computes nothing here: it writes text.
import type { CatalogModel } from './types.ts';

// The result line: this prefix, then one JSON object with these keys.
export const RESULT_PREFIX = 'GPUPLAN_RESULT';
export const RESULT_KEYS = ['gpu', 'count', 'micro_batch', 'seq_len', 'peak_memory_bytes', 'tokens_per_s', 'samples_per_s'] as const;

// What the script prints for each key (Python expressions).
const RESULT_EXPRESSIONS: Record<(typeof RESULT_KEYS)[number], string> = {
  gpu: 'torch.cuda.get_device_name()', count: '1', micro_batch: 'BATCH', seq_len: 'SEQ',
  peak_memory_bytes: 'int(peak)', tokens_per_s: 'round(tokens / seconds, 3)', samples_per_s: 'round(BATCH / seconds, 5)',
};

export interface VerifyResult {
  gpu: string; count: number; micro_batch: number; seq_len: number;
  peak_memory_bytes: number; tokens_per_s: number; samples_per_s: number;
}

// Reads the script's result line back (the last one if several were pasted);
// null when there is none or it does not hold finite positive figures.
export function parseResult(text: string): VerifyResult | null {
  const lines = text.split(/\r?\n/).filter((l) => l.trim().startsWith(RESULT_PREFIX));
  if (!lines.length) return null;
  try {
    const o = JSON.parse(lines[lines.length - 1].trim().slice(RESULT_PREFIX.length)) as Record<string, unknown>;
    const n = (k: string): number => (typeof o[k] === 'number' && Number.isFinite(o[k] as number) ? (o[k] as number) : NaN);
    const r: VerifyResult = {
      gpu: typeof o.gpu === 'string' ? o.gpu.slice(0, 100) : '',
      count: n('count'), micro_batch: n('micro_batch'), seq_len: n('seq_len'),
      peak_memory_bytes: n('peak_memory_bytes'), tokens_per_s: n('tokens_per_s'), samples_per_s: n('samples_per_s'),
    };
    const positive = [r.micro_batch, r.peak_memory_bytes, r.samples_per_s].every((x) => x > 0);
    return positive ? r : null;
  } catch {
    return null;
  }
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const int = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : fallback);
const str = (v: unknown, fallback: string): string => (typeof v === 'string' ? v : fallback);
// A Python string literal of any text (JSON string syntax is valid Python).
const py = (s: string): string => JSON.stringify(s);

interface Dims {
  kind: string; layers: number; hidden: number; heads: number; kv_heads: number; ffn: number; vocab: number;
  gated: boolean; tied: boolean; name: string;
}

// The request's model, or the preset's dimensions from the page's catalog.
// Whether the MLP is gated (LLaMA-style SwiGLU, 3 matrices per layer instead
// of 2) is what the request or the preset says: the page's request always
// names it for a custom model (request.ts), and every transformer preset in
// the catalog does (the core reads a preset without it as not gated). The
// page keeps no copy of the core's rule that tells it from the parameter count.
function dims(model: Obj, preset: CatalogModel | undefined): Dims | null {
  const src: Obj = preset ? { ...(preset as unknown as Obj), ...model } : model;
  const d = {
    kind: str(src.kind, 'decoder'), layers: int(src.layers, 0), hidden: int(src.hidden, 0), heads: int(src.heads, 0),
    kv_heads: int(src.kv_heads, int(src.heads, 0)), ffn: int(src.ffn, 0), vocab: int(src.vocab, 0),
    tied: src.tied_embeddings === true, name: str(src.name, str(src.preset, 'custom')), gated: src.gated_mlp === true,
  };
  if (!(d.layers > 0 && d.hidden > 0 && d.heads > 0 && d.vocab > 0)) return null;
  if (!d.ffn) d.ffn = 4 * d.hidden;
  return d;
}

// transformers config class, and the LoRA target modules per request target set.
function architecture(d: Dims): { config: string; auto: string; targets: Record<string, string> } | null {
  if (d.kind === 'decoder' && d.gated) {
    return {
      config: `LlamaConfig(vocab_size=${d.vocab}, hidden_size=${d.hidden}, intermediate_size=${d.ffn}, num_hidden_layers=${d.layers}, ` +
        `num_attention_heads=${d.heads}, num_key_value_heads=${d.kv_heads}, max_position_embeddings=max(SEQ, 2048), tie_word_embeddings=${d.tied ? 'True' : 'False'})`,
      auto: 'AutoModelForCausalLM',
      targets: { qv: '["q_proj", "v_proj"]', attention: '["q_proj", "k_proj", "v_proj", "o_proj"]', 'all-linear': '"all-linear"' },
    };
  }
  if (d.kind === 'decoder') {
    // Two-matrix MLP (GPT-2 style) with separate q/k/v projections: OPT's layout.
    return {
      config: `OPTConfig(vocab_size=${d.vocab}, hidden_size=${d.hidden}, ffn_dim=${d.ffn}, num_hidden_layers=${d.layers}, ` +
        `num_attention_heads=${d.heads}, word_embed_proj_dim=${d.hidden}, max_position_embeddings=max(SEQ, 2048), dropout=0.0)`,
      auto: 'AutoModelForCausalLM',
      targets: { qv: '["q_proj", "v_proj"]', attention: '["q_proj", "k_proj", "v_proj", "out_proj"]', 'all-linear': '"all-linear"' },
    };
  }
  if (d.kind === 'encoder') {
    return {
      config: `BertConfig(vocab_size=${d.vocab}, hidden_size=${d.hidden}, intermediate_size=${d.ffn}, num_hidden_layers=${d.layers}, ` +
        `num_attention_heads=${d.heads}, max_position_embeddings=max(SEQ, 512), num_labels=2)`,
      auto: 'AutoModelForSequenceClassification',
      targets: { qv: '["query", "value"]', attention: '["query", "key", "value", "attention.output.dense"]', 'all-linear': '"all-linear"' },
    };
  }
  return null;
}

const OPTIMIZERS: Record<string, string> = {
  adamw: 'torch.optim.AdamW(params, lr=1e-5)',
  'adamw-8bit': 'bnb.optim.AdamW8bit(params, lr=1e-5)',
  sgd: 'torch.optim.SGD(params, lr=1e-5)',
  'sgd-momentum': 'torch.optim.SGD(params, lr=1e-5, momentum=0.9)',
  adafactor: 'Adafactor(params, lr=1e-5, scale_parameter=False, relative_step=False)',
};

// The card the plan rents for the stage the script stands for (its GPU's
// name, count and platform), said at the top of the script.
export interface Rented { gpu: string; count: number; platform: string }

// Everything the script's steps read, from the request: the configuration
// as the memory model assumes it (docs/memory-model.md).
interface Setup {
  d: Dims; arch: NonNullable<ReturnType<typeof architecture>>; w: Obj;
  train: boolean; method: string; precision: string; batch: number; seq: number; accumulation: number;
  rank: number; targets: string; adapters: boolean; weightDtype: string; autocast: string; quant: string; usesBnb: boolean;
}

function setup(request: Obj, presets: readonly CatalogModel[]): Setup | null {
  const w = obj(request.workload);
  const model = obj(request.model);
  const d = dims(model, presets.find((m) => m.id === model.preset));
  const arch = d ? architecture(d) : null;
  const mode = str(w.mode, 'train');
  if (!d || !arch || mode === 'science') return null;
  const train = mode === 'train';
  const method = str(w.method, 'full');
  const precision = str(w.precision, train ? 'bf16-mixed' : 'bf16');
  const lora = obj(w.lora);
  const adapters = train && method !== 'full';
  const qlora = train && method === 'qlora';
  const halfBase = adapters || precision === 'bf16-true' || !train;
  const weightDtype = precision === 'fp32' ? 'torch.float32'
    : precision.startsWith('fp16') || precision === 'fp16' ? (halfBase ? 'torch.float16' : 'torch.float32')
      : halfBase ? 'torch.bfloat16' : 'torch.float32';
  const autocast = !train || precision === 'fp32' || precision === 'bf16-true' ? 'None'
    : precision === 'fp16-mixed' ? 'torch.float16' : 'torch.bfloat16';
  const quant = qlora || ['nf4', 'int4'].includes(precision)
    ? 'BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=' +
      (qlora ? 'True' : 'False') + ', bnb_4bit_compute_dtype=torch.bfloat16)'
    : precision === 'int8' ? 'BitsAndBytesConfig(load_in_8bit=True)' : '';
  return {
    d, arch, w, train, method, precision, adapters, weightDtype, autocast, quant,
    batch: int(w.micro_batch, 1), seq: int(w.seq_len, d.kind === 'decoder' ? 2048 : 512),
    accumulation: Math.max(1, int(w.grad_accumulation, 1)), rank: int(lora.rank, 8),
    targets: arch.targets[str(lora.targets, 'qv')] ?? arch.targets.qv,
    usesBnb: quant !== '' || (train && str(w.optimizer, 'adamw') === 'adamw-8bit'),
  };
}

// What the script is, where to run it, and its imports.
function header(s: Setup, rented: Rented | undefined): string[] {
  const { d, arch, w, train, method, precision, batch, seq, quant, usesBnb } = s;
  const gpus = int(w.gpus, 1);
  const stack = str(w.stack, 'eager');
  const imports = ['import json, tempfile, time', 'import torch',
    `from transformers import ${arch.config.split('(')[0]}, ${arch.auto}${quant ? ', BitsAndBytesConfig' : ''}`];
  if (s.adapters) imports.push('from peft import LoraConfig, get_peft_model');
  if (usesBnb) imports.push('import bitsandbytes as bnb');
  if (train && str(w.optimizer, 'adamw') === 'adafactor') imports.push('from transformers.optimization import Adafactor');
  return [
    `# gpuplan verify script: ${train ? 'a few training steps' : 'one generation batch'} of this request's configuration`,
    `# (${d.name}, ${train ? method : 'inference'}, ${precision}, micro-batch ${batch}, sequence ${seq}) with random weights`,
    '# built from the model dimensions: nothing is downloaded.',
    rented ? `# Run it on the card the plan rents: ${rented.gpu} ×${rented.count}${rented.platform ? ` (${rented.platform})` : ''}.` : '# Run it on the card you rent.',
    '#   pip install torch transformers peft' + (usesBnb ? ' bitsandbytes' : '') + '   then   python verify.py',
    '# Paste its last line (GPUPLAN_RESULT ...) into the page: every option is re-anchored on it.',
    gpus > 1 || (rented?.count ?? 1) > 1 ? `# The run spans ${Math.max(gpus, rented?.count ?? 1)} GPUs; this script measures one of them at the per-GPU batch.` : '',
    stack !== 'eager' ? `# The request names the ${stack} stack; this script measures plain PyTorch + transformers (eager).` : '',
    precision === 'int4' ? '# int4 (GPTQ / AWQ) needs a calibrated checkpoint; this script loads bitsandbytes NF4, about the same bytes.' : '',
    ...imports,
    '',
  ];
}

// The model on the card, with random weights (quantized through a local save).
function modelLines(s: Setup): string[] {
  const { arch, w, quant } = s;
  const lines = [
    `BATCH, SEQ, WARMUP, STEPS, ACCUMULATION = ${s.batch}, ${s.seq}, 2, ${s.train ? 6 : 1}, ${s.accumulation}`,
    'torch.manual_seed(0)',
    'torch.backends.cuda.matmul.allow_tf32 = True',
    'torch.backends.cudnn.allow_tf32 = True',
    'torch.zeros(1, device="cuda")  # CUDA context',
    'free, total = torch.cuda.mem_get_info()',
    'context = total - free - torch.cuda.memory_reserved()  # what nvidia-smi shows beyond PyTorch',
    `config = ${arch.config}`,
    `config._attn_implementation = ${py(w.flash_attention === false ? 'eager' : 'sdpa')}`,
  ];
  if (quant) {
    lines.push(
      '# Quantized weights need a checkpoint to load from: random weights, saved locally.',
      'with tempfile.TemporaryDirectory() as folder:',
      `    ${arch.auto}.from_config(config, torch_dtype=torch.bfloat16).save_pretrained(folder)`,
      `    model = ${arch.auto}.from_pretrained(folder, quantization_config=${quant}, torch_dtype=torch.bfloat16, device_map={"": 0})`,
    );
  } else {
    lines.push(`model = ${arch.auto}.from_config(config, torch_dtype=${s.weightDtype}).cuda()`);
  }
  return lines;
}

// Training: checkpointing and adapters as requested, then timed optimizer steps.
function trainLines(s: Setup): string[] {
  const { w, autocast } = s;
  const lines: string[] = [];
  if (w.grad_checkpointing === true) {
    lines.push('model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})');
    if (s.adapters) lines.push('model.enable_input_require_grads()');
  }
  if (s.adapters) {
    lines.push(`model = get_peft_model(model, LoraConfig(r=${s.rank}, lora_alpha=${2 * s.rank}, lora_dropout=0.0, target_modules=${s.targets}))`);
  }
  lines.push(
    'params = [p for p in model.parameters() if p.requires_grad]',
    `optimizer = ${OPTIMIZERS[str(w.optimizer, 'adamw')] ?? OPTIMIZERS.adamw}`,
    `scaler = torch.amp.GradScaler("cuda", enabled=${autocast === 'torch.float16' ? 'True' : 'False'})`,
    `ids = torch.randint(0, config.vocab_size, (BATCH, SEQ), device="cuda")`,
    s.d.kind === 'encoder' ? 'labels = torch.zeros(BATCH, dtype=torch.long, device="cuda")' : 'labels = ids',
    '',
    'def step():',
    '    for _ in range(ACCUMULATION):',
    `        with torch.autocast("cuda", dtype=${autocast === 'None' ? 'torch.bfloat16' : autocast}, enabled=${autocast === 'None' ? 'False' : 'True'}):`,
    '            loss = model(input_ids=ids, labels=labels).loss / ACCUMULATION',
    '        scaler.scale(loss).backward()',
    '    scaler.step(optimizer)',
    '    scaler.update()',
    '    optimizer.zero_grad(set_to_none=True)',
    '',
    'for _ in range(WARMUP):',
    '    step()',
    'torch.cuda.synchronize()',
    'start = time.perf_counter()',
    'for _ in range(STEPS):',
    '    step()',
    'torch.cuda.synchronize()',
    'seconds = (time.perf_counter() - start) / (STEPS * ACCUMULATION)  # per micro-batch',
    'tokens = BATCH * SEQ',
  );
  return lines;
}

// Inference: one timed generation batch, half the sequence prompt, half generated.
function inferLines(s: Setup): string[] {
  const prompt = Math.max(1, Math.floor(s.seq / 2));
  return [
    'model.eval()',
    `ids = torch.randint(0, config.vocab_size, (BATCH, ${prompt}), device="cuda")`,
    `new = ${Math.max(1, s.seq - prompt)}`,
    '',
    'def step():',
    '    with torch.inference_mode():',
    '        model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), max_new_tokens=new, min_new_tokens=new, do_sample=False, pad_token_id=0)',
    '',
    'step()  # warm-up',
    'torch.cuda.synchronize()',
    'start = time.perf_counter()',
    'step()',
    'torch.cuda.synchronize()',
    'seconds = time.perf_counter() - start',
    'tokens = BATCH * new  # generated',
  ];
}

// The figures, and the line the page reads back (parseResult).
function resultLines(): string[] {
  return [
    'peak = torch.cuda.max_memory_reserved() + context',
    'print("peak memory %.2f GiB, %.1f tokens/s, %.3f samples/s" % (peak / 2**30, tokens / seconds, BATCH / seconds))',
    `print(${py(RESULT_PREFIX)}, json.dumps({${RESULT_KEYS.map((k) => `${py(k)}: ${RESULT_EXPRESSIONS[k]}`).join(', ')}}))`,
    '',
  ];
}

// The whole script for `request` (docs/api.md), or a two-line script saying
// why none is generated (a CNN, a diffusion network, science mode). rented:
// the card the plan rents, named at the top.
export function verifyScript(request: Obj, presets: readonly CatalogModel[], rented?: Rented): string {
  const s = setup(request, presets);
  if (!s) {
    return [
      '# gpuplan: no verify script for this model kind (it covers transformer decoders and encoders).',
      'print("measure with your own training script: peak memory from nvidia-smi, samples/s from its log")',
      '',
    ].join('\n');
  }
  const lines = [...header(s, rented), ...modelLines(s), ...(s.train ? trainLines(s) : inferLines(s)), ...resultLines()];
  return lines.filter((l, i, all) => l !== '' || (i > 0 && all[i - 1] !== '')).join('\n');
}
