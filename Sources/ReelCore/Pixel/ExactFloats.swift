/// Bytes as single-precision floats through the bits (2²³ + n has n in its mantissa): the
/// standard library's generic conversion does not vectorise. Sums of byte × 16-bit
/// products stay below 2²⁴ and so are exact in floats, which SSE2 multiplies four at a
/// time where it has no 32-bit integer multiply.
@inline(__always)
func exactFloats(_ bytes: SIMD8<UInt8>) -> SIMD8<Float> {
    unsafeBitCast(SIMD8<UInt32>(truncatingIfNeeded: bytes) | 0x4B00_0000, to: SIMD8<Float>.self) - 8_388_608
}

/// The integer in [0, 2²³) that `value` (an exact integer float in that range, less
/// `bias`) plus `bias` is, read back from the mantissa.
@inline(__always)
func exactIntegers(_ value: SIMD8<Float>, bias: Float) -> SIMD8<UInt32> {
    unsafeBitCast(value + (8_388_608 + bias), to: SIMD8<UInt32>.self) & 0x7F_FFFF
}
