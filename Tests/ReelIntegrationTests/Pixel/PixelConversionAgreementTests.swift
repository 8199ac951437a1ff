import Reel
@testable import ReelCore
import Testing

/// Reel's pixel conversions against libswscale with bit-exact flags
/// (`SWS_POINT | SWS_BITEXACT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT`).
@Suite struct PixelConversionAgreementTests {
    static let sizes = [(1, 1), (2, 2), (3, 5), (33, 17), (64, 48), (161, 91), (1921, 9)]
    static let yuvFormats: [PixelBufferFormat] = [.i420, .nv12, .nv21]
    static let rgbFormats: [PixelBufferFormat] = [.bgra, .rgba]
    static let ranges: [ColorRange] = [.limited, .full]

    @Test(arguments: yuvFormats, yuvFormats)
    func chromaLayoutsAreExact(from source: PixelBufferFormat, to target: PixelBufferFormat) throws {
        var rng = SeededGenerator(seed: 7)
        for (width, height) in Self.sizes {
            let input = try PixelTestSupport.randomBuffer(source, width: width, height: height, using: &rng)
            let ours = try PixelTestSupport.emptyBuffer(target, width: width, height: height)
            try input.convert(into: ours)
            // libswscale 5.1 leaves NV12's chroma out of a same-format copy (its planar
            // copy skips plane 1 when there is no plane 2): a copy is judged by its input.
            let reference = source == target ? input : try PixelTestSupport.swscale(input, to: target)
            #expect(PixelTestSupport.difference(ours, reference).maximum == 0, "\(source)→\(target) \(width)x\(height)")
        }
    }

    /// Exact on every legal input, through every kernel this CPU runs (``PixelKernel``: the
    /// portable loop and the vector ones). Outside the legal range (Y above 235 with extreme
    /// chroma) libswscale's 32-bit sum overflows and it outputs 0 where the colour
    /// saturates; Reel outputs 255 there, and only there.
    @Test(arguments: yuvFormats, rgbFormats)
    func yuvToRGBIsExact(from source: PixelBufferFormat, to target: PixelBufferFormat) throws {
        var rng = SeededGenerator(seed: 11)
        var overflows: [PixelKernel: Int] = [:]
        for matrix in YUVMatrix.allCases {
            for range in Self.ranges {
                for (width, height) in Self.sizes {
                    let legal = try PixelTestSupport.randomBuffer(source, width: width, height: height, matrix: matrix, range: range,
                                                                  legalRange: true, using: &rng)
                    let any = try PixelTestSupport.randomBuffer(source, width: width, height: height, matrix: matrix, range: range, using: &rng)
                    let legalReference = try PixelTestSupport.swscale(legal, to: target), reference = try PixelTestSupport.swscale(any, to: target)
                    for kernel in PixelKernel.available {
                        let ours = try PixelTestSupport.emptyBuffer(target, width: width, height: height)
                        try legal.convert(into: ours, kernel: kernel)
                        let difference = PixelTestSupport.difference(ours, legalReference)
                        #expect(difference.maximum == 0, "\(kernel): \(source)→\(target) \(matrix) \(range) \(width)x\(height): \(difference)")

                        try any.convert(into: ours, kernel: kernel)
                        for row in 0..<height {
                            for index in 0..<(width * 4) where ours.planes[0].row(row)[index] != reference.planes[0].row(row)[index] {
                                overflows[kernel, default: 0] += 1
                                #expect(ours.planes[0].row(row)[index] == 255 && reference.planes[0].row(row)[index] == 0,
                                        "\(kernel): \(source)→\(target) \(matrix) \(range) \(width)x\(height) at \(index / 4),\(row)")
                            }
                        }
                    }
                }
            }
        }
        #expect(PixelKernel.available.count >= 2, "no vector kernel runs here: \(PixelKernel.available)")
        #expect(Set(overflows.values).count <= 1, "the kernels differ where libswscale overflows: \(overflows)")
        print("\(source)→\(target): exact on legal inputs through \(PixelKernel.available.map(\.rawValue)); "
              + "\(overflows[.portable] ?? 0) bytes of random out-of-range inputs where libswscale overflows to 0")
    }

    /// 10-bit 4:2:0 to BGRA and RGBA, through every kernel this CPU runs: exact on legal
    /// input (luma 64–940, chroma 64–960); on any 10-bit input too, but where libswscale's
    /// sum overflows to 0 (as in 8-bit), where Reel saturates.
    @Test(arguments: rgbFormats)
    func tenBitYUVToRGBIsExact(to target: PixelBufferFormat) throws {
        var rng = SeededGenerator(seed: 31)
        var overflows = 0
        for matrix in YUVMatrix.allCases {
            for range in Self.ranges {
                for (width, height) in Self.sizes {
                    for legal in [true, false] {
                        let input = try PixelTestSupport.randomBuffer(.i420p10, width: width, height: height, matrix: matrix, range: range, using: &rng)
                        for (index, plane) in input.planes.enumerated() {
                            let limit: UInt16 = !legal ? 1023 : index == 0 ? 940 : 960
                            for row in 0..<plane.rowCount {
                                for sample in 0..<(plane.rowByteCount / 2) {
                                    let word = UInt16.random(in: (legal ? 64 : 0)...limit, using: &rng).littleEndian
                                    UnsafeMutableRawPointer(plane.row(row)).storeBytes(of: word, toByteOffset: 2 * sample, as: UInt16.self)
                                }
                            }
                        }
                        let reference = try PixelTestSupport.swscale(input, to: target)
                        for kernel in PixelKernel.available {
                            let ours = try PixelTestSupport.emptyBuffer(target, width: width, height: height)
                            try input.convert(into: ours, kernel: kernel)
                            for row in 0..<height {
                                for index in 0..<(width * 4) where ours.planes[0].row(row)[index] != reference.planes[0].row(row)[index] {
                                    overflows += 1
                                    #expect(!legal && ours.planes[0].row(row)[index] == 255 && reference.planes[0].row(row)[index] == 0,
                                            "\(kernel): yuv420p10→\(target) \(matrix) \(range) \(width)x\(height) at \(index / 4),\(row)")
                                }
                            }
                        }
                    }
                }
            }
        }
        print("yuv420p10→\(target): exact on legal inputs through \(PixelKernel.available.map(\.rawValue)); "
              + "\(overflows) bytes of random out-of-range inputs where libswscale overflows to 0")
    }

    /// BGRA and RGBA to 10-bit I420 (libswscale's 15-bit levels `(level + 16) >> 5`),
    /// through every kernel this CPU runs.
    @Test(arguments: rgbFormats)
    func rgbToTenBitYUVIsExact(from source: PixelBufferFormat) throws {
        var rng = SeededGenerator(seed: 37)
        for matrix in YUVMatrix.allCases {
            for range in Self.ranges {
                for (width, height) in Self.sizes {
                    let input = try PixelTestSupport.randomBuffer(source, width: width, height: height, using: &rng)
                    let reference = try PixelTestSupport.swscale(input, to: .i420p10, matrix: matrix, range: range)
                    for kernel in PixelKernel.available {
                        let ours = try PixelTestSupport.emptyBuffer(.i420p10, width: width, height: height, matrix: matrix, range: range)
                        try input.convert(into: ours, kernel: kernel)
                        let difference = PixelTestSupport.difference(ours, reference)
                        #expect(difference.maximum == 0, "\(kernel): \(source)→yuv420p10 \(matrix) \(range) \(width)x\(height): \(difference)")
                    }
                }
            }
        }
    }

    /// Through every kernel this CPU runs.
    @Test(arguments: rgbFormats, yuvFormats)
    func rgbToYUVIsExact(from source: PixelBufferFormat, to target: PixelBufferFormat) throws {
        var rng = SeededGenerator(seed: 13)
        for matrix in YUVMatrix.allCases {
            for range in Self.ranges {
                for (width, height) in Self.sizes {
                    let input = try PixelTestSupport.randomBuffer(source, width: width, height: height, using: &rng)
                    let reference = try PixelTestSupport.swscale(input, to: target, matrix: matrix, range: range)
                    for kernel in PixelKernel.available {
                        let ours = try PixelTestSupport.emptyBuffer(target, width: width, height: height, matrix: matrix, range: range)
                        try input.convert(into: ours, kernel: kernel)
                        let difference = PixelTestSupport.difference(ours, reference)
                        #expect(difference.maximum == 0, "\(kernel): \(source)→\(target) \(matrix) \(range) \(width)x\(height): \(difference)")
                    }
                }
            }
        }
    }

    @Test func cropsEqualLibswscaleOnTheCroppedView() throws {
        var rng = SeededGenerator(seed: 17)
        let rect = PixelRect(x: 6, y: 4, width: 77, height: 23)
        for (source, target) in [(PixelBufferFormat.i420, PixelBufferFormat.bgra), (.nv12, .rgba), (.nv21, .bgra), (.i420, .nv12),
                                 (.nv21, .i420), (.bgra, .i420), (.rgba, .nv12), (.bgra, .rgba)] {
            let input = try PixelTestSupport.randomBuffer(source, width: 96, height: 40, matrix: .bt709, legalRange: true, using: &rng)
            let reference = try PixelTestSupport.swscale(PixelTestSupport.view(of: input, rect: rect), to: target)
            for kernel in PixelKernel.available {
                let ours = try PixelTestSupport.emptyBuffer(target, width: rect.width, height: rect.height, matrix: input.matrix, range: input.range)
                try input.convert(into: ours, crop: rect, kernel: kernel)
                #expect(PixelTestSupport.difference(ours, reference).maximum == 0, "\(kernel): \(source)→\(target) crop")
            }
        }
    }

    @Test func badCropsAndSizesAreErrors() throws {
        var rng = SeededGenerator(seed: 19)
        let input = try PixelTestSupport.randomBuffer(.i420, width: 32, height: 32, using: &rng)
        #expect(throws: PixelConversionError.self) { try input.converted(to: .bgra, crop: PixelRect(x: 1, y: 0, width: 8, height: 8)) }
        #expect(throws: PixelConversionError.self) { try input.converted(to: .bgra, crop: PixelRect(x: 30, y: 0, width: 8, height: 8)) }
        #expect(throws: PixelConversionError.self) { try input.converted(to: .i420p10) }
        #expect(throws: PixelConversionError.self) { try PixelBuffer(format: .bgra, width: 0, height: 10) }
        #expect(throws: PixelConversionError.self) { try PixelBuffer(format: .bgra, width: 1 << 20, height: 1 << 20) }
        let small = try PixelBuffer(format: .bgra, width: 16, height: 16)
        #expect(throws: PixelConversionError.self) { try input.convert(into: small) }
    }
}
