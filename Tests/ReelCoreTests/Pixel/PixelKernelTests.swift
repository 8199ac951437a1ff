import Foundation
import Testing
@testable import ReelCore

/// The C kernels write the bytes the portable loop writes (which the integration suite
/// compares with libswscale): every layout, order, matrix and range, at widths around
/// their steps of 16 to 64 pixels, with rows that start unaligned; and back.
@Suite struct PixelKernelTests {
    @Test func everyKernelHereIsListed() {
        #expect(PixelKernel.available.first == .portable)
        #if arch(x86_64)
        #expect(PixelKernel.available.contains(.sse2), "every x86-64 CPU has SSE2")
        #endif
        #expect(PixelKernel.available.contains(PixelKernel.preferred))
    }

    @Test(arguments: [PixelBufferFormat.i420, .nv12, .nv21, .i420p10])
    func vectorKernelsWriteThePortableBytes(from source: PixelBufferFormat) throws {
        var rng = SeededGenerator(seed: 23)
        for width in [1, 2, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 97, 250] {
            for (matrix, range) in [(YUVMatrix.bt601, ColorRange.limited), (.bt709, .full), (.bt2020, .limited)] {
                // Alignment 1: rows start wherever the previous one ended.
                let input = try PixelBuffer(format: source, width: width, height: 5, matrix: matrix, range: range, alignment: 1)
                for plane in input.planes {
                    for row in 0..<plane.rowCount {
                        for index in 0..<plane.rowByteCount { plane.row(row)[index] = UInt8.random(in: 0...255, using: &rng) }
                        // 10-bit samples: the high byte's top six bits clear.
                        if source == .i420p10 { for index in stride(from: 1, to: plane.rowByteCount, by: 2) { plane.row(row)[index] &= 3 } }
                    }
                }
                for order in [PixelBufferFormat.bgra, .rgba] {
                    let portable = try PixelBuffer(format: order, width: width, height: 5, alignment: 1)
                    try input.convert(into: portable, kernel: .portable)
                    for kernel in PixelKernel.available where kernel != .portable {
                        let vector = try PixelBuffer(format: order, width: width, height: 5, alignment: 1)
                        try input.convert(into: vector, kernel: kernel)
                        for row in 0..<5 {
                            let expected = Array(UnsafeBufferPointer(start: portable.planes[0].row(row), count: width * 4))
                            let got = Array(UnsafeBufferPointer(start: vector.planes[0].row(row), count: width * 4))
                            let first = expected.indices.first { expected[$0] != got[$0] }
                            #expect(first == nil, "\(kernel) \(source)→\(order) \(matrix) \(range) width \(width) row \(row): byte \(first ?? -1)")
                        }
                    }
                }
            }
        }
    }

    @Test(arguments: [PixelBufferFormat.i420, .nv12, .nv21])
    func vectorKernelsReadRGBAsThePortableLoopDoes(into target: PixelBufferFormat) throws {
        var rng = SeededGenerator(seed: 29)
        for width in [1, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 129, 250] {
            for height in [1, 2, 5] {
                for order in [PixelBufferFormat.bgra, .rgba] {
                    let input = try PixelBuffer(format: order, width: width, height: height, alignment: 1)
                    for row in 0..<height {
                        for index in 0..<(width * 4) { input.planes[0].row(row)[index] = UInt8.random(in: 0...255, using: &rng) }
                    }
                    for (matrix, range) in [(YUVMatrix.bt601, ColorRange.limited), (.bt709, .full), (.bt2020, .limited), (.bt601, .full)] {
                        let portable = try PixelBuffer(format: target, width: width, height: height, matrix: matrix, range: range, alignment: 1)
                        try input.convert(into: portable, kernel: .portable)
                        for kernel in PixelKernel.available where kernel != .portable {
                            let vector = try PixelBuffer(format: target, width: width, height: height, matrix: matrix, range: range, alignment: 1)
                            try input.convert(into: vector, kernel: kernel)
                            for (index, (expected, got)) in zip(portable.planes, vector.planes).enumerated() {
                                for row in 0..<expected.rowCount {
                                    let same = memcmp(expected.row(row), got.row(row), expected.rowByteCount) == 0
                                    #expect(same, "\(kernel) \(order)→\(target) \(matrix) \(range) \(width)x\(height): plane \(index) row \(row)")
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
