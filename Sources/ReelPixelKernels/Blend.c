// Premultiplied RGBA over 32-bit RGB with FFmpeg's `overlay` arithmetic (see ReelCore's
// PremultipliedBlend): each colour min(((d·(255 − α) + 128)·257) >> 16 + s, 255), a pixel
// of α 0 left as it is, the base's alpha kept. d·(255 − α) + 128 fits 16 bits, so the
// product is `pmullw`, the ·257 >> 16 is `pmulhuw` and the min is a saturating byte add.
#include "ReelPixelKernels.h"
#include "KernelSupport.h"

#ifdef REEL_X86

/// Pixels `from` up to `width` of a row, one at a time.
static void blend_row_scalar(const uint8_t *overlay, uint8_t *base, int from, int width, int swap) {
    const int red = swap ? 2 : 0;
    for (int x = from; x < width; x++) {
        const uint8_t *s = overlay + 4 * x;
        uint8_t *d = base + 4 * x;
        const uint32_t alpha = s[3];
        if (alpha == 0) continue;
        const uint32_t keep = 255 - alpha;
        const uint8_t source[3] = {s[red], s[1], s[2 - red]};
        for (int channel = 0; channel < 3; channel++) {
            const uint32_t kept = ((d[channel] * keep + 128) * 257) >> 16;
            d[channel] = (uint8_t)(kept + source[channel] > 255 ? 255 : kept + source[channel]);
        }
    }
}

// One body for both widths: VEC is the vector type, OP(name) its intrinsic.
#define BLEND_ROW(NAME, TARGET, VEC, OP, SI, PIXELS)                                                      \
    __attribute__((target(TARGET)))                                                                        \
    static void NAME(const uint8_t *overlay, uint8_t *base, int width, int swap) {                        \
        const VEC zero = OP(setzero_##SI)(), low_byte = OP(set1_epi32)(0xFF);                              \
        const VEC rounding = OP(set1_epi16)(128), by257 = OP(set1_epi16)(257);                             \
        const VEC base_alpha = OP(set1_epi32)((int)0xFF000000), all255 = OP(set1_epi32)(255);             \
        int x = 0;                                                                                         \
        for (; x + PIXELS <= width; x += PIXELS) {                                                        \
            VEC s = OP(loadu_##SI)((const VEC *)(overlay + 4 * x));                                        \
            const VEC alpha = OP(srli_epi32)(s, 24);                                                       \
            const VEC transparent = OP(cmpeq_epi32)(alpha, zero);                                          \
            if (OP(movemask_epi8)(transparent) == (int)(PIXELS == 4 ? 0xFFFF : 0xFFFFFFFF)) continue;      \
            if (swap) {                                                                                    \
                const VEC first = OP(and_##SI)(s, low_byte), third = OP(and_##SI)(OP(srli_epi32)(s, 16), low_byte); \
                s = OP(or_##SI)(OP(andnot_##SI)(OP(set1_epi32)(0x00FF00FF), s),                            \
                                OP(or_##SI)(OP(slli_epi32)(first, 16), third));                            \
            }                                                                                              \
            const VEC d = OP(loadu_##SI)((const VEC *)(base + 4 * x));                                     \
            VEC keep = OP(sub_epi32)(all255, alpha);                                                       \
            keep = OP(or_##SI)(keep, OP(slli_epi32)(keep, 16));                                            \
            const VEC keep_low = OP(unpacklo_epi32)(keep, keep), keep_high = OP(unpackhi_epi32)(keep, keep); \
            const VEC d_low = OP(unpacklo_epi8)(d, zero), d_high = OP(unpackhi_epi8)(d, zero);             \
            const VEC kept_low = OP(mulhi_epu16)(OP(add_epi16)(OP(mullo_epi16)(d_low, keep_low), rounding), by257); \
            const VEC kept_high = OP(mulhi_epu16)(OP(add_epi16)(OP(mullo_epi16)(d_high, keep_high), rounding), by257); \
            const VEC blended = OP(adds_epu8)(OP(packus_epi16)(kept_low, kept_high), s);                   \
            const VEC as_it_was = OP(or_##SI)(transparent, base_alpha);                                    \
            OP(storeu_##SI)((VEC *)(base + 4 * x),                                                         \
                            OP(or_##SI)(OP(and_##SI)(as_it_was, d), OP(andnot_##SI)(as_it_was, blended))); \
        }                                                                                                  \
        blend_row_scalar(overlay, base, x, width, swap);                                                   \
    }

#define SSE(name) _mm_##name
#define AVX(name) _mm256_##name
BLEND_ROW(blend_row_sse2, "sse2", __m128i, SSE, si128, 4)
BLEND_ROW(blend_row_avx2, "avx2", __m256i, AVX, si256, 8)

#endif

int reel_blend_premultiplied(const uint8_t *overlay, ptrdiff_t overlay_stride, uint8_t *base, ptrdiff_t base_stride,
                             int width, int height, int swap_red_blue, int kernel) {
    if (kernel != REEL_PIXEL_KERNEL_SSE2 && kernel != REEL_PIXEL_KERNEL_AVX2 && kernel != REEL_PIXEL_KERNEL_AVX512) return -1;
    if (!(reel_pixel_kernels_available() & kernel)) return -1;
#ifdef REEL_X86
    // AVX-512 adds nothing here that AVX2 does not have; a CPU with it has AVX2.
    void (*const row_kernel)(const uint8_t *, uint8_t *, int, int) = kernel == REEL_PIXEL_KERNEL_SSE2 ? blend_row_sse2 : blend_row_avx2;
    for (int row = 0; row < height; row++) row_kernel(overlay + row * overlay_stride, base + row * base_stride, width, swap_red_blue);
#else
    (void)overlay; (void)overlay_stride; (void)base; (void)base_stride; (void)width; (void)height; (void)swap_red_blue;
#endif
    return 0;
}
