// The vector kernel of YUVToRGB.c, included there once per vector width and sample depth.
// For the width: VECTOR (the register type), OP(name) (its intrinsics' prefix), PIXELS
// (pixels a step), TARGET (its instruction set), ZERO, LOW_AND_HIGH(low, high) (each 32-bit
// lane's low half from `low`, high half from `high`) and STORE_QUADS(out, quads) (four
// registers of four pixels a lane, stored in order). For the depth, which it undefines at
// its end: BITS (8 or 10), ROWS_KERNEL (the function's name), LOAD_LUMA(row, x, low, high)
// (the step's luma as 16-bit values: pixels 0–7 of each lane's 16 in `low`, 8–15 in `high`)
// and LOAD_CHROMA(u, v, step, x, u_out, v_out) (the step's chroma as 16-bit values, pairs
// 0–7 of each lane). Unpacks and packs work within a 128-bit lane, so a lane is 16 pixels.
//
// The sums are (Y − offset)·cy + rounding + chroma terms in units of 2^-SHIFT, SHIFT being
// 13 for 8-bit samples and 15 for 10-bit ones (libswscale's coefficients do not change with
// the depth; its rounding and shift do).
//
// It converts two rows at once, which share their chroma: the chroma's products are
// computed once for both.

__attribute__((target(TARGET)))
static void ROWS_KERNEL(const uint8_t *rows[2], uint8_t *outs[2], int row_count, const uint8_t *u, const uint8_t *v,
                        int step, int width, int red_first, const ReelYUVToRGBCoefficients *c) {
    const VECTOR ones = OP(set1_epi16)(1);
    const VECTOR bias = OP(set1_epi16)(128 << (BITS - 8));
    const VECTOR offset = OP(set1_epi16)((int16_t)(c->luma_offset << (BITS - 8)));
    const VECTOR alpha = OP(set1_epi32)(255 << 16);
    const VECTOR luma_pair = OP(set1_epi32)(coefficient_pair(c->y_coefficient, 1 << (BITS + 4)));
    const VECTOR red_pair = OP(set1_epi32)(coefficient_pair(0, c->v_to_r));
    const VECTOR blue_pair = OP(set1_epi32)(coefficient_pair(c->u_to_b, 0));
    const VECTOR green_pair = OP(set1_epi32)(coefficient_pair(c->u_to_g, c->v_to_g));
    // The channel in each pixel's first byte and the one in its third.
    const VECTOR first_pair = red_first ? red_pair : blue_pair;
    const VECTOR third_pair = red_first ? blue_pair : red_pair;
    int x = 0;
    for (; x + PIXELS <= width; x += PIXELS) {
        VECTOR chroma_u, chroma_v;
        LOAD_CHROMA(u, v, step, x, &chroma_u, &chroma_v);
        chroma_u = OP(sub_epi16)(chroma_u, bias);
        chroma_v = OP(sub_epi16)(chroma_v, bias);
        // (U', V') for each pixel, a 32-bit lane each: chroma pairs 0–3 and 4–7, each twice;
        // then (U', V')·(cu, cv) for each channel.
        const VECTOR pairs_low = OP(unpacklo_epi16)(chroma_u, chroma_v);
        const VECTOR pairs_high = OP(unpackhi_epi16)(chroma_u, chroma_v);
        const VECTOR chroma[4] = {OP(unpacklo_epi32)(pairs_low, pairs_low), OP(unpackhi_epi32)(pairs_low, pairs_low),
                                  OP(unpacklo_epi32)(pairs_high, pairs_high), OP(unpackhi_epi32)(pairs_high, pairs_high)};
        VECTOR first[4], green[4], third[4];
        for (int quarter = 0; quarter < 4; quarter++) {
            first[quarter] = OP(madd_epi16)(chroma[quarter], first_pair);
            green[quarter] = OP(madd_epi16)(chroma[quarter], green_pair);
            third[quarter] = OP(madd_epi16)(chroma[quarter], third_pair);
        }
        for (int row = 0; row < row_count; row++) {
            // (Y', 1)·(cy, 4096) for each pixel.
            VECTOR luma_low, luma_high;
            LOAD_LUMA(rows[row], x, &luma_low, &luma_high);
            luma_low = OP(sub_epi16)(luma_low, offset);
            luma_high = OP(sub_epi16)(luma_high, offset);
            const VECTOR luma[4] = {OP(madd_epi16)(OP(unpacklo_epi16)(luma_low, ones), luma_pair),
                                    OP(madd_epi16)(OP(unpackhi_epi16)(luma_low, ones), luma_pair),
                                    OP(madd_epi16)(OP(unpacklo_epi16)(luma_high, ones), luma_pair),
                                    OP(madd_epi16)(OP(unpackhi_epi16)(luma_high, ones), luma_pair)};
            // Each pixel's first and third channels as 16-bit halves of a lane beside green
            // and alpha: `>> SHIFT` in the low half, and in the high half the top of
            // `<< (16 − SHIFT)`, which is the same floor. Saturating packs to bytes then
            // clamp to 0…255.
            VECTOR first_green[4], third_alpha[4];
            for (int quarter = 0; quarter < 4; quarter++) {
                first_green[quarter] = LOW_AND_HIGH(OP(srai_epi32)(OP(add_epi32)(luma[quarter], first[quarter]), BITS + 5),
                                                    OP(slli_epi32)(OP(add_epi32)(luma[quarter], green[quarter]), 11 - BITS));
                third_alpha[quarter] = LOW_AND_HIGH(OP(srai_epi32)(OP(add_epi32)(luma[quarter], third[quarter]), BITS + 5), alpha);
            }
            const VECTOR first_green_low = OP(packus_epi16)(first_green[0], first_green[1]);
            const VECTOR first_green_high = OP(packus_epi16)(first_green[2], first_green[3]);
            const VECTOR third_alpha_low = OP(packus_epi16)(third_alpha[0], third_alpha[1]);
            const VECTOR third_alpha_high = OP(packus_epi16)(third_alpha[2], third_alpha[3]);
            const VECTOR quads[4] = {OP(unpacklo_epi16)(first_green_low, third_alpha_low),
                                     OP(unpackhi_epi16)(first_green_low, third_alpha_low),
                                     OP(unpacklo_epi16)(first_green_high, third_alpha_high),
                                     OP(unpackhi_epi16)(first_green_high, third_alpha_high)};
            STORE_QUADS(outs[row] + 4 * x, quads);
        }
    }
    for (int row = 0; row < row_count; row++) row_scalar(rows[row], u, v, step, outs[row], x, width, red_first ? 0 : 2, c, BITS);
}

#undef BITS
#undef ROWS_KERNEL
#undef LOAD_LUMA
#undef LOAD_CHROMA
