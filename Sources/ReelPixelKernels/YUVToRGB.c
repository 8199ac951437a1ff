// 8-bit 4:2:0 → 32-bit RGB with libswscale's exact arithmetic (see ReelCore's YUVToRGB):
// each channel is (Y − offset)·cy + 4096 + (U − 128)·cu + (V − 128)·cv, which is what
// `pmaddwd` computes from 16-bit pairs, (Y', 1)·(cy, 4096) and (U', V')·(cu, cv), a pixel
// a 32-bit lane. `>> 13`, then saturating packs to 16 and to 8 bits, is the clamp to 0…255.
#include "ReelPixelKernels.h"
#include "KernelSupport.h"

static inline uint8_t clamped_level(int32_t value) {
    return clamped_byte(value >> 13);
}

/// Pixels `from` up to `width` of a row, one at a time; `red` is red's byte, 0 or 2.
static void row_scalar(const uint8_t *y, const uint8_t *u, const uint8_t *v, int step, uint8_t *out,
                       int from, int width, int red, const ReelYUVToRGBCoefficients *c) {
    for (int x = from; x < width; x++) {
        const int32_t chroma_u = u[(x / 2) * step] - 128, chroma_v = v[(x / 2) * step] - 128;
        const int32_t luma = (y[x] - c->luma_offset) * c->y_coefficient + 4096;
        out[4 * x + red] = clamped_level(luma + chroma_v * c->v_to_r);
        out[4 * x + 1] = clamped_level(luma + chroma_v * c->v_to_g + chroma_u * c->u_to_g);
        out[4 * x + 2 - red] = clamped_level(luma + chroma_u * c->u_to_b);
        out[4 * x + 3] = 255;
    }
}

#ifdef REEL_X86

// SSE2: 16 pixels a step, in one lane.

__attribute__((target("sse2")))
static inline void load_chroma_sse2(const uint8_t *u, const uint8_t *v, int step, int x, __m128i *u_out, __m128i *v_out) {
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
static inline void store_quads_sse2(uint8_t *out, const __m128i quads[4]) {
    for (int quarter = 0; quarter < 4; quarter++) _mm_storeu_si128((__m128i *)(out + 16 * quarter), quads[quarter]);
}

#define VECTOR __m128i
#define OP(name) _mm_##name
#define PIXELS 16
#define ROWS_KERNEL rows_sse2
#define TARGET "sse2"
#define ZERO _mm_setzero_si128()
#define LOAD(pointer) _mm_loadu_si128((const __m128i *)(pointer))
#define LOAD_CHROMA load_chroma_sse2
#define STORE_QUADS store_quads_sse2
#define LOW_AND_HIGH(low, high) _mm_or_si128(_mm_and_si128(low, _mm_set1_epi32(0xFFFF)), _mm_andnot_si128(_mm_set1_epi32(0xFFFF), high))
#include "YUVToRGBRow.h"

// AVX2: 32 pixels a step, 0–15 in the low lane and 16–31 in the high one, whose chroma is
// pairs 0–7 and 8–15.

__attribute__((target("avx2")))
static inline void load_chroma_avx2(const uint8_t *u, const uint8_t *v, int step, int x, __m256i *u_out, __m256i *v_out) {
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
#define ROWS_KERNEL rows_avx2
#define TARGET "avx2"
#define ZERO _mm256_setzero_si256()
#define LOAD(pointer) _mm256_loadu_si256((const __m256i *)(pointer))
#define LOAD_CHROMA load_chroma_avx2
#define STORE_QUADS store_quads_avx2
#define LOW_AND_HIGH(low, high) _mm256_blend_epi16(low, high, 0xAA)
#include "YUVToRGBRow.h"

// AVX-512 (BW): 64 pixels a step, 16 in each of four lanes, each lane's chroma 8 pairs.

__attribute__((target("avx512f,avx512bw")))
static inline void load_chroma_avx512(const uint8_t *u, const uint8_t *v, int step, int x, __m512i *u_out, __m512i *v_out) {
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
#define ROWS_KERNEL rows_avx512
#define TARGET "avx512f,avx512bw"
#define ZERO _mm512_setzero_si512()
#define LOAD(pointer) _mm512_loadu_si512((const void *)(pointer))
#define LOAD_CHROMA load_chroma_avx512
#define STORE_QUADS store_quads_avx512
#define LOW_AND_HIGH(low, high) _mm512_mask_blend_epi16(0xAAAAAAAA, low, high)
#include "YUVToRGBRow.h"

#endif

int reel_yuv420_to_rgb32(const uint8_t *y, ptrdiff_t y_stride, const uint8_t *u, ptrdiff_t u_stride,
                         const uint8_t *v, ptrdiff_t v_stride, int chroma_step, uint8_t *out, ptrdiff_t out_stride,
                         int width, int height, int red_first, const ReelYUVToRGBCoefficients *coefficients,
                         int kernel) {
    if (kernel != REEL_PIXEL_KERNEL_SSE2 && kernel != REEL_PIXEL_KERNEL_AVX2 && kernel != REEL_PIXEL_KERNEL_AVX512) return -1;
    if (!(reel_pixel_kernels_available() & kernel)) return -1;
#ifdef REEL_X86
    // Rows 2k and 2k + 1 read chroma row k.
    for (int row = 0; row < height; row += 2) {
        const uint8_t *rows[2] = {y + row * y_stride, y + (row + 1) * y_stride};
        uint8_t *outs[2] = {out + row * out_stride, out + (row + 1) * out_stride};
        const int count = row + 1 < height ? 2 : 1;
        const uint8_t *row_u = u + (row / 2) * u_stride, *row_v = v + (row / 2) * v_stride;
        if (kernel == REEL_PIXEL_KERNEL_AVX512) {
            rows_avx512(rows, outs, count, row_u, row_v, chroma_step, width, red_first, coefficients);
        } else if (kernel == REEL_PIXEL_KERNEL_AVX2) {
            rows_avx2(rows, outs, count, row_u, row_v, chroma_step, width, red_first, coefficients);
        } else {
            rows_sse2(rows, outs, count, row_u, row_v, chroma_step, width, red_first, coefficients);
        }
    }
#else
    (void)y; (void)y_stride; (void)u; (void)u_stride; (void)v; (void)v_stride; (void)chroma_step; (void)out;
    (void)out_stride; (void)width; (void)height; (void)red_first; (void)coefficients;
#endif
    return 0;
}
