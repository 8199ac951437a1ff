import Foundation
import Testing
import ReelCore

@Suite struct WallFileTests {
    @Test func jsonCamerasWithSubStreamsAndCredentials() throws {
        let json = """
            {"cameras": [
              {"name": "Front door", "main": "rtsp://10.0.0.5/main", "sub": "rtsp://10.0.0.5/sub", "username": "admin", "password": "p@ss:w/rd"},
              {"url": "rtsp://cam2.local:8554/live"},
              "rtsp://user:secret@10.0.0.7/stream",
              {"name": "Front door", "main": "/recordings/yard.mp4"}
            ]}
            """
        let cameras = try WallFile.cameras(of: Data(json.utf8), path: "cams.json")
        #expect(cameras.map(\.name) == ["Front door", "cam2.local", "10.0.0.7", "Front door (2)"])
        // A password may hold ':' (userinfo splits at the first one); '@' and '/' are encoded.
        #expect(cameras[0].gridURL == "rtsp://admin:p%40ss:w%2Frd@10.0.0.5/sub")
        #expect(cameras[0].mainURL == "rtsp://admin:p%40ss:w%2Frd@10.0.0.5/main")
        #expect(cameras[1].gridURL == "rtsp://cam2.local:8554/live" && cameras[1].sub == nil)
        // Credentials already in a URL stay; a path is a path.
        #expect(WallCamera(name: "a", main: "rtsp://x:y@h/p", username: "u", password: "v").mainURL == "rtsp://x:y@h/p")
        #expect(cameras[3].mainURL == "/recordings/yard.mp4")
    }

    @Test func m3uNamesComeFromExtinf() throws {
        let m3u = "#EXTM3U\n#EXTINF:-1 tvg-name=\"a,b\",Garage\nrtsp://10.0.0.9/1\n\nrtsp://10.0.0.10/1\n"
        let cameras = try WallFile.cameras(of: Data(m3u.utf8), path: "cams.m3u")
        #expect(cameras.map(\.name) == ["Garage", "10.0.0.10"])
        #expect(cameras.map(\.main) == ["rtsp://10.0.0.9/1", "rtsp://10.0.0.10/1"])
        #expect(WallFile.cameras(urls: ["rtsp://a/1", "file.mp4", "rtsp://a/2"]).map(\.name) == ["a", "Camera 2", "a (2)"])
        let taken = #"[{"name": "A", "main": "x"}, {"name": "A (2)", "main": "y"}, {"name": "A", "main": "z"}]"#
        #expect(try WallFile.cameras(of: Data(taken.utf8), path: "w").map(\.name) == ["A", "A (2)", "A (3)"])
    }

    @Test func badFilesAreClearErrors() {
        let cases: [(String, WallFileError)] = [
            ("[{\"name\": \"x\"}]", .invalid("w", reason: "camera 1 has no \"main\" URL")),
            ("{\"cams\": []}", .invalid("w", reason: "neither a list of cameras nor an object with \"cameras\"")),
            ("[1]", .invalid("w", reason: "camera 1 is not an object or a URL")),
            ("[{\"main\": 5}]", .invalid("w", reason: "camera 1: \"main\" is not text")),
            ("{broken", .invalid("w", reason: "not JSON")),
            ("[]", .empty("w")),
            ("#EXTM3U\n", .empty("w")),
        ]
        for (text, error) in cases {
            #expect(throws: error, "\(text)") { try WallFile.cameras(of: Data(text.utf8), path: "w") }
        }
        #expect(throws: WallFileError.notText("w")) { try WallFile.cameras(of: Data([0x72, 0, 0x74]), path: "w") }
        let many = (0..<65).map { "rtsp://h/\($0)" }.joined(separator: "\n")
        #expect(throws: WallFileError.tooManyCameras("w", limit: 64)) { try WallFile.cameras(of: Data(many.utf8), path: "w") }
        #expect(throws: WallFileError.tooLarge("w", limit: WallFile.maximumBytes)) {
            try WallFile.cameras(of: Data(count: WallFile.maximumBytes + 1), path: "w")
        }
        #expect(throws: WallFileError.unreadable("/nonexistent/cams.json")) { try WallFile.cameras(atPath: "/nonexistent/cams.json") }
    }
}
