// The page's LZMA decoder (wasm/page_lzma.cpp, written from the LZMA SDK's
// specification, behind web/src/lzma.ts) against xz, the encoder the build
// uses (vite.config.mts):
// every stream xz makes decodes to the input byte for byte, over the three
// properties (lc, lp, pb) a stream can declare, and a wrong length or a broken
// stream is an error, never a silently different wasm. Needs xz (./dev.sh setup)
// and the decoder's build (build/wasm/bin/page_lzma.wasm, ./dev.sh build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = mkdtempSync(path.join(tmpdir(), 'gpuplan-lzma-'));
const tsc = spawnSync(path.join(root, 'node_modules/.bin/tsc'),
  ['--ignoreConfig', '--outDir', out, '--target', 'es2022', '--module', 'es2022', path.join(root, 'web/src/lzma.ts')], { encoding: 'utf8' });
assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
renameSync(path.join(out, 'lzma.js'), path.join(out, 'lzma.mjs'));
const { lzmaDecompress: decode, lzmaReader: reader } = await import(pathToFileURL(path.join(out, 'lzma.mjs')).href);
rmSync(out, { recursive: true });
const decoder = readFileSync(path.join(root, 'build/wasm/bin/page_lzma.wasm'));
const lzmaDecompress = (packed, size) => decode(decoder, packed, size);
const lzmaReader = (packed, size) => reader(decoder, packed, size);

function xz(data, options) {
  const r = spawnSync('xz', ['--format=lzma', `--lzma1=${options}`, '--stdout'], { input: data, maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, String(r.stderr));
  return new Uint8Array(r.stdout);
}

// A deterministic generator (xorshift32), so a failure can be reproduced.
function noise(n, seed) {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    b[i] = x & 255;
  }
  return b;
}

const inputs = {
  empty: Buffer.alloc(0),
  'one byte': Buffer.from([7]),
  zeros: Buffer.alloc(300_000),
  noise: noise(100_000, 1),
  text: Buffer.from('the GPU rental planner; 租用规划 '.repeat(5000)),
  // Long and short repeats at many distances: every match and rep kind.
  mixed: Buffer.concat([noise(5000, 2), Buffer.alloc(70_000, 3), noise(5000, 3), Buffer.from(noise(3000, 4).toString('hex').repeat(20)), noise(4000, 2)]),
};
// The build's setting, and settings that exercise lc, lp and pb elsewhere.
const settings = ['preset=9e,dict=8MiB', 'preset=1,lc=0,lp=2,pb=0', 'preset=6,lc=4,lp=0,pb=4'];

for (const [name, data] of Object.entries(inputs)) {
  test(`xz's streams of ${name} decode byte for byte`, () => {
    for (const s of settings) {
      const packed = xz(data, s);
      assert.ok(Buffer.from(lzmaDecompress(packed, data.length)).equals(data), s);
      assert.throws(() => lzmaDecompress(packed, data.length + 1), /LZMA stream/, `${s}: a longer expected size`);
    }
  });
}

test('a broken or truncated stream is an error, not other bytes', () => {
  const data = inputs.mixed;
  const packed = xz(data, settings[0]);
  // The stream ends with an end marker that must leave the range coder at 0
  // exactly when the declared length is reached, so a flipped byte anywhere,
  // even in the coder's last bytes, is caught.
  for (const at of [20, 100, 1000, packed.length >> 1, packed.length - 3]) {
    const bad = packed.slice();
    bad[at] ^= 0x55;
    assert.throws(() => lzmaDecompress(bad, data.length), /LZMA stream/, `flip at ${at}`);
  }
  assert.throws(() => lzmaDecompress(packed.slice(0, packed.length - 40), data.length), /LZMA stream/, 'a truncated stream');
});

// The page reads its stream in two steps (web/src/boot.ts): the script and
// the catalog first, the planner's code after the first figure.
test('a stream read in steps gives the same bytes, and is checked at its end', () => {
  for (const [name, data] of Object.entries(inputs)) {
    for (const s of settings) {
      const packed = xz(data, s);
      const read = lzmaReader(packed, data.length);
      for (const part of [0.1, 0.5, 0.9]) {
        const bytes = Math.floor(data.length * part);
        assert.ok(Buffer.from(read(bytes)).equals(data.subarray(0, bytes)), `${name}, ${s}: the first ${bytes} bytes`);
      }
      assert.ok(Buffer.from(read(data.length)).equals(data), `${name}, ${s}: the whole`);
    }
  }
  const data = inputs.mixed;
  const packed = xz(data, settings[0]);
  const bad = packed.slice();
  bad[packed.length - 3] ^= 0x55;
  const read = lzmaReader(bad, data.length);
  assert.ok(Buffer.from(read(1000)).equals(data.subarray(0, 1000)), "a flip near the end leaves the stream's start as it is");
  assert.throws(() => read(data.length), /LZMA stream/, 'and is caught at the end');
});
