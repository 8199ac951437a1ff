// GStreamer's and GLib's macros and variadic functions, which Swift cannot import, as
// functions; the rest of the C API is used as it is.
#ifndef REEL_CGSTREAMER_SHIM_H
#define REEL_CGSTREAMER_SHIM_H

#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <gst/audio/audio.h>
#include <gst/tag/tag.h>

static inline GstClockTime reel_gst_clock_time_none(void) { return GST_CLOCK_TIME_NONE; }
static inline GstClockTime reel_gst_buffer_pts(GstBuffer *buffer) { return GST_BUFFER_PTS(buffer); }
static inline GstClockTime reel_gst_buffer_duration(GstBuffer *buffer) { return GST_BUFFER_DURATION(buffer); }
static inline gboolean reel_gst_buffer_is_keyframe(GstBuffer *buffer) {
    return !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT);
}
static inline GstMessageType reel_gst_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }
static inline GstObject *reel_gst_message_source(GstMessage *message) { return GST_MESSAGE_SRC(message); }

static inline GstBin *reel_gst_bin(GstElement *element) { return GST_BIN(element); }
static inline GstAppSink *reel_gst_app_sink(GstElement *element) { return GST_APP_SINK(element); }
static inline GstObject *reel_gst_object(gpointer object) { return GST_OBJECT(object); }

static inline void reel_g_object_set_string(gpointer object, const char *name, const char *value) { g_object_set(object, name, value, NULL); }
static inline void reel_g_object_set_boolean(gpointer object, const char *name, gboolean value) { g_object_set(object, name, value, NULL); }
static inline void reel_g_object_set_int(gpointer object, const char *name, gint value) { g_object_set(object, name, value, NULL); }
static inline void reel_g_object_set_uint(gpointer object, const char *name, guint value) { g_object_set(object, name, value, NULL); }
static inline void reel_g_object_set_uint64(gpointer object, const char *name, guint64 value) { g_object_set(object, name, value, NULL); }
static inline void reel_g_object_set_caps(gpointer object, const char *name, GstCaps *value) { g_object_set(object, name, value, NULL); }

/// `pad-added` of a decodebin: `callback(element, pad, data)` on GStreamer's streaming thread.
typedef void (*reel_gst_pad_added_callback)(GstElement *element, GstPad *pad, gpointer data);
static inline gulong reel_gst_connect_pad_added(GstElement *element, reel_gst_pad_added_callback callback, gpointer data) {
    return g_signal_connect_data(element, "pad-added", G_CALLBACK(callback), data, NULL, (GConnectFlags)0);
}

/// `select-stream` of uridecodebin3: `callback(element, collection, stream, data)` for each
/// stream of a new collection, before any is decoded; 1 selects it, 0 does not, -1 leaves
/// the choice to decodebin3.
typedef gint (*reel_gst_select_stream_callback)(GstElement *element, GstStreamCollection *collection, GstStream *stream, gpointer data);
static inline gulong reel_gst_connect_select_stream(GstElement *element, reel_gst_select_stream_callback callback, gpointer data) {
    return g_signal_connect_data(element, "select-stream", G_CALLBACK(callback), data, NULL, (GConnectFlags)0);
}

/// Disconnects every signal handler of `instance` connected with `data`.
static inline guint reel_g_signal_disconnect_by_data(gpointer instance, gpointer data) {
    return g_signal_handlers_disconnect_by_data(instance, data);
}

static inline guint reel_g_object_get_uint(gpointer object, const char *name) { guint value = 0; g_object_get(object, name, &value, NULL); return value; }

/// `deep-element-added` of a bin: `callback(bin, sub_bin, element, data)` for every element
/// added anywhere inside it, on whichever thread adds it.
typedef void (*reel_gst_deep_element_added_callback)(GstBin *bin, GstBin *sub_bin, GstElement *element, gpointer data);
static inline gulong reel_gst_connect_deep_element_added(GstElement *bin, reel_gst_deep_element_added_callback callback, gpointer data) {
    return g_signal_connect_data(bin, "deep-element-added", G_CALLBACK(callback), data, NULL, (GConnectFlags)0);
}

/// The registry's video decoders (software and hardware; a factory's klass says which).
static inline GList *reel_gst_video_decoders(void) {
    return gst_element_factory_list_get_elements(GST_ELEMENT_FACTORY_TYPE_DECODER | GST_ELEMENT_FACTORY_TYPE_MEDIA_VIDEO, GST_RANK_NONE);
}

static inline gint reel_gst_video_info_width(const GstVideoInfo *info) { return GST_VIDEO_INFO_WIDTH(info); }
static inline gint reel_gst_video_info_height(const GstVideoInfo *info) { return GST_VIDEO_INFO_HEIGHT(info); }
static inline gsize reel_gst_video_info_plane_offset(const GstVideoInfo *info, guint plane) { return GST_VIDEO_INFO_PLANE_OFFSET(info, plane); }
static inline gint reel_gst_video_info_plane_stride(const GstVideoInfo *info, guint plane) { return GST_VIDEO_INFO_PLANE_STRIDE(info, plane); }
static inline gint reel_gst_video_info_fps_n(const GstVideoInfo *info) { return GST_VIDEO_INFO_FPS_N(info); }
static inline gint reel_gst_video_info_fps_d(const GstVideoInfo *info) { return GST_VIDEO_INFO_FPS_D(info); }
static inline gint reel_gst_video_info_par_n(const GstVideoInfo *info) { return GST_VIDEO_INFO_PAR_N(info); }
static inline gint reel_gst_video_info_par_d(const GstVideoInfo *info) { return GST_VIDEO_INFO_PAR_D(info); }
static inline gint reel_gst_audio_info_rate(const GstAudioInfo *info) { return GST_AUDIO_INFO_RATE(info); }
static inline gint reel_gst_audio_info_channels(const GstAudioInfo *info) { return GST_AUDIO_INFO_CHANNELS(info); }
static inline gint reel_gst_audio_info_bpf(const GstAudioInfo *info) { return GST_AUDIO_INFO_BPF(info); }

static inline const char *reel_gst_tag_language_code(void) { return GST_TAG_LANGUAGE_CODE; }
static inline const char *reel_gst_tag_title(void) { return GST_TAG_TITLE; }

#endif
