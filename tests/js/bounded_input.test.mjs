// Bounded input everywhere: the CLI reads at most the request limit + 1 byte
// from a file or standard input, refuses directories and devices, and says
// when it cannot write; the modules refuse an oversized string before copying
// it; the parser accepts nothing after the JSON value, cuts what it echoes,
// speaks one language per message and reads locale names in any case. Both
// languages. (The first call's time on the largest request is a benchmark,
// not a test: tools/bench_plan.mjs, --cold-budget-ms, run by ./dev.sh test.)
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { plannerModules, root } from './page_modules.mjs';

const cli = path.join(root, 'build/native/bin/gpuplan');
const LIMIT = 1 << 20;
const dir = mkdtempSync(path.join(tmpdir(), 'gpuplan-input-'));
const run = (args, { input, shell } = {}) => {
  const t0 = process.hrtime.bigint();
  const r = shell
    ? spawnSync('bash', ['-c', shell], { encoding: 'utf8', maxBuffer: 1 << 26 })
    : spawnSync(cli, args, { input, encoding: 'utf8', maxBuffer: 1 << 26 });
  return { ...r, ms: Number(process.hrtime.bigint() - t0) / 1e6, json: (() => { try { return JSON.parse(r.stdout); } catch { return null; } })() };
};
const plan = (text) => run(['plan', '-'], { input: text });
const preset = (over = {}) => JSON.stringify({ model: { preset: 'llama-3.1-8b' }, workload: { method: 'lora' }, ...over });

let modules;
before(async () => { modules = await plannerModules(); });

test('a device is refused with exit 1 and a message, read not at all (gpuplan plan /dev/zero)', () => {
  const r = run(['plan', '/dev/zero']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /cannot read \/dev\/zero: it is a device/);
});

test('a directory is refused with exit 1 and a message, not an abort', () => {
  const sub = path.join(dir, 'requests');
  mkdirSync(sub, { recursive: true });
  const r = run(['plan', sub]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /it is a directory/);
});

test('300 MB on standard input: too_large after reading the limit + 1 byte, in well under the old 23 s', () => {
  const r = run([], { shell: `head -c 300000000 /dev/zero | '${cli}' plan -; echo "exit=$?" >&2` });
  assert.match(r.stderr, /exit=2/);
  assert.equal(r.json.error.code, 'too_large');
  assert.match(r.json.error.message, /超过上限 1048576 字节/);
});

test('a file over the limit: too_large naming its real size, in the request\'s language', () => {
  const big = path.join(dir, 'big.json');
  writeFileSync(big, `{"locale":"en","pad":"${'x'.repeat(3 * LIMIT)}"}`);
  const r = run(['plan', big]);
  assert.equal(r.status, 2);
  assert.equal(r.json.error.code, 'too_large');
  assert.equal(r.json.error.message, `The request is too large (${statSync(big).size} bytes, limit 1048576 bytes)`);
  // Both modules, given the same text, say the same bytes; standard input, whose size is not
  // known, says "more than the limit".
  for (const [name, m] of Object.entries(modules)) assert.equal(m.plan(readFileSync(big, 'utf8')), r.stdout.trim(), name);
  assert.match(plan(readFileSync(big, 'utf8')).json.error.message, /^The request is too large \(more than the limit of 1048576 bytes\)$/);
});

test('an output that cannot be written is reported: exit 1, not 0 with nothing written', () => {
  for (const args of [['catalog'], ['plan', '-'], ['--help']]) {
    const r = run([], { shell: `echo '${preset()}' | '${cli}' ${args.join(' ')} > /dev/full; echo "exit=$?" >&2` });
    assert.match(r.stderr, /cannot write the output/, args.join(' '));
    assert.match(r.stderr, /exit=1/, args.join(' '));
  }
});

test('nothing after the JSON value is accepted, a NUL byte included', () => {
  for (const [lang, locale, word] of [['zh-CN', 'zh-CN', '不是有效的 JSON'], ['en', 'en', 'not valid JSON']]) {
    const r = plan(`${preset({ locale })}\u0000{"anything": "after"}`);
    assert.equal(r.status, 2, lang);
    assert.equal(r.json.error.code, 'invalid_json');
    assert.match(r.json.error.message, new RegExp(word));
    assert.equal(plan(`${preset({ locale })} trailing`).json.error.code, 'invalid_json');
  }
});

test('the zh invalid_json message is wholly Chinese; the en one wholly English', () => {
  const zh = plan('{"model": ').json.error.message;
  assert.doesNotMatch(zh.replace('JSON', ''), /[A-Za-z]/, zh);
  assert.match(zh, /第 \d+ 字节/);
  const en = plan('{"locale":"en","model": ').json.error.message;
  assert.match(en, /^The request is not valid JSON: at byte \d+$/);
});

test('a 1 MiB number is cut in the message like a long string', () => {
  const digits = '9'.repeat(LIMIT - 100);
  const r = plan(`{"locale":"en","budget":{"amount":${digits}}}`);
  assert.equal(r.json.error.code, 'out_of_range');
  assert.ok(r.stdout.length < 400, `${r.stdout.length} bytes`);
  assert.match(r.json.error.message, /9…$/);
});

test('locale names are matched case-insensitively: "EN", "en_US", "En-gb" are English; "ZH" Chinese; "fr" refused', () => {
  for (const locale of ['EN', 'en_US', 'En-gb', 'en']) {
    const r = plan(preset({ locale, workload: { method: 'lora', micro_batch: 0 } }));
    assert.equal(r.json.error.code, 'out_of_range', locale);
    assert.match(r.json.error.message, /must be between/, locale);
  }
  assert.match(plan(preset({ locale: 'ZH', workload: { method: 'lora', micro_batch: 0 } })).json.error.message, /应在/);
  assert.equal(plan(preset({ locale: 'EN' })).status, 0);
  const fr = plan(preset({ locale: 'fr' }));
  assert.equal(fr.json.error.code, 'unknown_value');
  assert.equal(plan(preset({ locale: 'english' })).json.error.code, 'unknown_value', 'a prefix is not a locale name');
});

test('the largest seed is planned natively', () => {
  const r = run(['plan', path.join(root, 'fuzz/seeds/request/largest.json')]);
  assert.equal(r.status, 0, r.stdout.slice(0, 300));
});

test('both modules refuse a 100 MB string before copying it, as the CLI does, and answer a fresh module\'s largest request', async () => {
  const huge = `{"locale":"en","pad":"${'x'.repeat(100 << 20)}"}`;
  const expected = JSON.stringify({ error: { code: 'too_large', message: `The request is too large (${huge.length} bytes, limit 1048576 bytes)`, path: '' } });
  for (const [name, m] of Object.entries(modules)) {
    assert.equal(m.plan(huge), expected, name);
  }
  const file = path.join(dir, 'huge.json');
  writeFileSync(file, huge);
  assert.equal(run(['plan', file]).stdout.trim(), expected, 'the CLI gives the same reply');
  // The first call of a fresh module on the largest request accepted.
  const largest = readFileSync(path.join(root, 'fuzz/seeds/request/largest.json'), 'utf8');
  const fresh = await plannerModules();
  for (const [name, m] of Object.entries(fresh)) {
    const out = JSON.parse(m.plan(largest));
    assert.ok(!out.error, `${name}: ${JSON.stringify(out.error)}`);
  }
});

test('a string a bit over the limit in CJK (more bytes than units) is refused the same by the modules and the CLI', () => {
  const text = `{"pad":"${'显'.repeat(LIMIT / 2)}"}`;
  const file = path.join(dir, 'cjk.json');
  writeFileSync(file, text);
  const native = run(['plan', file]).stdout.trim();
  assert.match(native, /too_large/);
  for (const [name, m] of Object.entries(modules)) assert.equal(m.plan(text), native, name);
});
