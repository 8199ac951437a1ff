import Foundation
import Testing
@testable import ReelCore

@Suite struct CameraPathTests {
    @Test func hugeYawsAreAnglesAndGiveFiniteViews() throws {
        // 9.2e37 degrees, as a fuzzer wrote it: its difference to the next yaw was not a number.
        let path = try CameraPath(keyframes: [.init(time: 1, yaw: 92222222222222222222222222222222222220), .init(time: 5, yaw: -91)])
        for time in [0, 1, 1.67, 3, 5, 9] {
            let view = path.view(at: time)
            #expect(view.yaw.isFinite && (-180...180).contains(view.yaw), "at \(time) s: \(view)")
        }
        #expect(path.view(at: 5).yaw == -91)
    }

    @Test func keyframesAreHitExactlyAndHeldOutside() throws {
        let path = try CameraPath(keyframes: [.init(time: 2, yaw: 90, pitch: 10, fov: 60), .init(time: 0, yaw: 0), .init(time: 4, yaw: 0, pitch: -20, fov: 100)])
        #expect(path.view(at: 0) == PanoramaView(yaw: 0, pitch: 0, roll: 0, horizontalFOV: 90))
        #expect(path.view(at: 2).yaw == 90 && path.view(at: 2).pitch == 10 && path.view(at: 2).horizontalFOV == 60)
        #expect(path.view(at: -1).yaw == 0 && path.view(at: 9).pitch == -20 && path.view(at: 9).horizontalFOV == 100)
    }

    /// Catmull-Rom: smooth (no jump in the step from one frame to the next) and through the keyframes.
    @Test func theTourIsSmooth() throws {
        let path = try CameraPath(keyframes: [.init(time: 0, yaw: 0), .init(time: 1, yaw: 60), .init(time: 2, yaw: 90), .init(time: 3, yaw: 0)])
        var previousStep: Float?
        for frame in 1..<90 {
            let step = path.view(at: Double(frame) / 30).yaw - path.view(at: Double(frame - 1) / 30).yaw
            if let previousStep { #expect(abs(step - previousStep) < 1.5, "a jerk at frame \(frame)") }
            previousStep = step
        }
    }

    @Test func yawTakesTheShortWayAcrossTheSeam() throws {
        let path = try CameraPath(keyframes: [.init(time: 0, yaw: 170), .init(time: 1, yaw: -170)])
        let middle = path.view(at: 0.5).yaw
        #expect(abs(abs(middle) - 180) < 0.01, "half way from 170° to -170° is 180°, got \(middle)")
    }

    @Test func jsonInBothShapes() throws {
        let object = try JSONDecoder().decode(CameraPath.self, from: Data(#"{"keyframes": [{"time": 0, "yaw": 10}, {"time": 1, "yaw": 20, "fov": 70}]}"#.utf8))
        let array = try JSONDecoder().decode(CameraPath.self, from: Data(#"[{"time": 0, "yaw": 10}, {"time": 1, "yaw": 20, "fov": 70}]"#.utf8))
        #expect(object == array && object.keyframes.count == 2 && object.keyframes[1].fov == 70 && object.keyframes[0].fov == 90)
    }

    @Test func badPathsAreErrors() {
        #expect(throws: CameraPath.PathError.self) { try CameraPath(keyframes: []) }
        #expect(throws: CameraPath.PathError.self) { try CameraPath(keyframes: [.init(time: 0, yaw: 0, pitch: 100)]) }
        #expect(throws: CameraPath.PathError.self) { try CameraPath(keyframes: [.init(time: 0, yaw: 0), .init(time: 0, yaw: 5)]) }
        #expect(throws: (any Error).self) { try JSONDecoder().decode(CameraPath.self, from: Data(#"{"keyframes": [{"yaw": 1}]}"#.utf8)) }
    }
}
