import CGStreamer
import Foundation

/// A pipeline left for a new one (a stalled open): stopped and freed on a thread of its own.
///
/// Stopping a pipeline whose type finder is still at work can deadlock in GStreamer 1.22:
/// the type finder's thread, announcing the type, waits for a lock of decodebin's that the
/// stopping thread holds, while the stopping thread waits for the type finder's thread to
/// end (stack dumps of a loaded run: `gst_pad_stop_task` under `restart` against
/// `have-type` in libgstplayback). The open must not wait on that; such a pipeline's
/// threads are then lost, not the open.
///
/// The decoder whose callbacks the pipeline had is kept until the pipeline is stopped: a
/// callback already running when they were disconnected may still use it, and after the
/// stop no streaming thread is left to run one.
struct AbandonedPipeline: @unchecked Sendable {
    let pipeline: UnsafeMutablePointer<GstElement>
    let bus: UnsafeMutablePointer<GstBus>
    let owner: AnyObject

    /// Stops the pipeline and releases it, its bus and its owner, without waiting for it.
    func stopOnItsOwnThread() {
        Thread.detachNewThread {
            gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(UnsafeMutableRawPointer(bus))
            gst_object_unref(UnsafeMutableRawPointer(pipeline))
            withExtendedLifetime(owner) {}
        }
    }
}
