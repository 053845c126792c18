// The page's verify script (web/src/verify_script.ts), generated from
// requests of every kind it covers: each is valid Python (ast.parse), its
// result line, run with stand-in measurements, prints exactly the figures
// parseResult() reads back, and it carries the request's configuration.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'rolldown';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let verify;
before(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gpuplan-verify-'));
  try {
    await build({ input: path.join(root, 'web/src/verify_script.ts'), output: { dir, format: 'esm', entryFileNames: 'verify.mjs' }, write: true, logLevel: 'silent' });
    verify = await import(pathToFileURL(path.join(dir, 'verify.mjs')).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// As the page's catalog carries them: every transformer names gated_mlp.
const presets = [
  { id: 'llama-3.1-8b', name: 'Llama 3.1 8B', kind: 'decoder', params: 8.03e9, layers: 32, hidden: 4096, heads: 32, kv_heads: 8, ffn: 14336, vocab: 128256, gated_mlp: true },
  { id: 'gpt2', name: 'GPT-2', kind: 'decoder', params: 124e6, layers: 12, hidden: 768, heads: 12, kv_heads: 12, ffn: 3072, vocab: 50257, gated_mlp: false },
  { id: 'bert-base', name: 'BERT base', kind: 'encoder', params: 110e6, layers: 12, hidden: 768, heads: 12, kv_heads: 12, ffn: 3072, vocab: 30522, gated_mlp: false },
];
const requests = {
  lora: { model: { preset: 'llama-3.1-8b' }, workload: { mode: 'train', method: 'lora', precision: 'bf16-mixed', micro_batch: 4, seq_len: 2048, grad_checkpointing: true, lora: { rank: 16, targets: 'all-linear' } } },
  qlora: { model: { preset: 'llama-3.1-8b' }, workload: { mode: 'train', method: 'qlora', optimizer: 'adamw-8bit', micro_batch: 1, seq_len: 512, grad_accumulation: 4 } },
  gpt2_fp16: { model: { preset: 'gpt2' }, workload: { mode: 'train', method: 'full', precision: 'fp16-mixed', optimizer: 'adafactor', micro_batch: 8, seq_len: 1024 } },
  bert_fp32: { model: { preset: 'bert-base' }, workload: { mode: 'train', method: 'full', precision: 'fp32', micro_batch: 8, seq_len: 128, flash_attention: false } },
  int4_infer: { model: { preset: 'llama-3.1-8b' }, workload: { mode: 'infer', precision: 'int4', micro_batch: 2, seq_len: 512, stack: 'vllm' } },
  custom: { model: { kind: 'decoder', params: 1.1e9, layers: 22, hidden: 2048, heads: 32, kv_heads: 4, ffn: 5632, vocab: 32000, gated_mlp: true, tied_embeddings: false }, workload: { mode: 'train', method: 'full', precision: 'bf16-true', micro_batch: 2, seq_len: 2048 } },
};

function parsesAsPython(source) {
  const run = spawnSync('python3', ['-c', 'import ast,sys; ast.parse(sys.stdin.read())'], { input: source, encoding: 'utf8' });
  return run.status === 0 ? '' : run.stderr;
}

for (const [name, request] of Object.entries(requests)) {
  test(`the verify script for ${name} is valid Python of this configuration`, () => {
    const script = verify.verifyScript(request, presets);
    assert.equal(parsesAsPython(script), '');
    const w = request.workload;
    assert.match(script, new RegExp(`BATCH, SEQ, WARMUP, STEPS, ACCUMULATION = ${w.micro_batch}, ${w.seq_len}, `));
    if (w.method === 'lora' || w.method === 'qlora') assert.match(script, /get_peft_model/);
    if (w.method === 'qlora') assert.match(script, /load_in_4bit=True.*bnb_4bit_use_double_quant=True/);
    if (w.lora) assert.match(script, new RegExp(`LoraConfig\\(r=${w.lora.rank}`));
    if (w.grad_checkpointing) assert.match(script, /gradient_checkpointing_enable/);
    if (w.optimizer === 'adamw-8bit') assert.match(script, /bnb\.optim\.AdamW8bit/);
    if (w.precision === 'fp16-mixed') assert.match(script, /GradScaler\("cuda", enabled=True\)/);
    if (w.flash_attention === false) assert.match(script, /_attn_implementation = "eager"/);
    if (w.mode === 'infer') assert.match(script, /model\.generate/);
    assert.doesNotMatch(script, /from_pretrained\("(?!.*folder)/, 'nothing is downloaded');
  });
}

test('what the script prints is what the page reads back', () => {
  const script = verify.verifyScript(requests.lora, presets);
  const line = script.split('\n').find((l) => l.startsWith(`print(${JSON.stringify(verify.RESULT_PREFIX)}`));
  assert.ok(line, 'the result line');
  const stub = [
    'import json, types',
    'torch = types.SimpleNamespace(cuda=types.SimpleNamespace(get_device_name=lambda: "NVIDIA A100-SXM4-80GB"))',
    'BATCH, SEQ, peak, tokens, seconds = 4, 2048, 21474836480, 8192, 2.5',
    line,
  ].join('\n');
  const run = spawnSync('python3', ['-c', stub], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const read = verify.parseResult(`step 1 loss 9.1\n${run.stdout}`);
  assert.deepEqual(read, {
    gpu: 'NVIDIA A100-SXM4-80GB', count: 1, micro_batch: 4, seq_len: 2048,
    peak_memory_bytes: 21474836480, tokens_per_s: 8192 / 2.5, samples_per_s: 4 / 2.5,
  });
  assert.deepEqual(Object.keys(read), [...verify.RESULT_KEYS]);
});

test('a broken or missing result line reads as nothing', () => {
  assert.equal(verify.parseResult('no result here'), null);
  assert.equal(verify.parseResult('GPUPLAN_RESULT {"gpu": "x", "micro_batch": 0}'), null);
  assert.equal(verify.parseResult('GPUPLAN_RESULT {not json'), null);
});

// The page keeps no copy of the core's rule that tells a gated MLP from the
// parameter count (issue #28): it builds what the request or the preset says.
test('the script builds the MLP the request or the preset names', () => {
  const config = (request) => /config = (\w+)Config\(/.exec(verify.verifyScript(request, presets))?.[1];
  const workload = { mode: 'train', method: 'full', micro_batch: 1, seq_len: 128 };
  assert.equal(config({ model: { preset: 'llama-3.1-8b' }, workload }), 'Llama');
  assert.equal(config({ model: { preset: 'gpt2' }, workload }), 'OPT');
  const custom = { ...requests.custom.model };
  assert.equal(config({ model: custom, workload }), 'Llama');
  assert.equal(config({ model: { ...custom, gated_mlp: false }, workload }), 'OPT');
  // The preset's word stands unless the request names its own.
  assert.equal(config({ model: { preset: 'gpt2', gated_mlp: true }, workload }), 'Llama');
});

test('models it cannot build say so in a script that still runs', () => {
  const script = verify.verifyScript({ model: { preset: 'resnet-50' }, workload: { mode: 'train' } }, presets);
  assert.equal(parsesAsPython(script), '');
  assert.match(script, /no verify script/);
});
