import Foundation
import ReelPixelKernels

/// Which loop converts pixels: Reel's portable Swift loop, or one of its C kernels
/// (ReelPixelKernels) for vector instructions this CPU has. Every kernel writes the same
/// bytes; they differ only in speed.
package enum PixelKernel: String, Sendable, CaseIterable {
    case portable
    /// SSE2's 16-bit multiply-add, 16 pixels a step: every x86-64 CPU has it.
    case sse2
    /// The same, 32 pixels a step.
    case avx2
    /// The same, 64 pixels a step (AVX-512 with its byte and word instructions).
    case avx512

    /// The kernels this CPU runs, the portable one first and the fastest last.
    package static let available: [PixelKernel] = {
        let instructionSets = reel_pixel_kernels_available()
        return allCases.filter { $0 == .portable || instructionSets & $0.code != 0 }
    }()

    /// The fastest kernel here, or the one `REEL_PIXEL_KERNEL` names when this CPU runs it
    /// (for benchmarks and for telling a kernel's fault from the conversion's).
    package static let preferred: PixelKernel = {
        if let name = ProcessInfo.processInfo.environment["REEL_PIXEL_KERNEL"], let chosen = PixelKernel(rawValue: name),
           available.contains(chosen) {
            return chosen
        }
        return available[available.count - 1]
    }()

    /// The C kernels' constant for this kernel (0 for the portable one).
    var code: Int32 {
        switch self {
        case .portable: 0
        case .sse2: REEL_PIXEL_KERNEL_SSE2
        case .avx2: REEL_PIXEL_KERNEL_AVX2
        case .avx512: REEL_PIXEL_KERNEL_AVX512
        }
    }
}
