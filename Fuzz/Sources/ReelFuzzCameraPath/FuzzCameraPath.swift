import Foundation
import ReelCore

/// libFuzzer's entry: the input is a camera path's JSON (`reel pano render --path`). A path
/// Reel accepts must give a finite view at any time, before, between and after its keyframes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCameraPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let path = try? JSONDecoder().decode(CameraPath.self, from: Data(bytes: data, count: size)) else { return 0 }
    let last = path.keyframes.last?.time ?? 0
    for time in [-1, 0, last / 3, last / 2, last, last + 1, .greatestFiniteMagnitude] {
        let view = path.view(at: time)
        if !view.yaw.isFinite || !view.pitch.isFinite || !view.horizontalFOV.isFinite || !view.verticalFOV.isFinite { fatalError("a view that is not finite at \(time): \(view)") }
    }
    return 0
}
