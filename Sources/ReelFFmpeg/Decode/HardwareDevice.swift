import CFFmpeg
import ReelCore

/// Opens a hardware decoding device for a codec, or says why it could not.
enum HardwareDevice {
    static let automaticOrder = ["vaapi", "vdpau", "cuda", "qsv", "vulkan", "drm"]

    /// A device context for `codec` (owned by the caller), or `nil` with a warning logged.
    static func open(_ request: HardwareDecoding, codec: UnsafePointer<AVCodec>) -> (context: UnsafeMutablePointer<AVBufferRef>, format: AVPixelFormat)? {
        let names: [String]
        switch request {
        case .none: return nil
        case .automatic: names = automaticOrder
        case .device(let name): names = [name]
        }
        for name in names {
            let type = av_hwdevice_find_type_by_name(name)
            guard type != AV_HWDEVICE_TYPE_NONE, let format = supportedFormat(codec: codec, type: type) else { continue }
            var device: UnsafeMutablePointer<AVBufferRef>?
            if av_hwdevice_ctx_create(&device, type, nil, nil, 0) >= 0, let device {
                FFmpegLog.logger.info("decoding \(String(cString: codec.pointee.name)) on \(name)")
                return (device, format)
            }
        }
        FFmpegLog.logger.warning("no hardware decoder (\(names.joined(separator: ", "))) available for \(String(cString: codec.pointee.name)); decoding in software")
        return nil
    }

    private static func supportedFormat(codec: UnsafePointer<AVCodec>, type: AVHWDeviceType) -> AVPixelFormat? {
        var index: Int32 = 0
        while let config = avcodec_get_hw_config(codec, index) {
            if config.pointee.methods & Int32(AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX) != 0 && config.pointee.device_type == type {
                return config.pointee.pix_fmt
            }
            index += 1
        }
        return nil
    }
}
