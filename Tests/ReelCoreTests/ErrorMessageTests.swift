import Testing
import ReelCore

@Suite struct ErrorMessageTests {
    @Test func inputErrorsNameTheInputAndTheProblem() {
        #expect(InputError(.notFound, operation: .open, url: "a.mp4").description
                == "cannot open 'a.mp4': no such file or directory")
        #expect(InputError(.timedOut(seconds: 2.5), operation: .read, url: "http://x").description
                == "cannot read 'http://x': no answer within 2.5 s")
        #expect(InputError(.invalidData, operation: .open, url: "b.mp4", detail: "moov atom not found").description
                == "cannot open 'b.mp4': not a media file Reel can read, or the data is damaged (moov atom not found)")
    }

    @Test func passwordsInURLsAreNotPrinted() {
        #expect(InputError(.httpStatus(401), operation: .open, url: "rtsp://viewer:s3cr@t@cam:554/live").description
                == "cannot open 'rtsp://viewer:***@cam:554/live': the server wants credentials it was not given, or refused them (401)")
        #expect(InputError(.httpStatus(404), operation: .open, url: "rtsp://viewer@cam/x").description
                == "cannot open 'rtsp://viewer@cam/x': the server has nothing at that address (404)")
        #expect(InputError(.httpStatus(500), operation: .read, url: "http://a/b:c@d").description == "cannot read 'http://a/b:c@d': the server answered 500")
        #expect(InputError(.other, operation: .open, url: "srt://h:9000?mode=caller&passphrase=correct-horse", detail: "to srt://h:9000?passphrase=correct-horse failed").description
                == "cannot open 'srt://h:9000?mode=caller&passphrase=***': input/output error (to srt://h:9000?passphrase=*** failed)")
    }

    @Test func decodeErrorsNameTheCodec() {
        #expect(DecodeError(.decoderNotFound, codec: "foo").description == "no foo decoder is available in this FFmpeg build")
        #expect(DecodeError(.noSuchStream(.audio)).description == "the input has no audio stream")
    }
}
