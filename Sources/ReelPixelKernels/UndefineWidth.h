// Ends a vector width's part of YUVToRGB.c: its macros, set before YUVToRGBRow.h.
#undef VECTOR
#undef OP
#undef PIXELS
#undef TARGET
#undef STORE_QUADS
#undef LOW_AND_HIGH
