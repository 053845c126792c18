// The page's limits are the core's (web/src/limits.ts, generated from
// core/include/gpuplan/limits.h and held to it by tests/core/limits_test.cpp):
// a link's state, a pasted Hugging Face config and a measured calibration
// line are all read against them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageModules } from './page_modules.mjs';

const { limits, state, hfconfig, calibration } = await pageModules(['limits', 'state', 'hfconfig', 'calibration']);
const { LIMITS } = limits;

test('a link\'s state past a core limit falls back to the default (science.memory_gb up to 1e5, not 1e6)', () => {
  assert.equal(LIMITS['science.memory_gb'].max, 1e5);
  const d = state.defaultState();
  const s = state.sanitize({ ...d, mode: 'science', science: { ...d.science, memory_gb: 5e5, rate: 0 } });
  assert.equal(s.science.memory_gb, d.science.memory_gb);
  assert.equal(s.science.rate, d.science.rate, 'a baseline rate of 0 is refused as the core refuses it');
  assert.equal(state.sanitize({ ...d, micro_batch: LIMITS['workload.micro_batch'].max + 1 }).micro_batch, d.micro_batch);
  assert.equal(state.sanitize({ ...d, micro_batch: LIMITS['workload.micro_batch'].max }).micro_batch, LIMITS['workload.micro_batch'].max);
});

test('a Hugging Face config past a limit is refused naming its own field', () => {
  const base = { model_type: 'llama', hidden_size: 4096, num_hidden_layers: 32, num_attention_heads: 32, vocab_size: 32000 };
  assert.equal(hfconfig.parseHfConfig(JSON.stringify(base)).ok, true);
  const r = hfconfig.parseHfConfig(JSON.stringify({ ...base, hidden_size: 1e200 }));
  assert.deepEqual([r.ok, r.reason, r.field, r.max], [false, 'range', 'hidden_size', LIMITS['model.hidden'].max]);
  const layers = hfconfig.parseHfConfig(JSON.stringify({ ...base, num_hidden_layers: 5000 }));
  assert.equal(layers.field, 'num_hidden_layers');
});

test('a calibration line past a limit is refused, the memory in GiB as the field takes it', () => {
  const line = { micro_batch: 4, peak_memory_bytes: 8e9, tokens_per_s: 1000, samples_per_s: 2 };
  assert.equal(calibration.calibrationOutOfRange(line, false), null);
  assert.deepEqual(calibration.calibrationOutOfRange({ ...line, micro_batch: 1e9 }, false), { field: 'micro_batch', value: 1e9, min: 1, max: 65536 });
  const mem = calibration.calibrationOutOfRange({ ...line, peak_memory_bytes: 1e15 }, false);
  assert.equal(mem.field, 'memory_gib');
  assert.equal(mem.value, 1e15 / 2 ** 30);
  assert.equal(mem.max, LIMITS['baseline.memory_bytes'].max / 2 ** 30);
  assert.equal(calibration.calibrationOutOfRange({ ...line, tokens_per_s: 1e16 }, false).field, 'rate');
});
