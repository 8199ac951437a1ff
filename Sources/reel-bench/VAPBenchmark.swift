import CFFmpeg
import Foundation
import Reel

/// VAP compositing at 1080p output on one core: Reel's compositor against the ffmpeg
/// filter graph that the agreement tests use as the reference (crop + format=rgba for the
/// colour, crop + gray + bilinear scale for the alpha, alphamerge), on the same decoded
/// pictures, in one process.
struct VAPBenchmark {
    var runs = 7
    var framesPerRun = 60

    func run() throws -> (ours: Double, ffmpeg: Double, ratio: Double, meanDifference: Double) {
        let packing = VAPPackLayout(width: 1920, height: 1080)
        let layout = packing.layout
        var generator = SystemRandomNumberGenerator()
        let pictures = try (0..<4).map { _ -> PixelBuffer in
            let picture = try PixelBuffer(format: .i420, width: packing.videoWidth, height: packing.videoHeight)
            for plane in picture.planes {
                for row in 0..<plane.rowCount {
                    let bytes = plane.row(row)
                    for index in 0..<plane.rowByteCount { bytes[index] = UInt8.random(in: 16...235, using: &generator) }
                }
            }
            return picture
        }
        let c = layout.rgbFrame, a = layout.alphaFrame
        let graph = try VideoFilterGraph(
            description: "[in]split[c][a];[c]crop=\(c.width):\(c.height):\(c.x):\(c.y),format=rgba[rgb];"
                + "[a]crop=\(a.width):\(a.height):\(a.x):\(a.y),format=gray,scale=\(c.width):\(c.height):flags=bilinear[alpha];"
                + "[rgb][alpha]alphamerge[out]",
            width: packing.videoWidth, height: packing.videoHeight, pixelFormat: .yuv420p, threads: 1)
        let inputs = try pictures.map { try graph.picture(copying: $0) }
        var compositor = VAPCompositor(layout: layout)
        let output = try PixelBuffer(format: .rgba, width: c.width, height: c.height)

        // Both compute the same picture.
        try compositor.composite(pictures[0], into: output)
        var difference = 0.0
        try graph.filter(inputs[0]) { frame in
            var sum = 0
            for row in stride(from: 0, to: c.height, by: 7) {
                let theirs = frame.pointee.data.0! + row * Int(frame.pointee.linesize.0), ours = output.planes[0].row(row)
                for index in 0..<4 * c.width { sum += abs(Int(theirs[index]) - Int(ours[index])) }
            }
            difference = Double(sum) / Double(4 * c.width * ((c.height + 6) / 7))
        }
        // Alternating runs, so that both see the same machine; the ratio is the median of
        // the runs' ratios.
        var oursRates: [Double] = [], ffmpegRates: [Double] = []
        try compositor.composite(pictures[1], into: output)
        try graph.filter(inputs[1])
        for _ in 0..<runs {
            oursRates.append(rate { index in try! compositor.composite(pictures[index % pictures.count], into: output) })
            ffmpegRates.append(rate { index in try! graph.filter(inputs[index % inputs.count]) })
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return (median(oursRates), median(ffmpegRates), median(zip(oursRates, ffmpegRates).map { $0 / $1 }), difference)
    }

    /// Frames per second over `framesPerRun` calls.
    private func rate(_ body: (Int) -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<framesPerRun { body(index) }
        return Double(framesPerRun) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
