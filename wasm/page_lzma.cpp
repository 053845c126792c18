// The page's LZMA decoder: a freestanding wasm module of its own (no libc, no
// imports) that web/src/lzma.ts instantiates to unpack the page's one LZMA
// stream (vite.config.mts, packedPage(); docs/performance-log.md, "The first
// figure"). Why wasm and not JavaScript: the stream is decoded once, cold,
// before any of the page's code runs, and V8 runs a cold JavaScript decoder
// about half as fast as this one (docs/performance.md, with the measurement).
//
// Written from the LZMA SDK's specification (DOC/lzma-specification.txt and
// its reference decoder LzmaSpec.cpp, public domain); names follow it. The
// format is "LZMA alone" (xz --format=lzma). Decoding into one output array
// that is also the dictionary, it needs no separate window.

namespace {

using u8 = unsigned char;
using u16 = unsigned short;
using u32 = unsigned int;

// Offsets into one table of 11-bit probabilities (LzmaSpec.cpp's decoders).
constexpr u32 kIsMatch = 0;      // [state << 4 | posState], 12 states x 16 pos states
constexpr u32 kIsRep = 192;      // [state]
constexpr u32 kIsRepG0 = 204;
constexpr u32 kIsRepG1 = 216;
constexpr u32 kIsRepG2 = 228;
constexpr u32 kIsRep0Long = 240; // [state << 4 | posState]
constexpr u32 kPosSlot = 432;    // 4 length states x a 6-bit tree
constexpr u32 kSpecPos = 688;    // kNumFullDistances - kEndPosModelIndex = 114 (+1: trees index from 1)
constexpr u32 kAlign = 802;      // a 4-bit tree
constexpr u32 kLen = 818;        // the match length decoder; the rep length decoder follows it
constexpr u32 kLenSize = 514;    // choice, choice2, 16 x low 3-bit, 16 x mid 3-bit, high 8-bit
constexpr u32 kLiteral = kLen + 2 * kLenSize; // 0x300 per literal context


// The range decoder (specification, "The range decoder"). Its state lives at
// namespace scope, not in a struct passed by pointer: one decode at a time,
// and the module is ~110 bytes smaller so (the page's weight, docs/performance.md).
// So does the decoder's (below), so that a decode can pause and go on.
const u8* in;
u32 range;
u32 code;
u16* probs;

void normalize() {
  if (range < (1u << 24)) {
    range <<= 8;
    code = (code << 8) | *in++;
  }
}
u32 bit(u32 i) {
  u16& p = probs[i];
  const u32 bound = (range >> 11) * p;
  u32 b;
  if (code < bound) {
    range = bound;
    p = static_cast<u16>(p + ((2048 - p) >> 5));
    b = 0;
  } else {
    range -= bound;
    code -= bound;
    p = static_cast<u16>(p - (p >> 5));
    b = 1;
  }
  normalize();
  return b;
}
// A bit tree of `bits` levels at `base`, most significant bit first.
u32 tree(u32 base, u32 bits) {
  u32 m = 1;
  for (u32 i = 0; i < bits; i++) m = (m << 1) | bit(base + m);
  return m - (1u << bits);
}
// The same, least significant bit first.
u32 reverse(u32 base, u32 bits) {
  u32 m = 1;
  u32 sym = 0;
  for (u32 i = 0; i < bits; i++) {
    const u32 b = bit(base + m);
    m = (m << 1) | b;
    sym |= b << i;
  }
  return sym;
}
u32 length(u32 base, u32 pos_state) {
  if (!bit(base)) return tree(base + 2 + (pos_state << 3), 3);
  if (!bit(base + 1)) return 8 + tree(base + 130 + (pos_state << 3), 3);
  return 16 + tree(base + 258, 8);
}

// The decoder's state between calls (lzma_start, lzma_decode); a call works
// on local copies of the part that changes (smaller code than memory).
struct Saved {
  u32 pos, state, rep0, rep1, rep2, rep3;
};
Saved saved;
const u8* packed_end;
u8* out;
u32 size;
u32 lc, lp, pb_mask;

}  // namespace

// Starts decoding the stream of `packed_size` bytes at `packed` into `size`
// bytes at `out`, with its probability tables at `tables` (2 × (1846 + 0x300
// << 4) bytes at most, 27.6 KiB: web/src/lzma.ts leaves 32): returns 0, or -1
// for a header the decoder does not take. lzma_decode then decodes.
extern "C" __attribute__((export_name("lzma_start"))) int lzma_start(const u8* packed, u32 packed_size, u8* output, u32 output_size, u16* tables) {
  u32 d = packed[0];
  lc = d % 9;
  d /= 9;
  lp = d % 5;
  const u32 pb = d / 5;
  if (pb > 4) return -1;
  // Bytes 5-12, the uncompressed size, go unread: the page's streams (xz
  // --format=lzma, from a pipe) leave it unknown and end with an end marker,
  // which must come exactly at `size`; a stream without one fails at `size`.
  // The probability tables (room for lc + lp <= 4, as xz writes).
  if (lc + lp > 4) return -1;
  const u32 probs_count = kLiteral + (0x300u << (lc + lp));
  probs = tables;
  for (u32 i = 0; i < probs_count; i++) probs[i] = 1024;

  // 13 header bytes, then the coder's first byte (0) and 4 code bytes.
  in = packed + 18;
  packed_end = packed + packed_size;
  range = 0xffffffffu;
  code = (static_cast<u32>(packed[14]) << 24) | (packed[15] << 16) | (packed[16] << 8) | packed[17];
  if (packed[13] != 0 || code == range) return -1;
  out = output;
  size = output_size;
  saved = Saved{};
  pb_mask = (1u << pb) - 1;
  return 0;
}

// Decodes on from where the last call stopped: for `limit` < `size`, until
// at least `limit` bytes are out (a match may take it a little past), and
// returns how many are; for `limit` >= `size`, to the end marker, which must
// come exactly at `size`, and returns `size`. -1: the stream is broken,
// truncated, longer or shorter. Pausing lets the page use the first part of
// its stream before the rest is decoded (web/src/boot.ts).
extern "C" __attribute__((export_name("lzma_decode"))) int lzma_decode(u32 limit) {
  auto [pos, state, rep0, rep1, rep2, rep3] = saved;
  // Each step writes at least one byte or ends, so `size` bounds the loop.
  for (;;) {
    if (limit < size && pos >= limit) {
      saved = Saved{pos, state, rep0, rep1, rep2, rep3};
      return static_cast<int>(pos);
    }
    const u32 pos_state = pos & pb_mask;
    if (!bit(kIsMatch + (state << 4) + pos_state)) {
      // A literal, coded against the byte at rep0 after a match (state >= 7).
      if (pos >= size) return -1;
      const u32 prev = pos ? out[pos - 1] : 0;
      const u32 base = kLiteral + 0x300 * (((pos & ((1u << lp) - 1)) << lc) + (prev >> (8 - lc)));
      u32 sym = 1;
      if (state >= 7) {
        u32 match_byte = out[pos - rep0 - 1];
        do {
          const u32 match_bit = (match_byte >> 7) & 1;
          match_byte <<= 1;
          const u32 b = bit(base + ((1 + match_bit) << 8) + sym);
          sym = (sym << 1) | b;
          if (match_bit != b) break;
        } while (sym < 0x100);
      }
      while (sym < 0x100) sym = (sym << 1) | bit(base + sym);
      out[pos++] = static_cast<u8>(sym);
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    u32 len;
    if (bit(kIsRep + state)) {
      if (!pos || pos >= size) return -1;
      if (!bit(kIsRepG0 + state)) {
        if (!bit(kIsRep0Long + (state << 4) + pos_state)) {
          // A "short rep": one byte from rep0.
          state = state < 7 ? 9 : 11;
          out[pos] = out[pos - rep0 - 1];
          pos++;
          continue;
        }
      } else {
        u32 dist;
        if (!bit(kIsRepG1 + state)) {
          dist = rep1;
        } else {
          if (!bit(kIsRepG2 + state)) {
            dist = rep2;
          } else {
            dist = rep3;
            rep3 = rep2;
          }
          rep2 = rep1;
        }
        rep1 = rep0;
        rep0 = dist;
      }
      len = length(kLen + kLenSize, pos_state);
      state = state < 7 ? 8 : 11;
    } else {
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      len = length(kLen, pos_state);
      state = state < 7 ? 7 : 10;
      // The distance (specification, "The match distance").
      const u32 slot = tree(kPosSlot + ((len < 3 ? len : 3) << 6), 6);
      if (slot < 4) {
        rep0 = slot;
      } else {
        const u32 direct = (slot >> 1) - 1;
        rep0 = (2 | (slot & 1)) << direct;
        if (slot < 14) {
          rep0 += reverse(kSpecPos + rep0 - slot, direct);
        } else {
          for (u32 i = direct - 4; i > 0; i--) {
            range >>= 1;
            const u32 b = code >= range ? 1 : 0;
            if (b) code -= range;
            rep0 += b << (i + 3);
            normalize();
          }
          rep0 += reverse(kAlign, 4);
        }
        if (rep0 == 0xffffffffu) {
          // The end marker: the stream is done, and must have ended cleanly.
          if (code) return -1;
          break;
        }
      }
    }
    len += 2;
    if (rep0 >= pos) return -1;
    if (len > size - pos) return -1;
    for (; len > 0; len--, pos++) out[pos] = out[pos - rep0 - 1];
  }
  if (pos != size) return -1;
  // A truncated stream reads on past its end (harmlessly, in this module's
  // memory) and is caught here.
  if (in > packed_end) return -1;
  return static_cast<int>(size);
}
