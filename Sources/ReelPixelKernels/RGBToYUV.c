// 32-bit RGB → 8-bit 4:2:0 with libswscale's exact arithmetic (see ReelCore's RGBToYUV).
// libswscale's luma is ((256·Σ + 2²⁷ + 2¹⁶) >> 17, doubled, + 64) >> 7 with Σ the sum of
// coefficient × channel; its nested floors make (Σ + 540928) >> 15. Its chroma, from the
// sums of a pixel pair, is (S + 8421888) >> 16 the same way. Full range stretches the
// 15-bit levels first: level = min(2 · ((Σ + 524544) >> 9), 30189), then
// (level · 19077 − 38008785) >> 21 (chroma: 2 · ((S + 8389120) >> 10), 30775, 4663,
// 9027848, 19). Each constant is a 16-bit value × a 16-bit coefficient, so `pmaddwd` adds
// it from the lane's empty half.
#include "ReelPixelKernels.h"
#include "KernelSupport.h"

/// The pairs `pmaddwd` multiplies: (first byte, third byte) and (green, rounding), with
/// what the rounding half holds for luma and for a pixel pair's chroma; and the full-range
/// stretch's offsets.
typedef struct {
    int32_t y_outer, y_green, u_outer, u_green, v_outer, v_green;
    int32_t luma_rounding, chroma_rounding;
    int32_t luma_stretch_offset, chroma_stretch_offset;
} RGBToYUVConstants;

static RGBToYUVConstants rgb_to_yuv_constants(const ReelRGBToYUVCoefficients *c, int red_first, int full_range, int out_bits) {
    // rounding × coefficient: 8-bit 32 × 16904 = 540928 and 512 × 16449 = 8421888; 10-bit
    // 32 × 16520 = 528640 and 512 × 16401 = 8397312; full range 32 × 16392 = 524544 and
    // 320 × 26216 = 8389120.
    const int16_t luma_coefficient = full_range ? 16392 : out_bits == 8 ? 16904 : 16520;
    const int16_t chroma_coefficient = full_range ? 26216 : out_bits == 8 ? 16449 : 16401;
    RGBToYUVConstants k;
    k.y_outer = coefficient_pair(red_first ? c->r_to_y : c->b_to_y, red_first ? c->b_to_y : c->r_to_y);
    k.u_outer = coefficient_pair(red_first ? c->r_to_u : c->b_to_u, red_first ? c->b_to_u : c->r_to_u);
    k.v_outer = coefficient_pair(red_first ? c->r_to_v : c->b_to_v, red_first ? c->b_to_v : c->r_to_v);
    k.y_green = coefficient_pair(c->g_to_y, luma_coefficient);
    k.u_green = coefficient_pair(c->g_to_u, chroma_coefficient);
    k.v_green = coefficient_pair(c->g_to_v, chroma_coefficient);
    k.luma_rounding = 32;
    k.chroma_rounding = full_range ? 320 : 512;
    k.luma_stretch_offset = out_bits == 8 ? 38008785 : 38795217;
    k.chroma_stretch_offset = out_bits == 8 ? 9027848 : 9224456;
    return k;
}

static inline int32_t clamped_level(int32_t value, int out_bits) {
    const int32_t top = (1 << out_bits) - 1;
    return value < 0 ? 0 : value > top ? top : value;
}

static inline int32_t luma_level(int32_t sum, int full_range, int out_bits) {
    if (!full_range) return clamped_level((sum + (out_bits == 8 ? 540928 : 528640)) >> (out_bits == 8 ? 15 : 13), out_bits);
    int32_t level = 2 * ((sum + 524544) >> 9);
    if (level > 30189) level = 30189;
    return clamped_level((level * 19077 - (out_bits == 8 ? 38008785 : 38795217)) >> (out_bits == 8 ? 21 : 19), out_bits);
}

static inline int32_t chroma_level(int32_t sum, int full_range, int out_bits) {
    if (!full_range) return clamped_level((sum + (out_bits == 8 ? 8421888 : 8397312)) >> (out_bits == 8 ? 16 : 14), out_bits);
    int32_t level = 2 * ((sum + 8389120) >> 10);
    if (level > 30775) level = 30775;
    return clamped_level((level * 4663 - (out_bits == 8 ? 9027848 : 9224456)) >> (out_bits == 8 ? 19 : 17), out_bits);
}

static inline void put(uint8_t *plane, int index, int32_t level, int out_bits) {
    if (out_bits == 8) plane[index] = (uint8_t)level; else ((uint16_t *)plane)[index] = (uint16_t)level;
}

/// Pixels `from` up to `width` of a row (and their chroma when `with_chroma`), one at a time.
static void rgb_to_yuv_scalar(const uint8_t *rgb, int red_first, uint8_t *y, uint8_t *u, uint8_t *v, int step,
                              int from, int width, int with_chroma, int full_range, const ReelRGBToYUVCoefficients *c,
                              int out_bits) {
    const int red = red_first ? 0 : 2, blue = 2 - red;
    for (int x = from; x < width; x++) {
        const uint8_t *pixel = rgb + 4 * x;
        put(y, x, luma_level(c->r_to_y * pixel[red] + c->g_to_y * pixel[1] + c->b_to_y * pixel[blue], full_range, out_bits), out_bits);
    }
    if (!with_chroma) return;
    for (int pair = from / 2; pair < (width + 1) / 2; pair++) {
        const uint8_t *left = rgb + 8 * pair, *right = rgb + 4 * (2 * pair + 1 < width ? 2 * pair + 1 : width - 1);
        const int32_t r = left[red] + right[red], g = left[1] + right[1], b = left[blue] + right[blue];
        put(u, pair * step, chroma_level(c->r_to_u * r + c->g_to_u * g + c->b_to_u * b, full_range, out_bits), out_bits);
        put(v, pair * step, chroma_level(c->r_to_v * r + c->g_to_v * g + c->b_to_v * b, full_range, out_bits), out_bits);
    }
}

#ifdef REEL_X86

// SSE2: 4 pixels a register, 16 a step.

__attribute__((target("sse2")))
static inline void store_chroma_bytes_sse2(__m128i bytes, uint8_t *u, uint8_t *v, int step) {
    const __m128i high = _mm_srli_si128(bytes, 8);
    if (step == 1) {
        _mm_storel_epi64((__m128i *)u, bytes);
        _mm_storel_epi64((__m128i *)v, high);
    } else {
        _mm_storeu_si128((__m128i *)(u < v ? u : v), u < v ? _mm_unpacklo_epi8(bytes, high) : _mm_unpacklo_epi8(high, bytes));
    }
}

#define VECTOR __m128i
#define OP(name) _mm_##name
#define AND _mm_and_si128
#define OR _mm_or_si128
#define VECTOR_PIXELS 4
#define TARGET "sse2"
#define WIDTH_NAME(name) name##_sse2
#define LOAD(pointer) _mm_loadu_si128((const __m128i *)(pointer))
#define STORE(pointer, bytes) _mm_storeu_si128((__m128i *)(pointer), bytes)
#define ORDER_CHROMA(x) _mm_shuffle_epi32(x, _MM_SHUFFLE(3, 1, 2, 0))
#define FIX_ORDER(x) (x)
#define FIX_WORDS(x) (x)
#define STORE_CHROMA_BYTES store_chroma_bytes_sse2
#include "RGBToYUVStores.h"
#include "UndefineWidth.h"

// AVX2: 8 pixels a register, 32 a step.

__attribute__((target("avx2")))
static inline void store_chroma_bytes_avx2(__m256i bytes, uint8_t *u, uint8_t *v, int step) {
    const __m128i low = _mm256_castsi256_si128(bytes), high = _mm256_extracti128_si256(bytes, 1);
    if (step == 1) {
        _mm_storeu_si128((__m128i *)u, low);
        _mm_storeu_si128((__m128i *)v, high);
    } else {
        const __m128i first = u < v ? low : high, second = u < v ? high : low;
        uint8_t *out = u < v ? u : v;
        _mm_storeu_si128((__m128i *)out, _mm_unpacklo_epi8(first, second));
        _mm_storeu_si128((__m128i *)(out + 16), _mm_unpackhi_epi8(first, second));
    }
}

#define VECTOR __m256i
#define OP(name) _mm256_##name
#define AND _mm256_and_si256
#define OR _mm256_or_si256
#define VECTOR_PIXELS 8
#define TARGET "avx2"
#define WIDTH_NAME(name) name##_avx2
#define LOAD(pointer) _mm256_loadu_si256((const __m256i *)(pointer))
#define STORE(pointer, bytes) _mm256_storeu_si256((__m256i *)(pointer), bytes)
#define ORDER_CHROMA(x) _mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7))
#define FIX_ORDER(x) _mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7))
#define FIX_WORDS(x) _mm256_permute4x64_epi64(x, 0xD8)
#define STORE_CHROMA_BYTES store_chroma_bytes_avx2
#include "RGBToYUVStores.h"
#include "UndefineWidth.h"

// AVX-512 (BW): 16 pixels a register, 64 a step.

__attribute__((target("avx512f,avx512bw")))
static inline void store_chroma_bytes_avx512(__m512i bytes, uint8_t *u, uint8_t *v, int step) {
    const __m256i low = _mm512_castsi512_si256(bytes), high = _mm512_extracti64x4_epi64(bytes, 1);
    if (step == 1) {
        _mm256_storeu_si256((__m256i *)u, low);
        _mm256_storeu_si256((__m256i *)v, high);
    } else {
        const __m256i first = u < v ? low : high, second = u < v ? high : low;
        uint8_t *out = u < v ? u : v;
        // Unpacks work within 128-bit lanes: lane 0 of each holds samples 0–15, lane 1 16–31.
        const __m256i interleaved_low = _mm256_unpacklo_epi8(first, second), interleaved_high = _mm256_unpackhi_epi8(first, second);
        _mm256_storeu_si256((__m256i *)out, _mm256_permute2x128_si256(interleaved_low, interleaved_high, 0x20));
        _mm256_storeu_si256((__m256i *)(out + 32), _mm256_permute2x128_si256(interleaved_low, interleaved_high, 0x31));
    }
}

#define VECTOR __m512i
#define OP(name) _mm512_##name
#define AND _mm512_and_si512
#define OR _mm512_or_si512
#define VECTOR_PIXELS 16
#define TARGET "avx512f,avx512bw"
#define WIDTH_NAME(name) name##_avx512
#define LOAD(pointer) _mm512_loadu_si512((const void *)(pointer))
#define STORE(pointer, bytes) _mm512_storeu_si512((void *)(pointer), bytes)
#define ORDER_CHROMA(x) _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15), x)
#define FIX_ORDER(x) _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), x)
#define FIX_WORDS(x) _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), x)
#define STORE_CHROMA_BYTES store_chroma_bytes_avx512
#include "RGBToYUVStores.h"
#include "UndefineWidth.h"

#endif

int reel_rgb32_to_yuv420(const uint8_t *rgb, ptrdiff_t rgb_stride, int red_first, uint8_t *y, ptrdiff_t y_stride,
                         uint8_t *u, ptrdiff_t u_stride, uint8_t *v, ptrdiff_t v_stride, int chroma_step,
                         int width, int height, const ReelRGBToYUVCoefficients *coefficients, int full_range,
                         int out_bits, int kernel) {
    if (kernel != REEL_PIXEL_KERNEL_SSE2 && kernel != REEL_PIXEL_KERNEL_AVX2 && kernel != REEL_PIXEL_KERNEL_AVX512) return -1;
    if ((out_bits != 8 && out_bits != 10) || (out_bits == 10 && chroma_step != 1)) return -1;
    if (!(reel_pixel_kernels_available() & kernel)) return -1;
#ifdef REEL_X86
    typedef void (*Row)(const uint8_t *, int, uint8_t *, uint8_t *, uint8_t *, int, int, int, int, const ReelRGBToYUVCoefficients *);
    const Row row_kernel = kernel == REEL_PIXEL_KERNEL_AVX512 ? (out_bits == 8 ? rgb8_row_avx512 : rgb10_row_avx512)
                           : kernel == REEL_PIXEL_KERNEL_AVX2 ? (out_bits == 8 ? rgb8_row_avx2 : rgb10_row_avx2)
                           : (out_bits == 8 ? rgb8_row_sse2 : rgb10_row_sse2);
    for (int row = 0; row < height; row++) {
        // Chroma row k comes from row 2k + 1, or from the last row when that is 2k.
        const int with_chroma = row % 2 == 1 || row == height - 1;
        row_kernel(rgb + row * rgb_stride, red_first, y + row * y_stride, u + (row / 2) * u_stride, v + (row / 2) * v_stride,
                   chroma_step, width, with_chroma, full_range, coefficients);
    }
#else
    (void)rgb; (void)rgb_stride; (void)red_first; (void)y; (void)y_stride; (void)u; (void)u_stride; (void)v;
    (void)v_stride; (void)chroma_step; (void)width; (void)height; (void)coefficients; (void)full_range;
    (void)rgb_to_yuv_scalar;
#endif
    return 0;
}
