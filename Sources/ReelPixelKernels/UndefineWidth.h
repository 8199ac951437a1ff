// Ends a vector width's part of YUVToRGB.c or RGBToYUV.c: the macros set for it.
#undef VECTOR
#undef OP
#undef AND
#undef OR
#undef PIXELS
#undef VECTOR_PIXELS
#undef TARGET
#undef LOAD
#undef STORE
#undef STORE_QUADS
#undef LOW_AND_HIGH
#undef ORDER_CHROMA
#undef FIX_ORDER
#undef FIX_WORDS
#undef STORE_CHROMA_BYTES
#undef WIDTH_NAME
