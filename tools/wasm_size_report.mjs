#!/usr/bin/env node
// Where a wasm module's bytes go: section sizes, the largest functions and
// groups of functions (by namespace / template), each raw and gzip -9.
//   node tools/wasm_size_report.mjs MODULE.wasm|MODULE.mjs [--top N] [--list-other]
// (an Emscripten SINGLE_FILE .js/.mjs: the wasm embedded in it as base64)
// The module needs a name section: link a copy with --profiling-funcs (the
// names do not change the code; docs/performance.md has the command).
// Binary format: https://webassembly.github.io/spec/core/binary/modules.html
// name section: https://webassembly.github.io/spec/core/appendix/custom.html#name-section
// A group's gzip size is its functions' bodies concatenated and compressed on
// their own, so groups do not add up to the module's gzip size exactly.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const file = process.argv[2];
if (!file) {
  console.error('usage: node tools/wasm_size_report.mjs MODULE.wasm|MODULE.mjs [--top N] [--list-other]');
  process.exit(2);
}
const topArg = process.argv.indexOf('--top');
const TOP = topArg > 0 ? Number(process.argv[topArg + 1]) : 40;
const bytes = (() => {
  const raw = readFileSync(file);
  if (!/\.m?js$/.test(file)) return raw;
  const m = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/.exec(raw.toString('utf8'));
  if (!m) throw new Error(`${file}: no embedded wasm (SINGLE_FILE)`);
  return Buffer.from(m[1], 'base64');
})();
const gz = (buf) => gzipSync(buf, { level: 9 }).length;

let pos = 8; // magic + version
function leb() {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(b & 0x80)) return result;
  }
}
function name() {
  const n = leb();
  const s = bytes.subarray(pos, pos + n).toString('utf8');
  pos += n;
  return s;
}

const SECTION = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start',
  'element', 'code', 'data', 'datacount', 'tag'];
const sections = [];
let importedFunctions = 0;
const bodies = []; // {index, size, start}
const names = new Map();
const dataSegments = [];
while (pos < bytes.length) {
  const id = bytes[pos++];
  const size = leb();
  const start = pos;
  let label = SECTION[id] ?? `id ${id}`;
  if (id === 0) label = `custom "${name()}"`;
  sections.push({ label, size, gzip: gz(bytes.subarray(start, start + size)) });
  if (id === 2) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      name(); name();
      const kind = bytes[pos++];
      if (kind === 0) { leb(); importedFunctions++; }
      else if (kind === 1) { pos++; const flags = leb(); leb(); if (flags & 1) leb(); }
      else if (kind === 2) { const flags = leb(); leb(); if (flags & 1) leb(); }
      else if (kind === 3) { pos += 2; }
      else if (kind === 4) { pos++; leb(); }
    }
  } else if (id === 10) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      const size = leb();
      bodies.push({ index: importedFunctions + i, size, start: pos });
      pos += size;
    }
  } else if (id === 11) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      const flags = leb();
      if (flags === 2) leb();
      if (flags !== 1) { pos++; leb(); pos++; } // the offset: i32.const or global.get, its immediate, end
      const n = leb();
      dataSegments.push({ size: n, start: pos });
      pos += n;
    }
  } else if (label === 'custom "name"') {
    while (pos < start + size) {
      const sub = bytes[pos++];
      const subSize = leb();
      const subEnd = pos + subSize;
      if (sub === 1) {
        const count = leb();
        for (let i = 0; i < count; i++) { const idx = leb(); names.set(idx, name()); }
      }
      pos = subEnd;
    }
  }
  pos = start + size;
}

const kb = (n) => (n / 1000).toFixed(1).padStart(7);
console.log(`${file}: ${kb(bytes.length)} KB raw, ${kb(gz(bytes))} KB gzip -9\n`);
console.log('section                       raw KB  gzip KB');
for (const s of sections) console.log(`${s.label.padEnd(28)}${kb(s.size)}  ${kb(s.gzip)}`);

if (names.size === 0) {
  console.log('\n(no name section: link with --profiling-funcs for the per-function table)');
  process.exit(0);
}

// Data: the largest segments, and the longest printable runs in them (the
// embedded catalog is one string).
console.log(`\ndata segments: ${dataSegments.length}, largest ${kb(Math.max(...dataSegments.map((d) => d.size)))} KB`);

const fn = bodies.map((b) => ({ ...b, name: names.get(b.index) ?? `f${b.index}` }));
const total = fn.reduce((a, b) => a + b.size, 0);
console.log(`\ncode: ${fn.length} functions, ${kb(total)} KB raw\n`);
console.log(`largest ${TOP} functions (raw KB):`);
for (const f of [...fn].sort((a, b) => b.size - a.size).slice(0, TOP)) {
  console.log(`${kb(f.size)}  ${f.name.length > 150 ? `${f.name.slice(0, 147)}...` : f.name}`);
}

// Groups: the first rule that matches a (demangled) name.
const GROUPS = [
  ['nlohmann::json lexer', /nlohmann.*detail::lexer|lexer<nlohmann/],
  ['nlohmann::json parser / SAX', /nlohmann.*detail::(parser|json_sax)|sax_parse|json_sax_dom/],
  ['nlohmann::json exceptions', /nlohmann.*detail::(exception|parse_error|type_error|out_of_range|invalid_iterator|other_error)|concat<|position_string/],
  ['nlohmann::json serializer / to_chars', /nlohmann.*detail::(serializer|dtoa_impl|to_chars)/],
  ['nlohmann::json other', /nlohmann/],
  ['embind', /emscripten::|_embind_|EmscriptenBindingInitializer/],
  ['gpuplan (the core)', /gpuplan::/],
  ['libc++ iostream / locale', /std::__2::(basic_(i|o)?stream|basic_ios|ios_base|locale|ctype|num_put|num_get|codecvt|moneypunct|time_|messages|collate|__num|basic_streambuf|basic_stringbuf|basic_istringstream|basic_ostringstream|numpunct)/],
  ['libc++ std::string', /std::__2::basic_string|char_traits/],
  ['libc++ containers / algorithms', /std::__2::(vector|__tree|map|__hash|unordered|__split_buffer|__sort|__insertion|__introsort|optional|variant|__function|function)/],
  ['libc++ other', /std::__2::|std::/],
  ['printf / strtod / libc', /printf|strtod|scanf|fmt_|pop_arg|__floatscan|__intscan|vfprintf|strto|sn?printf|^fmt/],
  ['malloc', /malloc|free|emmalloc|sbrk|realloc|memalign/],
  ['libc / compiler-rt', /^(mem|str|__|_)/],
];
const groups = new Map();
for (const f of fn) {
  const g = GROUPS.find(([, re]) => re.test(f.name))?.[0] ?? 'other';
  if (!groups.has(g)) groups.set(g, []);
  groups.get(g).push(f);
}
console.log('\ngroups                                  fns   raw KB  gzip KB (alone)');
for (const [g, list] of [...groups].sort((a, b) => b[1].reduce((s, f) => s + f.size, 0) - a[1].reduce((s, f) => s + f.size, 0))) {
  const raw = list.reduce((s, f) => s + f.size, 0);
  const z = gz(Buffer.concat(list.map((f) => bytes.subarray(f.start, f.start + f.size))));
  console.log(`${g.padEnd(38)}${String(list.length).padStart(5)}  ${kb(raw)}  ${kb(z)}`);
}
if (process.argv.includes('--list-other')) {
  for (const f of groups.get('other') ?? []) console.log(`  other ${kb(f.size)} ${f.name}`);
}
