import Foundation

/// Writes encoded samples as an Annex B elementary stream (`.h264`, `.h265`): the
/// parameter sets once at the start, as VideoToolbox's users do, or before every keyframe
/// on request; every NAL unit after a 4-byte start code. The file gets its name once
/// finished (``PartialFile``).
package final class AnnexBWriter {
    private let handle: FileHandle
    private let path: String
    private let file: PartialFile
    private var finished = false
    private let repeatsParameterSets: Bool
    private var wroteParameterSets = false

    package init(path: String, repeatParameterSets: Bool = false) throws {
        file = PartialFile(path)
        guard FileManager.default.createFile(atPath: file.writingPath, contents: nil), let handle = FileHandle(forWritingAtPath: file.writingPath) else {
            throw OutputError(path, "cannot create the file")
        }
        self.path = path
        self.handle = handle
        repeatsParameterSets = repeatParameterSets
    }

    /// The Annex B bytes of a sample: its units, after the parameter sets when due.
    package func bytes(of sample: EncodedSample) throws -> [UInt8] {
        var units = try sample.nalUnits().map(Array.init)
        if !wroteParameterSets || (repeatsParameterSets && sample.isKeyframe) {
            units = sample.formatDescription.parameterSets + units
            wroteParameterSets = true
        }
        return AnnexB.stream(of: units)
    }

    package func write(_ sample: EncodedSample) throws {
        do {
            try handle.write(contentsOf: bytes(of: sample))
        } catch let error as BitstreamError {
            throw error
        } catch {
            throw OutputError(path, error.localizedDescription)
        }
    }

    package func finish() throws {
        guard !finished else { return }
        finished = true
        do {
            try handle.close()
        } catch {
            file.abandon()
            throw OutputError(path, error.localizedDescription)
        }
        try file.commit()
    }

    deinit {
        if !finished {
            try? handle.close()
            file.abandon()
        }
    }
}
