// 4:2:0 (8-bit, or 10-bit in 16-bit words) → 32-bit RGB with libswscale's exact
// arithmetic (see ReelCore's YUVToRGB): each channel is (Y − offset)·cy + rounding +
// (U − bias)·cu + (V − bias)·cv, which is what `pmaddwd` computes from 16-bit pairs,
// (Y', 1)·(cy, rounding) and (U', V')·(cu, cv), a pixel a 32-bit lane. `>> 13` (8-bit) or
// `>> 15` (10-bit), then saturating packs to 16 and to 8 bits, is the clamp to 0…255.
#include "ReelPixelKernels.h"
#include "KernelSupport.h"

static inline int32_t sample(const uint8_t *row, int index, int bits) {
    return bits == 8 ? row[index] : ((const uint16_t *)row)[index];
}

/// Pixels `from` up to `width` of a row, one at a time; `red` is red's byte, 0 or 2.
static void row_scalar(const uint8_t *y, const uint8_t *u, const uint8_t *v, int step, uint8_t *out,
                       int from, int width, int red, const ReelYUVToRGBCoefficients *c, int bits) {
    const int shift = bits + 5, bias = 128 << (bits - 8), offset = c->luma_offset << (bits - 8);
    for (int x = from; x < width; x++) {
        const int32_t chroma_u = sample(u, (x / 2) * step, bits) - bias, chroma_v = sample(v, (x / 2) * step, bits) - bias;
        const int32_t luma = (sample(y, x, bits) - offset) * c->y_coefficient + (1 << (shift - 1));
        out[4 * x + red] = clamped_byte((luma + chroma_v * c->v_to_r) >> shift);
        out[4 * x + 1] = clamped_byte((luma + chroma_v * c->v_to_g + chroma_u * c->u_to_g) >> shift);
        out[4 * x + 2 - red] = clamped_byte((luma + chroma_u * c->u_to_b) >> shift);
        out[4 * x + 3] = 255;
    }
}

#ifdef REEL_X86

// SSE2: 16 pixels a step, in one lane.

__attribute__((target("sse2")))
static inline void load_luma8_sse2(const uint8_t *row, int x, __m128i *low, __m128i *high) {
    const __m128i bytes = _mm_loadu_si128((const __m128i *)(row + x));
    *low = _mm_unpacklo_epi8(bytes, _mm_setzero_si128());
    *high = _mm_unpackhi_epi8(bytes, _mm_setzero_si128());
}

__attribute__((target("sse2")))
static inline void load_chroma8_sse2(const uint8_t *u, const uint8_t *v, int step, int x, __m128i *u_out, __m128i *v_out) {
    const __m128i zero = _mm_setzero_si128();
    if (step == 1) {
        *u_out = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(u + x / 2)), zero);
        *v_out = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(v + x / 2)), zero);
        return;
    }
    const __m128i both = _mm_loadu_si128((const __m128i *)((u < v ? u : v) + x));
    const __m128i first = _mm_and_si128(both, _mm_set1_epi16(0xFF));
    const __m128i second = _mm_srli_epi16(both, 8);
    *u_out = u < v ? first : second;
    *v_out = u < v ? second : first;
}

__attribute__((target("sse2")))
static inline void load_luma10_sse2(const uint8_t *row, int x, __m128i *low, __m128i *high) {
    *low = _mm_loadu_si128((const __m128i *)(row + 2 * x));
    *high = _mm_loadu_si128((const __m128i *)(row + 2 * x + 16));
}

__attribute__((target("sse2")))
static inline void load_chroma10_sse2(const uint8_t *u, const uint8_t *v, int step, int x, __m128i *u_out, __m128i *v_out) {
    (void)step;
    *u_out = _mm_loadu_si128((const __m128i *)(u + x));
    *v_out = _mm_loadu_si128((const __m128i *)(v + x));
}

__attribute__((target("sse2")))
static inline void store_quads_sse2(uint8_t *out, const __m128i quads[4]) {
    for (int quarter = 0; quarter < 4; quarter++) _mm_storeu_si128((__m128i *)(out + 16 * quarter), quads[quarter]);
}

#define VECTOR __m128i
#define OP(name) _mm_##name
#define PIXELS 16
#define TARGET "sse2"
#define STORE_QUADS store_quads_sse2
#define LOW_AND_HIGH(low, high) _mm_or_si128(_mm_and_si128(low, _mm_set1_epi32(0xFFFF)), _mm_andnot_si128(_mm_set1_epi32(0xFFFF), high))
#define BITS 8
#define ROWS_KERNEL rows8_sse2
#define LOAD_LUMA load_luma8_sse2
#define LOAD_CHROMA load_chroma8_sse2
#include "YUVToRGBRow.h"
#define BITS 10
#define ROWS_KERNEL rows10_sse2
#define LOAD_LUMA load_luma10_sse2
#define LOAD_CHROMA load_chroma10_sse2
#include "YUVToRGBRow.h"
#include "UndefineWidth.h"

// AVX2: 32 pixels a step, 0–15 in the low lane and 16–31 in the high one, whose chroma is
// pairs 0–7 and 8–15.

__attribute__((target("avx2")))
static inline void load_luma8_avx2(const uint8_t *row, int x, __m256i *low, __m256i *high) {
    const __m256i bytes = _mm256_loadu_si256((const __m256i *)(row + x));
    *low = _mm256_unpacklo_epi8(bytes, _mm256_setzero_si256());
    *high = _mm256_unpackhi_epi8(bytes, _mm256_setzero_si256());
}

__attribute__((target("avx2")))
static inline void load_chroma8_avx2(const uint8_t *u, const uint8_t *v, int step, int x, __m256i *u_out, __m256i *v_out) {
    if (step == 1) {
        *u_out = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(u + x / 2)));
        *v_out = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(v + x / 2)));
        return;
    }
    const __m256i both = _mm256_loadu_si256((const __m256i *)((u < v ? u : v) + x));
    const __m256i first = _mm256_and_si256(both, _mm256_set1_epi16(0xFF));
    const __m256i second = _mm256_srli_epi16(both, 8);
    *u_out = u < v ? first : second;
    *v_out = u < v ? second : first;
}

/// Pixels 0–15 and 16–31 in words; each lane's first 8 in `low`, last 8 in `high`.
__attribute__((target("avx2")))
static inline void load_luma10_avx2(const uint8_t *row, int x, __m256i *low, __m256i *high) {
    const __m256i first = _mm256_loadu_si256((const __m256i *)(row + 2 * x));
    const __m256i second = _mm256_loadu_si256((const __m256i *)(row + 2 * x + 32));
    *low = _mm256_permute2x128_si256(first, second, 0x20);
    *high = _mm256_permute2x128_si256(first, second, 0x31);
}

__attribute__((target("avx2")))
static inline void load_chroma10_avx2(const uint8_t *u, const uint8_t *v, int step, int x, __m256i *u_out, __m256i *v_out) {
    (void)step;
    *u_out = _mm256_loadu_si256((const __m256i *)(u + x));
    *v_out = _mm256_loadu_si256((const __m256i *)(v + x));
}

__attribute__((target("avx2")))
static inline void store_quads_avx2(uint8_t *out, const __m256i quads[4]) {
    _mm256_storeu_si256((__m256i *)out, _mm256_permute2x128_si256(quads[0], quads[1], 0x20));
    _mm256_storeu_si256((__m256i *)(out + 32), _mm256_permute2x128_si256(quads[2], quads[3], 0x20));
    _mm256_storeu_si256((__m256i *)(out + 64), _mm256_permute2x128_si256(quads[0], quads[1], 0x31));
    _mm256_storeu_si256((__m256i *)(out + 96), _mm256_permute2x128_si256(quads[2], quads[3], 0x31));
}

#define VECTOR __m256i
#define OP(name) _mm256_##name
#define PIXELS 32
#define TARGET "avx2"
#define STORE_QUADS store_quads_avx2
#define LOW_AND_HIGH(low, high) _mm256_blend_epi16(low, high, 0xAA)
#define BITS 8
#define ROWS_KERNEL rows8_avx2
#define LOAD_LUMA load_luma8_avx2
#define LOAD_CHROMA load_chroma8_avx2
#include "YUVToRGBRow.h"
#define BITS 10
#define ROWS_KERNEL rows10_avx2
#define LOAD_LUMA load_luma10_avx2
#define LOAD_CHROMA load_chroma10_avx2
#include "YUVToRGBRow.h"
#include "UndefineWidth.h"

// AVX-512 (BW): 64 pixels a step, 16 in each of four lanes, each lane's chroma 8 pairs.

__attribute__((target("avx512f,avx512bw")))
static inline void load_luma8_avx512(const uint8_t *row, int x, __m512i *low, __m512i *high) {
    const __m512i bytes = _mm512_loadu_si512((const void *)(row + x));
    *low = _mm512_unpacklo_epi8(bytes, _mm512_setzero_si512());
    *high = _mm512_unpackhi_epi8(bytes, _mm512_setzero_si512());
}

__attribute__((target("avx512f,avx512bw")))
static inline void load_chroma8_avx512(const uint8_t *u, const uint8_t *v, int step, int x, __m512i *u_out, __m512i *v_out) {
    if (step == 1) {
        *u_out = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(u + x / 2)));
        *v_out = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(v + x / 2)));
        return;
    }
    const __m512i both = _mm512_loadu_si512((const void *)((u < v ? u : v) + x));
    const __m512i first = _mm512_and_si512(both, _mm512_set1_epi16(0xFF));
    const __m512i second = _mm512_srli_epi16(both, 8);
    *u_out = u < v ? first : second;
    *v_out = u < v ? second : first;
}

/// Pixels 0–31 and 32–63 in words; each lane's first 8 in `low`, last 8 in `high`.
__attribute__((target("avx512f,avx512bw")))
static inline void load_luma10_avx512(const uint8_t *row, int x, __m512i *low, __m512i *high) {
    const __m512i first = _mm512_loadu_si512((const void *)(row + 2 * x));
    const __m512i second = _mm512_loadu_si512((const void *)(row + 2 * x + 64));
    *low = _mm512_shuffle_i64x2(first, second, 0x88);
    *high = _mm512_shuffle_i64x2(first, second, 0xDD);
}

__attribute__((target("avx512f,avx512bw")))
static inline void load_chroma10_avx512(const uint8_t *u, const uint8_t *v, int step, int x, __m512i *u_out, __m512i *v_out) {
    (void)step;
    *u_out = _mm512_loadu_si512((const void *)(u + x));
    *v_out = _mm512_loadu_si512((const void *)(v + x));
}

/// Quad k holds pixels 4k…4k+3 of each lane's 16: a 4 × 4 transpose of lanes.
__attribute__((target("avx512f,avx512bw")))
static inline void store_quads_avx512(uint8_t *out, const __m512i quads[4]) {
    const __m512i low_pairs_01 = _mm512_shuffle_i64x2(quads[0], quads[1], 0x44);
    const __m512i low_pairs_23 = _mm512_shuffle_i64x2(quads[2], quads[3], 0x44);
    const __m512i high_pairs_01 = _mm512_shuffle_i64x2(quads[0], quads[1], 0xEE);
    const __m512i high_pairs_23 = _mm512_shuffle_i64x2(quads[2], quads[3], 0xEE);
    _mm512_storeu_si512((void *)out, _mm512_shuffle_i64x2(low_pairs_01, low_pairs_23, 0x88));
    _mm512_storeu_si512((void *)(out + 64), _mm512_shuffle_i64x2(low_pairs_01, low_pairs_23, 0xDD));
    _mm512_storeu_si512((void *)(out + 128), _mm512_shuffle_i64x2(high_pairs_01, high_pairs_23, 0x88));
    _mm512_storeu_si512((void *)(out + 192), _mm512_shuffle_i64x2(high_pairs_01, high_pairs_23, 0xDD));
}

#define VECTOR __m512i
#define OP(name) _mm512_##name
#define PIXELS 64
#define TARGET "avx512f,avx512bw"
#define STORE_QUADS store_quads_avx512
#define LOW_AND_HIGH(low, high) _mm512_mask_blend_epi16(0xAAAAAAAA, low, high)
#define BITS 8
#define ROWS_KERNEL rows8_avx512
#define LOAD_LUMA load_luma8_avx512
#define LOAD_CHROMA load_chroma8_avx512
#include "YUVToRGBRow.h"
#define BITS 10
#define ROWS_KERNEL rows10_avx512
#define LOAD_LUMA load_luma10_avx512
#define LOAD_CHROMA load_chroma10_avx512
#include "YUVToRGBRow.h"
#include "UndefineWidth.h"

#endif

int reel_yuv420_to_rgb32(const uint8_t *y, ptrdiff_t y_stride, const uint8_t *u, ptrdiff_t u_stride,
                         const uint8_t *v, ptrdiff_t v_stride, int chroma_step, uint8_t *out, ptrdiff_t out_stride,
                         int width, int height, int red_first, const ReelYUVToRGBCoefficients *coefficients,
                         int sample_bits, int kernel) {
    if (kernel != REEL_PIXEL_KERNEL_SSE2 && kernel != REEL_PIXEL_KERNEL_AVX2 && kernel != REEL_PIXEL_KERNEL_AVX512) return -1;
    if ((sample_bits != 8 && sample_bits != 10) || (sample_bits == 10 && chroma_step != 1)) return -1;
    if (!(reel_pixel_kernels_available() & kernel)) return -1;
#ifdef REEL_X86
    typedef void (*Rows)(const uint8_t *[2], uint8_t *[2], int, const uint8_t *, const uint8_t *, int, int, int,
                         const ReelYUVToRGBCoefficients *);
    const Rows rows_kernel = kernel == REEL_PIXEL_KERNEL_AVX512 ? (sample_bits == 8 ? rows8_avx512 : rows10_avx512)
                             : kernel == REEL_PIXEL_KERNEL_AVX2 ? (sample_bits == 8 ? rows8_avx2 : rows10_avx2)
                             : (sample_bits == 8 ? rows8_sse2 : rows10_sse2);
    // Rows 2k and 2k + 1 read chroma row k.
    for (int row = 0; row < height; row += 2) {
        const uint8_t *rows[2] = {y + row * y_stride, y + (row + 1) * y_stride};
        uint8_t *outs[2] = {out + row * out_stride, out + (row + 1) * out_stride};
        rows_kernel(rows, outs, row + 1 < height ? 2 : 1, u + (row / 2) * u_stride, v + (row / 2) * v_stride, chroma_step,
                    width, red_first, coefficients);
    }
#else
    (void)y; (void)y_stride; (void)u; (void)u_stride; (void)v; (void)v_stride; (void)chroma_step; (void)out;
    (void)out_stride; (void)width; (void)height; (void)red_first; (void)coefficients; (void)row_scalar;
#endif
    return 0;
}
