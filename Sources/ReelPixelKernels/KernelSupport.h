// What the kernels share: whether this is x86, and the 16-bit coefficient pairs that
// `pmaddwd` multiplies.
#ifndef REEL_KERNEL_SUPPORT_H
#define REEL_KERNEL_SUPPORT_H

#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define REEL_X86 1
#endif

/// Two 16-bit coefficients as one 32-bit lane, `first` multiplying the pair's first value.
static inline int32_t coefficient_pair(int16_t first, int16_t second) {
    return (int32_t)((uint32_t)(uint16_t)first | ((uint32_t)(uint16_t)second << 16));
}

static inline uint8_t clamped_byte(int32_t value) {
    return value < 0 ? 0 : value > 255 ? 255 : (uint8_t)value;
}

#endif
