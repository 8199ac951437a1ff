import Foundation
import Reel
import ReelCore
import ReelFFmpeg

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Pixel conversions at 1080p against their peers, each measured as the median of
/// several runs in the same process: I420 → NV12 against memcpy of the same bytes,
/// I420 and NV12 → BGRA and BGRA → I420 against libswscale, with its bit-exact flags and
/// through each of Reel's kernels against its default path.
struct PixelBenchmark {
    var width = 1920
    var height = 1080
    var runs = 7
    var framesPerRun = 60

    struct Figure {
        var name: String
        var ours: Double
        var peer: Double
        var peerName: String
        var unit: String
        var target: String
        var ratio: Double { ours / peer }
    }

    func run() throws -> [Figure] {
        var generator = SystemRandomNumberGenerator()
        let i420 = try PixelBuffer(format: .i420, width: width, height: height, matrix: .bt709)
        for plane in i420.planes {
            for row in 0..<plane.rowCount {
                let bytes = plane.row(row)
                for index in 0..<plane.rowByteCount { bytes[index] = UInt8.random(in: 16...235, using: &generator) }
            }
        }
        let nv12 = try PixelBuffer(format: .nv12, width: width, height: height)
        let bgra = try PixelBuffer(format: .bgra, width: width, height: height, matrix: .bt709)
        let backToI420 = try PixelBuffer(format: .i420, width: width, height: height, matrix: .bt709)
        let byteCount = i420.packedByteCount
        let source = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        let target = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        defer { source.deallocate(); target.deallocate() }
        memset(source, 7, byteCount)
        let swscale = SwscaleConverter()
        let i420Frame = i420.videoFrame(), bgraFrame = bgra.videoFrame()

        // Both libswscale paths must really convert: their pictures agree with Reel's.
        try swscale.convert(i420Frame, into: bgra, flags: [.bilinear])
        let fast = bgra.planes[0].row(height / 2)[4 * (width / 2) + 1]
        try i420.convert(into: bgra)
        let exact = bgra.planes[0].row(height / 2)[4 * (width / 2) + 1]
        guard abs(Int(fast) - Int(exact)) <= 4 else { throw BenchmarkError("libswscale's fast path gave \(fast), Reel \(exact)") }

        let memcpyRate = median { _ in memcpy(target, source, byteCount) }
        let nv12Rate = median { _ in try! i420.convert(into: nv12) }
        let oursToRGB = median { _ in try! i420.convert(into: bgra) }
        let swscaleToRGB = median { _ in try! swscale.convert(i420Frame, into: bgra, flags: .reelExact) }
        let swscaleFastToRGB = median { _ in try! swscale.convert(i420Frame, into: bgra, flags: [.bilinear]) }
        let oursToYUV = median { _ in try! bgra.convert(into: backToI420) }
        let swscaleToYUV = median { _ in try! swscale.convert(bgraFrame, into: backToI420, flags: .reelExact) }
        try i420.convert(into: nv12)
        let nv12Frame = nv12.videoFrame()
        let swscaleFastNV12ToRGB = median { _ in try! swscale.convert(nv12Frame, into: bgra, flags: [.bilinear]) }
        let gigabytes = Double(byteCount) / 1e9
        // Each kernel against libswscale's default path, which is not exact: the target is to
        // be at least as fast while exact (1.5× hoped for).
        let swscaleFastToYUV = median { _ in try! swscale.convert(bgraFrame, into: backToI420, flags: [.bilinear]) }
        let tenBit = try PixelBuffer(format: .i420p10, width: width, height: height, matrix: .bt709)
        for plane in tenBit.planes {
            for row in 0..<plane.rowCount {
                let words = UnsafeMutableRawPointer(plane.row(row)).assumingMemoryBound(to: UInt16.self)
                for index in 0..<(plane.rowByteCount / 2) { words[index] = UInt16.random(in: 64...940, using: &generator) }
            }
        }
        let tenBitFrame = tenBit.videoFrame()
        let swscaleFastTenBitToRGB = median { _ in try! swscale.convert(tenBitFrame, into: bgra, flags: [.bilinear]) }
        let kernels = PixelKernel.available.flatMap { kernel in
            [Figure(name: "I420→BGRA \(kernel.rawValue)", ours: median { _ in try! i420.convert(into: bgra, kernel: kernel) },
                    peer: swscaleFastToRGB, peerName: "libswscale (default SIMD path)", unit: "fps", target: kernel == .preferred ? "≥ 1" : "-"),
             Figure(name: "NV12→BGRA \(kernel.rawValue)", ours: median { _ in try! nv12.convert(into: bgra, kernel: kernel) },
                    peer: swscaleFastNV12ToRGB, peerName: "libswscale (default SIMD path)", unit: "fps", target: kernel == .preferred ? "≥ 1" : "-"),
             Figure(name: "I420P10→BGRA \(kernel.rawValue)", ours: median { _ in try! tenBit.convert(into: bgra, kernel: kernel) },
                    peer: swscaleFastTenBitToRGB, peerName: "libswscale (default SIMD path)", unit: "fps", target: kernel == .preferred ? "≥ 1" : "-"),
             Figure(name: "BGRA→I420 \(kernel.rawValue)", ours: median { _ in try! bgra.convert(into: backToI420, kernel: kernel) },
                    peer: swscaleFastToYUV, peerName: "libswscale (default SIMD path)", unit: "fps", target: kernel == .preferred ? "≥ 1" : "-")]
        }
        return [
            Figure(name: "I420→NV12", ours: nv12Rate * gigabytes, peer: memcpyRate * gigabytes, peerName: "memcpy", unit: "GB/s", target: "≥ 0.8"),
            Figure(name: "I420→BGRA", ours: oursToRGB, peer: swscaleToRGB, peerName: "libswscale (bit-exact flags)", unit: "fps", target: "≥ 1"),
        ] + kernels + [
            Figure(name: "BGRA→I420", ours: oursToYUV, peer: swscaleToYUV, peerName: "libswscale (bit-exact flags)", unit: "fps", target: "≥ 1"),
        ]
    }

    /// Conversions per second: the median over `runs` runs of `framesPerRun` calls.
    private func median(_ body: (Int) -> Void) -> Double {
        body(0)
        var rates: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            for index in 0..<framesPerRun { body(index) }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            rates.append(Double(framesPerRun) / seconds)
        }
        return rates.sorted()[rates.count / 2]
    }
}
