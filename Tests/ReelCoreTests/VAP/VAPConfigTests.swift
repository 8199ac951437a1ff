import Testing
@testable import ReelCore

@Suite struct VAPConfigTests {
    static let demo = #"{"info":{"v":2,"f":80,"w":736,"h":576,"videoW":752,"videoH":880,"orien":0,"fps":25,"isVapx":0,"aFrame":[4,588,368,288],"rgbFrame":[4,4,736,576]}}"#

    static func fusion(frameIndex: Int = 3, frame: String = "[10,10,50,20]", mask: String = "[700,600,50,20]", source: String = "1") -> String {
        ##"{"info":{"v":2,"f":10,"w":736,"h":576,"videoW":752,"videoH":880,"fps":20,"isVapx":1,"aFrame":[4,588,368,288],"rgbFrame":[4,4,736,576]},"##
            + ##""src":[{"srcId":"1","srcType":"txt","srcTag":"[t]","color":"#FF0000","style":"b","w":50,"h":20,"fitType":"fitXY"},"##
            + ##"{"srcId":"2","srcType":"img","srcTag":"[i]","w":30,"h":30,"fitType":"centerFull"}],"##
            + ##""frame":[{"i":\##(frameIndex),"obj":[{"srcId":"\##(source)","z":1,"frame":\##(frame),"mFrame":\##(mask),"mt":0},"##
            + ##"{"srcId":"2","z":0,"frame":[100,100,30,30],"mFrame":[700,700,30,30],"mt":90}]}]}"##
    }

    static func decode(_ json: String) throws -> VAPConfig { try VAPConfig.decode(json: Array(json.utf8)) }

    @Test func decodesTheInfoOfTencentsDemo() throws {
        let config = try Self.decode(Self.demo)
        #expect(config.info.frameCount == 80 && config.info.framesPerSecond == 25 && !config.info.isVAPX)
        #expect(config.info.alphaFrame == PixelRect(x: 4, y: 588, width: 368, height: 288))
        #expect(config.info.rgbFrame == PixelRect(x: 4, y: 4, width: 736, height: 576))
        #expect(config.sources.isEmpty && config.frames.isEmpty)
    }

    @Test func decodesFusionSourcesAndFrames() throws {
        let config = try Self.decode(Self.fusion())
        #expect(config.sources.count == 2)
        #expect(config.sources[0].kind == .text && config.sources[0].isBold && config.sources[0].color == "#FF0000")
        #expect(config.sources[1].kind == .image && config.sources[1].fit == .centerFull)
        // Objects come out lowest z first.
        #expect(config.objects(inFrame: 3).map(\.sourceID) == ["2", "1"])
        #expect(config.objects(inFrame: 3)[0].maskRotation == 90)
        #expect(config.objects(inFrame: 4).isEmpty)
    }

    @Test func encodingRoundTrips() throws {
        let config = try Self.decode(Self.fusion())
        #expect(try VAPConfig.decode(json: config.json()) == config)
    }

    @Test func invalidJSONIsReported() {
        #expect(throws: VAPError.self) { try Self.decode("{\"info\": ") }
        do {
            _ = try Self.decode("not json")
            Issue.record("no error")
        } catch let error as VAPError {
            guard case .invalidJSON = error else { Issue.record("\(error)"); return }
        } catch { Issue.record("\(error)") }
    }

    @Test(arguments: [("aFrame", "info.aFrame"), ("videoW", "info.videoW"), ("f", "info.f")])
    func missingKeysAreNamed(key: String, path: String) {
        let json = Self.demo.replacingOccurrences(of: "\"\(key)\":", with: "\"renamed\(key)\":")
        #expect(throws: VAPError.missingField(path: path)) { try Self.decode(json) }
    }

    @Test func wrongTypesAndShortRectanglesAreReported() {
        #expect(throws: VAPError.self) { try Self.decode(Self.demo.replacingOccurrences(of: "\"f\":80", with: "\"f\":\"many\"")) }
        #expect(throws: VAPError.self) { try Self.decode(Self.demo.replacingOccurrences(of: "[4,588,368,288]", with: "[4,588,368]")) }
    }

    @Test func inconsistentValuesAreRejectedWithTheirPath() throws {
        func path(_ json: String) -> String? {
            do { _ = try Self.decode(json); return nil } catch let error as VAPError {
                if case .invalidField(let path, _) = error { return path }
                return "\(error)"
            } catch { return "\(error)" }
        }
        #expect(path(Self.demo.replacingOccurrences(of: "[4,588,368,288]", with: "[4,588,368,900]")) == "info.aFrame")
        #expect(path(Self.demo.replacingOccurrences(of: "[4,4,736,576]", with: "[20,4,736,576]")) == "info.rgbFrame")
        #expect(path(Self.demo.replacingOccurrences(of: "\"w\":736", with: "\"w\":700")) == "info.rgbFrame")
        #expect(path(Self.demo.replacingOccurrences(of: "\"f\":80", with: "\"f\":0")) == "info.f")
        #expect(path(Self.demo.replacingOccurrences(of: "\"videoW\":752", with: "\"videoW\":-752")) == "info.videoW")
        #expect(path(Self.fusion(frameIndex: 10)) == "frame[0].i")
        #expect(path(Self.fusion(frame: "[700,10,50,20]")) == "frame[0].obj[0].frame")
        #expect(path(Self.fusion(mask: "[740,600,50,20]")) == "frame[0].obj[0].mFrame")
        #expect(path(Self.fusion(source: "9")) == "frame[0].obj[0].srcId")
        #expect(path(Self.fusion().replacingOccurrences(of: "#FF0000", with: "red")) == "src[0].color")
        #expect(path(Self.fusion().replacingOccurrences(of: "\"mt\":90", with: "\"mt\":45")) == "frame[0].obj[1].mt")
    }

    @Test func coloursParseWithAndWithoutAlpha() {
        #expect(VAPColor(hex: "#FFF18D") == VAPColor(red: 255, green: 241, blue: 141))
        #expect(VAPColor(hex: "#80FF0000") == VAPColor(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(VAPColor(hex: "FFF18D") == nil && VAPColor(hex: "#FFF") == nil && VAPColor(hex: "#GGGGGG") == nil)
    }

    @Test func defaultLayoutsSplitOddSizesIntoEqualHalves() {
        let left = VAPLayout(alpha: .left, videoWidth: 750, videoHeight: 814)
        #expect(left.alphaFrame == PixelRect(x: 0, y: 0, width: 375, height: 814))
        #expect(left.rgbFrame == PixelRect(x: 375, y: 0, width: 375, height: 814))
        let bottom = VAPLayout(alpha: .bottom, videoWidth: 100, videoHeight: 61)
        #expect(bottom.rgbFrame == PixelRect(x: 0, y: 0, width: 100, height: 30))
        #expect(bottom.alphaFrame == PixelRect(x: 0, y: 31, width: 100, height: 30))
    }

    @Test func frameRateFollowsVAPsOrderOfPreference() {
        #expect(VAPFrameRate.choose(requested: 30, config: 25, samples: 24) == 30)
        #expect(VAPFrameRate.choose(requested: 61, config: 25, samples: 24) == 25)
        #expect(VAPFrameRate.choose(requested: 0, config: nil, samples: 23.976) == 23.976)
        #expect(VAPFrameRate.choose(requested: nil, config: 0, samples: nil) == 20)
    }
}
