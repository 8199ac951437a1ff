import Foundation
import Reel

/// The panorama projection in numbers: building the source map for a 1280×720 view, and
/// remapping a 360° picture of about 7 megapixels (three full-size planes, as v360 does
/// for planar RGB) with 1 and 2 threads, for each input projection.
struct PanoramaBenchmark {
    var runs = 7
    var framesPerRun = 20
    var projection = PanoramaProjection.equirectangular
    var width = 1280, height = 720

    /// The source sizes the benchmark (and scripts/bench-pano.sh's v360 runs) use.
    static func sourceSize(_ projection: PanoramaProjection) -> (width: Int, height: Int) {
        switch projection {
        case .equirectangular, .dualFisheye: (3840, 1920)
        case .halfEquirectangular: (1920, 1920)
        case .cubemap3x2, .equiAngularCubemap: (2880, 1920)
        case .cubemap6x1: (5760, 960)
        }
    }

    var sourceWidth: Int { Self.sourceSize(projection).width }
    var sourceHeight: Int { Self.sourceSize(projection).height }

    /// Median milliseconds to build one map.
    func mapBuildMilliseconds(interpolation: PanoramaInterpolation, precision: PanoramaMap.Precision = .exact,
                              threads: Int = 1) throws -> Double {
        var times: [Double] = []
        for run in 0..<runs {
            let view = PanoramaView(yaw: Float(run * 7), pitch: 10, horizontalFOV: 90).squarePixels(width: width, height: height)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try PanoramaMap(view: view, projection: projection, sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height,
                                       interpolation: interpolation, precision: precision, threads: threads)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return times.sorted()[times.count / 2]
    }

    /// Median frames per second of remapping three planes.
    func remapFramesPerSecond(threads: Int, interpolation: PanoramaInterpolation) throws -> Double {
        let view = PanoramaView(yaw: 30, pitch: 10, horizontalFOV: 90).squarePixels(width: width, height: height)
        let map = try PanoramaMap(view: view, projection: projection, sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height,
                                         interpolation: interpolation)
        // Three full-size planes, as v360 projects planar RGB.
        let sourceBuffers = try (0..<3).map { _ in try PixelBuffer(format: .i420, width: sourceWidth, height: sourceHeight) }
        let outputBuffers = try (0..<3).map { _ in try PixelBuffer(format: .i420, width: width, height: height) }
        let sources = sourceBuffers.map { $0.planes[0] }, outputs = outputBuffers.map { $0.planes[0] }
        defer { withExtendedLifetime((sourceBuffers, outputBuffers)) {} }
        var generator = SystemRandomNumberGenerator()
        for plane in sources {
            for row in 0..<plane.rowCount { for x in 0..<plane.rowByteCount { plane.row(row)[x] = UInt8.random(in: 0...255, using: &generator) } }
        }
        var rates: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<framesPerRun {
                map.remap(sources, into: outputs, threads: threads)
            }
            rates.append(Double(framesPerRun) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
        }
        return rates.sorted()[rates.count / 2]
    }
}
