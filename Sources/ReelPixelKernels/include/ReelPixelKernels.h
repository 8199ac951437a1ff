// Reel's pixel kernels in C: the few loops that need instructions Swift cannot ask for
// (SSE2's 16-bit multiply-add, AVX2), each chosen at run time from what the CPU has. They
// compute exactly what ReelCore's portable Swift loops compute, byte for byte.
#ifndef REEL_PIXEL_KERNELS_H
#define REEL_PIXEL_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/// The instruction sets a kernel can use; `reel_pixel_kernels_available` gives those this
/// CPU has, and every kernel takes the one to use (tests run each against libswscale).
#define REEL_PIXEL_KERNEL_SSE2 1
#define REEL_PIXEL_KERNEL_AVX2 2
#define REEL_PIXEL_KERNEL_AVX512 4

/// A bit mask of the kernels this build and this CPU can run (0 off x86-64).
int reel_pixel_kernels_available(void);

/// Fixed-point YUV → RGB coefficients in 1/8192, as ReelCore's `YUVToRGBCoefficients`.
typedef struct {
    int16_t luma_offset;
    int16_t y_coefficient;
    int16_t v_to_r;
    int16_t v_to_g;
    int16_t u_to_g;
    int16_t u_to_b;
} ReelYUVToRGBCoefficients;

/// 4:2:0 to 32-bit RGB, each chroma sample colouring its 2×2 block: with 8-bit samples
/// (`sample_bits` 8) `clamp(((Y − offset)·cy + chroma terms + 4096) >> 13, 0, 255)` per
/// channel, alpha 255; with 10-bit samples in little-endian 16-bit words (`sample_bits` 10,
/// planar chroma only) offset and chroma bias ×4, rounding 2^14 and shift 15.
/// `u` and `v` point at the first row's first sample of each; `chroma_step` is 1 for planar
/// chroma and 2 for interleaved (NV12 or NV21: `u` and `v` then point into the same row).
/// Picture row r reads chroma row r / 2. Strides are in bytes. `red_first` writes RGBA, otherwise BGRA.
/// `kernel` is one of the REEL_PIXEL_KERNEL_ values; returns 0, or -1 when the kernel is
/// not available (nothing written).
int reel_yuv420_to_rgb32(const uint8_t *y, ptrdiff_t y_stride, const uint8_t *u, ptrdiff_t u_stride,
                         const uint8_t *v, ptrdiff_t v_stride, int chroma_step, uint8_t *out, ptrdiff_t out_stride,
                         int width, int height, int red_first, const ReelYUVToRGBCoefficients *coefficients,
                         int sample_bits, int kernel);


/// Fixed-point RGB → YUV coefficients in 1/32768 for limited-range output, as ReelCore's
/// `RGBToYUVCoefficients` (each within 16 bits).
typedef struct {
    int16_t r_to_y, g_to_y, b_to_y;
    int16_t r_to_u, g_to_u, b_to_u;
    int16_t r_to_v, g_to_v, b_to_v;
} ReelRGBToYUVCoefficients;

/// 32-bit RGB to 4:2:0 with libswscale's bit-exact arithmetic, as ReelCore's portable
/// `RGBToYUV`: luma from every pixel, chroma from the horizontal pairs of the second row of
/// each 2×2 block (the last row when the height is odd). `red_first` reads RGBA, otherwise
/// BGRA; `full_range` stretches to full-range YUV; `out_bits` 8 writes bytes, 10 writes
/// little-endian 16-bit words (planar chroma only). U and V as in `reel_yuv420_to_rgb32`.
/// Returns 0, or -1 when the kernel is not available.
int reel_rgb32_to_yuv420(const uint8_t *rgb, ptrdiff_t rgb_stride, int red_first, uint8_t *y, ptrdiff_t y_stride,
                         uint8_t *u, ptrdiff_t u_stride, uint8_t *v, ptrdiff_t v_stride, int chroma_step,
                         int width, int height, const ReelRGBToYUVCoefficients *coefficients, int full_range,
                         int out_bits, int kernel);

/// Premultiplied RGBA `overlay` drawn over 32-bit RGB `base`, both `width` × `height`, with
/// FFmpeg's `overlay` arithmetic as ReelCore's portable `PremultipliedBlend`: each colour
/// min(((d·(255 − α) + 128)·257) >> 16 + s, 255), pixels of α 0 left as they are, the base's
/// alpha kept. `swap_red_blue`: the base is BGRA (the overlay's red goes to byte 2).
/// Returns 0, or -1 when the kernel is not available (nothing written).
int reel_blend_premultiplied(const uint8_t *overlay, ptrdiff_t overlay_stride, uint8_t *base, ptrdiff_t base_stride,
                             int width, int height, int swap_red_blue, int kernel);

#endif
