// LZMA decompression of the planner's wasm, which the page carries
// LZMA-compressed (vite.config.mts: xz --format=lzma; docs/performance.md).
// A decoder of the "LZMA alone" format written from the LZMA SDK's
// specification (DOC/lzma-specification.txt and its reference decoder
// LzmaSpec.cpp, LZMA SDK 9.35+, public domain; names below follow it). It
// replaces js-lzma 0.1.0, a port whose prototype methods and byte callbacks
// the minifier could not shorten (~2.5 KiB of the page; this is ~1 KiB).
// Decoding into one output array that is also the dictionary, it needs no
// separate window. The build runs this same function on the stream it made
// and fails unless it gives the wasm back byte for byte (vite.config.mts).

// Offsets into one table of 11-bit probabilities (LzmaSpec.cpp's decoders).
const IS_MATCH = 0; // [state << 4 | posState], 12 states × 16 pos states
const IS_REP = 192; // [state]
const IS_REP_G0 = 204;
const IS_REP_G1 = 216;
const IS_REP_G2 = 228;
const IS_REP0_LONG = 240; // [state << 4 | posState]
const POS_SLOT = 432; // 4 length states × a 6-bit tree
const SPEC_POS = 688; // kNumFullDistances - kEndPosModelIndex = 114 (+1: trees index from 1)
const ALIGN = 802; // a 4-bit tree
const LEN = 818; // the match length decoder; REP_LEN follows it
const LEN_SIZE = 514; // choice, choice2, 16 × low 3-bit, 16 × mid 3-bit, high 8-bit
const LITERAL = LEN + 2 * LEN_SIZE; // 0x300 per literal context

// `size`: the decompressed length, known at build time, so the output is one
// typed array instead of a growing list.
export function lzmaDecompress(packed: Uint8Array, size: number): Uint8Array {
  // One message for every way a stream can be broken: it reaches a student
  // only as "the planner failed to load", and each byte of the boot script
  // is carried outside the stream (the reasons are in the comments below).
  const fail = (): never => {
    throw new Error(`LZMA stream broken (expected ${size} bytes)`);
  };
  // Header: properties byte (lc, lp, pb), dictionary size (u32 LE),
  // uncompressed size (u64 LE, all ones when unknown: then an end marker ends it).
  let d = packed[0];
  const lc = d % 9;
  d = (d - lc) / 9;
  const lp = d % 5;
  const pb = (d - lp) / 5;
  if (pb > 4) fail(); // bad properties
  let known = -1;
  for (let i = 12; i > 4; i--) {
    if (packed[i] !== 255) known = 0;
  }
  if (known === 0) for (let i = 12; i > 4; i--) known = known * 256 + packed[i];
  const end = known < 0 ? size : known;
  if (end > size) fail(); // declares more bytes than expected

  const probs = new Uint16Array(LITERAL + (0x300 << (lc + lp))).fill(1024);
  // The range decoder (specification, "The range decoder"). Its range, code
  // and input position live in one typed array, not in variables the helpers
  // below close over: V8 boxes a number above 2^30 that it stores in a
  // closure's context, range and code are 32-bit values, and so the decoder
  // allocated on almost every bit (half the speed; docs/performance.md,
  // "The first figure").
  const rc = new Uint32Array(3); // [range, code, next input byte]
  rc[0] = 0xffffffff;
  rc[1] = (packed[14] << 24) | (packed[15] << 16) | (packed[16] << 8) | packed[17];
  rc[2] = 18; // 13 header bytes, then the coder's first byte (0) and 4 code bytes
  if (packed[13] !== 0 || rc[1] === rc[0]) fail(); // bad range coder start
  const normalize = (): void => {
    if (rc[0] < 0x1000000) {
      rc[0] <<= 8;
      rc[1] = (rc[1] << 8) | packed[rc[2]++];
    }
  };
  const bit = (i: number): number => {
    const p = probs[i];
    const bound = (rc[0] >>> 11) * p;
    let b: number;
    if (rc[1] < bound) {
      rc[0] = bound;
      probs[i] = p + ((2048 - p) >> 5);
      b = 0;
    } else {
      rc[0] -= bound;
      rc[1] -= bound;
      probs[i] = p - (p >> 5);
      b = 1;
    }
    normalize();
    return b;
  };
  // A bit tree of `bits` levels at `base`, most significant bit first.
  const tree = (base: number, bits: number): number => {
    let m = 1;
    for (let i = 0; i < bits; i++) m = (m << 1) | bit(base + m);
    return m - (1 << bits);
  };
  // The same, least significant bit first.
  const reverse = (base: number, bits: number): number => {
    let m = 1;
    let sym = 0;
    for (let i = 0; i < bits; i++) {
      const b = bit(base + m);
      m = (m << 1) | b;
      sym |= b << i;
    }
    return sym;
  };
  const length = (base: number, posState: number): number =>
    !bit(base) ? tree(base + 2 + (posState << 3), 3)
      : !bit(base + 1) ? 8 + tree(base + 130 + (posState << 3), 3)
        : 16 + tree(base + 258, 8);

  const out = new Uint8Array(size);
  let pos = 0;
  let state = 0;
  let rep0 = 0;
  let rep1 = 0;
  let rep2 = 0;
  let rep3 = 0;
  const pbMask = (1 << pb) - 1;
  // Each step writes at least one byte or ends, so `end` bounds the loop.
  for (;;) {
    if (known >= 0 && pos === end) break;
    const posState = pos & pbMask;
    if (!bit(IS_MATCH + (state << 4) + posState)) {
      // A literal, coded against the byte at rep0 after a match (state >= 7).
      if (pos >= end) fail(); // longer than expected
      const prev = pos ? out[pos - 1] : 0;
      const base = LITERAL + 0x300 * (((pos & ((1 << lp) - 1)) << lc) + (prev >> (8 - lc)));
      let sym = 1;
      if (state >= 7) {
        let matchByte = out[pos - rep0 - 1];
        do {
          const matchBit = (matchByte >> 7) & 1;
          matchByte <<= 1;
          const b = bit(base + ((1 + matchBit) << 8) + sym);
          sym = (sym << 1) | b;
          if (matchBit !== b) break;
        } while (sym < 0x100);
      }
      while (sym < 0x100) sym = (sym << 1) | bit(base + sym);
      out[pos++] = sym;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    let len: number;
    if (bit(IS_REP + state)) {
      if (!pos || pos >= end) fail(); // a repeat before any output, or past the end
      if (!bit(IS_REP_G0 + state)) {
        if (!bit(IS_REP0_LONG + (state << 4) + posState)) {
          // A "short rep": one byte from rep0.
          state = state < 7 ? 9 : 11;
          out[pos] = out[pos - rep0 - 1];
          pos++;
          continue;
        }
      } else {
        let dist: number;
        if (!bit(IS_REP_G1 + state)) dist = rep1;
        else {
          if (!bit(IS_REP_G2 + state)) dist = rep2;
          else {
            dist = rep3;
            rep3 = rep2;
          }
          rep2 = rep1;
        }
        rep1 = rep0;
        rep0 = dist;
      }
      len = length(LEN + LEN_SIZE, posState);
      state = state < 7 ? 8 : 11;
    } else {
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      len = length(LEN, posState);
      state = state < 7 ? 7 : 10;
      // The distance (specification, "The match distance").
      const slot = tree(POS_SLOT + (Math.min(len, 3) << 6), 6);
      if (slot < 4) rep0 = slot;
      else {
        const direct = (slot >> 1) - 1;
        rep0 = (2 | (slot & 1)) * 2 ** direct;
        if (slot < 14) rep0 += reverse(SPEC_POS + rep0 - slot, direct);
        else {
          let high = 0;
          for (let i = direct - 4; i > 0; i--) {
            rc[0] >>>= 1;
            const b = rc[1] >= rc[0] ? 1 : 0;
            if (b) rc[1] -= rc[0];
            high = high * 2 + b;
            normalize();
          }
          rep0 += high * 16 + reverse(ALIGN, 4);
        }
        if (rep0 === 0xffffffff) {
          // The end marker: the stream is done, and must have ended cleanly.
          if (rc[1]) fail(); // corrupt end
          break;
        }
      }
    }
    len += 2;
    if (rep0 >= pos) fail(); // a distance beyond the output
    if (pos + len > end) fail(); // longer than expected
    for (; len > 0; len--, pos++) out[pos] = out[pos - rep0 - 1];
  }
  if (pos !== size || rc[2] > packed.length) fail(); // shorter than expected, or read past its end
  return out;
}
