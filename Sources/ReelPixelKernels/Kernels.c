#include "ReelPixelKernels.h"
#include "KernelSupport.h"

int reel_pixel_kernels_available(void) {
#ifdef REEL_X86
    __builtin_cpu_init();
    return REEL_PIXEL_KERNEL_SSE2 | (__builtin_cpu_supports("avx2") ? REEL_PIXEL_KERNEL_AVX2 : 0)
        | (__builtin_cpu_supports("avx512bw") ? REEL_PIXEL_KERNEL_AVX512 : 0);
#else
    return 0;
#endif
}
