// The stores of RGBToYUV.c's kernels for one vector width, included there after the width's
// macros (and named with WIDTH_NAME): levels packed to bytes or to 10-bit words, back in
// pixel order (packs work within 128-bit lanes: FIX_ORDER puts 32-bit groups back in order,
// FIX_WORDS 64-bit ones).

__attribute__((target(TARGET)))
static inline void WIDTH_NAME(store_luma8)(uint8_t *y, int x, const VECTOR levels[4]) {
    STORE(y + x, FIX_ORDER(OP(packus_epi16)(OP(packs_epi32)(levels[0], levels[1]), OP(packs_epi32)(levels[2], levels[3]))));
}

__attribute__((target(TARGET)))
static inline void WIDTH_NAME(store_chroma8)(uint8_t *u, uint8_t *v, int step, int x, const VECTOR u_levels[2], const VECTOR v_levels[2]) {
    const VECTOR bytes = FIX_ORDER(OP(packus_epi16)(OP(packs_epi32)(u_levels[0], u_levels[1]), OP(packs_epi32)(v_levels[0], v_levels[1])));
    STORE_CHROMA_BYTES(bytes, u + x / 2 * step, v + x / 2 * step, step);
}

/// Two registers of levels as one of words clamped to 0…1023, in order.
__attribute__((target(TARGET)))
static inline VECTOR WIDTH_NAME(ten_bit_words)(VECTOR first, VECTOR second) {
    const VECTOR words = OP(packs_epi32)(first, second);
    return FIX_WORDS(OP(min_epi16)(OP(max_epi16)(words, OP(set1_epi16)(0)), OP(set1_epi16)(1023)));
}

__attribute__((target(TARGET)))
static inline void WIDTH_NAME(store_luma10)(uint8_t *y, int x, const VECTOR levels[4]) {
    STORE(y + 2 * x, WIDTH_NAME(ten_bit_words)(levels[0], levels[1]));
    STORE(y + 2 * x + sizeof(VECTOR), WIDTH_NAME(ten_bit_words)(levels[2], levels[3]));
}

/// Planar chroma only (10-bit output is I420P10).
__attribute__((target(TARGET)))
static inline void WIDTH_NAME(store_chroma10)(uint8_t *u, uint8_t *v, int step, int x, const VECTOR u_levels[2], const VECTOR v_levels[2]) {
    (void)step;
    STORE(u + x, WIDTH_NAME(ten_bit_words)(u_levels[0], u_levels[1]));
    STORE(v + x, WIDTH_NAME(ten_bit_words)(v_levels[0], v_levels[1]));
}

#define OUT_BITS 8
#define ROW_KERNEL WIDTH_NAME(rgb8_row)
#define STORE_LUMA WIDTH_NAME(store_luma8)
#define STORE_CHROMA WIDTH_NAME(store_chroma8)
#include "RGBToYUVRow.h"
#define OUT_BITS 10
#define ROW_KERNEL WIDTH_NAME(rgb10_row)
#define STORE_LUMA WIDTH_NAME(store_luma10)
#define STORE_CHROMA WIDTH_NAME(store_chroma10)
#include "RGBToYUVRow.h"
