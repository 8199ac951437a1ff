// The vector kernel of RGBToYUV.c, included there once per vector width and output depth.
// For the width: VECTOR, OP(name), AND(a, b), OR(a, b), VECTOR_PIXELS (pixels a register
// holds), TARGET, LOAD(pointer) and ORDER_CHROMA(x) (the chroma samples of two compacted
// registers back in order). For the depth, which it undefines at its end: OUT_BITS (8 or
// 10), ROW_KERNEL (the function's name), STORE_LUMA(y, x, levels) (four registers of levels,
// in order within each, packed and stored) and STORE_CHROMA(u, v, step, x, u_levels,
// v_levels) (two registers of each).
//
// A 32-bit pixel masked with 0x00FF00FF is the 16-bit pair (first byte, third byte), and
// shifted down a byte and masked, (green, 0), whose empty half carries the rounding: one
// `pmaddwd` each gives the whole sum of a pixel, with no shuffle. Chroma adds each pixel
// pair's lanes, then packs two registers' pairs into one.

__attribute__((target(TARGET)))
static void ROW_KERNEL(const uint8_t *rgb, int red_first, uint8_t *y, uint8_t *u, uint8_t *v, int step, int width,
                       int with_chroma, int full_range, const ReelRGBToYUVCoefficients *c) {
    const VECTOR first_and_third = OP(set1_epi32)(0x00FF00FF);
    const VECTOR low_byte = OP(set1_epi32)(0xFF);
    const VECTOR low_words = OP(srli_epi64)(OP(set1_epi32)(-1), 32);
    const RGBToYUVConstants k = rgb_to_yuv_constants(c, red_first, full_range, OUT_BITS);
    const VECTOR luma_rounding = OP(set1_epi32)(k.luma_rounding << 16);
    const VECTOR chroma_rounding = OP(set1_epi32)(k.chroma_rounding << 16);
    const VECTOR y_outer = OP(set1_epi32)(k.y_outer), y_green = OP(set1_epi32)(k.y_green);
    const VECTOR u_outer = OP(set1_epi32)(k.u_outer), u_green = OP(set1_epi32)(k.u_green);
    const VECTOR v_outer = OP(set1_epi32)(k.v_outer), v_green = OP(set1_epi32)(k.v_green);
    const VECTOR luma_limit = OP(set1_epi32)(30189), chroma_limit = OP(set1_epi32)(30775);
    const VECTOR luma_stretch = OP(set1_epi32)(19077), chroma_stretch = OP(set1_epi32)(4663);
    const VECTOR luma_offset = OP(set1_epi32)(k.luma_stretch_offset), chroma_offset = OP(set1_epi32)(k.chroma_stretch_offset);
    int x = 0;
    for (; x + 4 * VECTOR_PIXELS <= width; x += 4 * VECTOR_PIXELS) {
        VECTOR outer[4], green[4], luma[4];
        for (int i = 0; i < 4; i++) {
            const VECTOR pixels = LOAD(rgb + 4 * (x + i * VECTOR_PIXELS));
            outer[i] = AND(pixels, first_and_third);
            green[i] = AND(OP(srli_epi32)(pixels, 8), low_byte);
            const VECTOR sum = OP(add_epi32)(OP(madd_epi16)(outer[i], y_outer),
                                             OP(madd_epi16)(OR(green[i], luma_rounding), y_green));
            if (full_range) {
                // The stretch of the 15-bit level, whose values stay below 2¹⁵: a 16-bit min.
                const VECTOR level = OP(min_epi16)(OP(slli_epi32)(OP(srai_epi32)(sum, 9), 1), luma_limit);
                luma[i] = OP(srai_epi32)(OP(sub_epi32)(OP(madd_epi16)(level, luma_stretch), luma_offset), OUT_BITS == 8 ? 21 : 19);
            } else {
                luma[i] = OP(srai_epi32)(sum, OUT_BITS == 8 ? 15 : 13);
            }
        }
        STORE_LUMA(y, x, luma);
        if (!with_chroma) continue;
        // Each pixel pair's sums in the even lanes, then two registers' even lanes in one.
        VECTOR chroma_u[2], chroma_v[2];
        for (int half = 0; half < 2; half++) {
            VECTOR pairs[2][2];
            for (int i = 0; i < 2; i++) {
                pairs[i][0] = OP(add_epi32)(outer[2 * half + i], OP(srli_epi64)(outer[2 * half + i], 32));
                pairs[i][1] = OP(add_epi32)(green[2 * half + i], OP(srli_epi64)(green[2 * half + i], 32));
            }
            const VECTOR outer_pairs = OR(AND(pairs[0][0], low_words), OP(slli_epi64)(pairs[1][0], 32));
            const VECTOR green_pairs = OR(OR(AND(pairs[0][1], low_words), OP(slli_epi64)(pairs[1][1], 32)), chroma_rounding);
            VECTOR sums[2] = {OP(add_epi32)(OP(madd_epi16)(outer_pairs, u_outer), OP(madd_epi16)(green_pairs, u_green)),
                              OP(add_epi32)(OP(madd_epi16)(outer_pairs, v_outer), OP(madd_epi16)(green_pairs, v_green))};
            for (int plane = 0; plane < 2; plane++) {
                if (full_range) {
                    const VECTOR level = OP(min_epi16)(OP(slli_epi32)(OP(srai_epi32)(sums[plane], 10), 1), chroma_limit);
                    sums[plane] = OP(srai_epi32)(OP(sub_epi32)(OP(madd_epi16)(level, chroma_stretch), chroma_offset), OUT_BITS == 8 ? 19 : 17);
                } else {
                    sums[plane] = OP(srai_epi32)(sums[plane], OUT_BITS == 8 ? 16 : 14);
                }
            }
            chroma_u[half] = ORDER_CHROMA(sums[0]);
            chroma_v[half] = ORDER_CHROMA(sums[1]);
        }
        STORE_CHROMA(u, v, step, x, chroma_u, chroma_v);
    }
    rgb_to_yuv_scalar(rgb, red_first, y, u, v, step, x, width, with_chroma, full_range, c, OUT_BITS);
}

#undef OUT_BITS
#undef ROW_KERNEL
#undef STORE_LUMA
#undef STORE_CHROMA
