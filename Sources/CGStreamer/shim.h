// GStreamer's and GLib's macros and variadic functions, which Swift cannot import, as
// functions; the rest of the C API is used as it is.
#ifndef REEL_CGSTREAMER_SHIM_H
#define REEL_CGSTREAMER_SHIM_H

#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <gst/audio/audio.h>
#include <gst/tag/tag.h>
#include <gst/sdp/sdp.h>
#include <dlfcn.h>

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
static inline GstAppSrc *reel_gst_app_src(GstElement *element) { return GST_APP_SRC(element); }
static inline void reel_gst_buffer_mark_delta_unit(GstBuffer *buffer) { GST_BUFFER_FLAG_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT); }
static inline void reel_gst_buffer_set_timing(GstBuffer *buffer, GstClockTime pts, GstClockTime duration) {
    GST_BUFFER_PTS(buffer) = pts;
    GST_BUFFER_DTS(buffer) = pts;
    GST_BUFFER_DURATION(buffer) = duration;
}
static inline GstObject *reel_gst_object(gpointer object) { return GST_OBJECT(object); }

static inline void reel_g_object_set_string(gpointer object, const char *name, const char *value) { g_object_set(object, name, value, NULL); }
static inline void reel_g_object_set_boolean(gpointer object, const char *name, gboolean value) { g_object_set(object, name, value, NULL); }
static inline void reel_g_object_set_int(gpointer object, const char *name, gint value) { g_object_set(object, name, value, NULL); }
static inline void reel_g_object_set_uint(gpointer object, const char *name, guint value) { g_object_set(object, name, value, NULL); }
static inline void reel_g_object_set_uint64(gpointer object, const char *name, guint64 value) { g_object_set(object, name, value, NULL); }
static inline void reel_g_object_set_double(gpointer object, const char *name, gdouble value) { g_object_set(object, name, value, NULL); }
static inline void reel_g_object_set_caps(gpointer object, const char *name, GstCaps *value) { g_object_set(object, name, value, NULL); }
static inline gboolean reel_g_object_has_property(gpointer object, const char *name) { return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name) != NULL; }

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
/* Where plane `plane` of `buffer` lies when the buffer carries a GstVideoMeta (a decoder's
   own padded buffer): FALSE without one, when the caps' layout holds. */
static inline gboolean reel_gst_buffer_video_meta_plane(GstBuffer *buffer, guint plane, gsize *offset, gint *stride) {
    GstVideoMeta *meta = gst_buffer_get_video_meta(buffer);
    if (meta == NULL || plane >= meta->n_planes) return FALSE;
    *offset = meta->offset[plane];
    *stride = meta->stride[plane];
    return TRUE;
}
static inline gint reel_gst_video_info_fps_n(const GstVideoInfo *info) { return GST_VIDEO_INFO_FPS_N(info); }
static inline gint reel_gst_video_info_fps_d(const GstVideoInfo *info) { return GST_VIDEO_INFO_FPS_D(info); }
static inline gint reel_gst_video_info_par_n(const GstVideoInfo *info) { return GST_VIDEO_INFO_PAR_N(info); }
static inline gint reel_gst_video_info_par_d(const GstVideoInfo *info) { return GST_VIDEO_INFO_PAR_D(info); }
static inline GstVideoFormat reel_gst_video_info_format(const GstVideoInfo *info) { return GST_VIDEO_INFO_FORMAT(info); }
/* The colorimetry `caps` name, as ITU-T H.273 code points (FFmpeg's values) and a range of
   0 (unknown), 1 (limited) or 2 (full); FALSE when the caps name none: GstVideoInfo would
   guess one from the picture's size, where FFmpeg says "unknown". */
static inline gboolean reel_gst_caps_colorimetry(const GstCaps *caps, guint *matrix, guint *transfer, guint *primaries, guint *range) {
    const GstStructure *structure = gst_caps_get_structure(caps, 0);
    const gchar *text = structure ? gst_structure_get_string(structure, "colorimetry") : NULL;
    GstVideoColorimetry colorimetry;
    if (!text || !gst_video_colorimetry_from_string(&colorimetry, text)) return FALSE;
    *matrix = gst_video_color_matrix_to_iso(colorimetry.matrix);
    *transfer = gst_video_transfer_function_to_iso(colorimetry.transfer);
    *primaries = gst_video_color_primaries_to_iso(colorimetry.primaries);
    *range = colorimetry.range == GST_VIDEO_COLOR_RANGE_16_235 ? 1 : colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255 ? 2 : 0;
    return TRUE;
}
/* The brightest light (cd/m²) HDR `caps` say the stream holds: its content light level's
   MaxCLL, else its mastering display's peak, as FFmpeg's tonemap filter takes them; FALSE
   when they say neither. */
static inline gboolean reel_gst_caps_peak_luminance(const GstCaps *caps, gdouble *peak) {
    GstVideoContentLightLevel level;
    if (gst_video_content_light_level_from_caps(&level, caps) && level.max_content_light_level > 0) {
        *peak = level.max_content_light_level;
        return TRUE;
    }
    GstVideoMasteringDisplayInfo mastering;
    if (gst_video_mastering_display_info_from_caps(&mastering, caps) && mastering.max_display_mastering_luminance > 0) {
        *peak = mastering.max_display_mastering_luminance / 10000.0;
        return TRUE;
    }
    return FALSE;
}
static inline gint reel_gst_audio_info_rate(const GstAudioInfo *info) { return GST_AUDIO_INFO_RATE(info); }
static inline gint reel_gst_audio_info_channels(const GstAudioInfo *info) { return GST_AUDIO_INFO_CHANNELS(info); }
static inline gint reel_gst_audio_info_bpf(const GstAudioInfo *info) { return GST_AUDIO_INFO_BPF(info); }

static inline const char *reel_gst_tag_language_code(void) { return GST_TAG_LANGUAGE_CODE; }
static inline const char *reel_gst_tag_title(void) { return GST_TAG_TITLE; }

static inline gint reel_g_object_get_enum(gpointer object, const char *name) { gint value = -1; g_object_get(object, name, &value, NULL); return value; }

/// A field of `structure` holding an integer of any width, as a gint64; 0 without one.
static inline gint64 reel_gst_structure_integer(const GstStructure *structure, const char *field) {
    const GValue *value = gst_structure_get_value(structure, field);
    if (value == NULL) return 0;
    GValue number = G_VALUE_INIT;
    g_value_init(&number, G_TYPE_INT64);
    gint64 result = g_value_transform(value, &number) ? g_value_get_int64(&number) : 0;
    g_value_unset(&number);
    return result;
}

/// What an RTP receiver's jitter buffers and session counted, summed over its streams.
typedef struct {
    gint64 passed;              // packets passed on (rtpjitterbuffer's num-pushed)
    gint64 lost;                // given up as lost: no retransmission came in time (num-lost)
    gint64 asked;               // retransmissions asked for, each retry counted (rtx-count)
    gint64 repaired;            // retransmissions that came in time (rtx-success-count)
    gint64 round_trip;          // the longest of the buffers' average retransmission round trips, ns (rtx-rtt)
    gint64 keyframe_requests;   // PLI and FIR sent (rtpsession's sources' sent-pli-count, sent-fir-count)
} reel_rtp_reception_counts;

/// Adds what `jitterbuffer` (an `rtpjitterbuffer`) counted to `counts`.
static inline void reel_rtp_jitterbuffer_count(GstElement *jitterbuffer, reel_rtp_reception_counts *counts) {
    GstStructure *stats = NULL;
    g_object_get(jitterbuffer, "stats", &stats, NULL);
    if (stats == NULL) return;
    counts->passed += reel_gst_structure_integer(stats, "num-pushed");
    counts->lost += reel_gst_structure_integer(stats, "num-lost");
    counts->asked += reel_gst_structure_integer(stats, "rtx-count");
    counts->repaired += reel_gst_structure_integer(stats, "rtx-success-count");
    counts->round_trip = MAX(counts->round_trip, reel_gst_structure_integer(stats, "rtx-rtt"));
    gst_structure_free(stats);
}

/// Adds the keyframe requests `session` (an `rtpsession`) sent to `counts`.
static inline void reel_rtp_session_count(GstElement *session, reel_rtp_reception_counts *counts) {
    GstStructure *stats = NULL;
    g_object_get(session, "stats", &stats, NULL);
    if (stats == NULL) return;
    const GValue *sources = gst_structure_get_value(stats, "source-stats");
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    if (sources != NULL && G_VALUE_HOLDS(sources, G_TYPE_VALUE_ARRAY)) {
        GValueArray *array = g_value_get_boxed(sources);
        for (guint index = 0; array != NULL && index < array->n_values; index++) {
            const GValue *source = &array->values[index];
            if (!GST_VALUE_HOLDS_STRUCTURE(source)) continue;
            const GstStructure *counted = gst_value_get_structure(source);
            counts->keyframe_requests += reel_gst_structure_integer(counted, "sent-pli-count") + reel_gst_structure_integer(counted, "sent-fir-count");
        }
    }
    G_GNUC_END_IGNORE_DEPRECATIONS
    gst_structure_free(stats);
}

/// A GType of libgstwebrtc by its `_get_type` function's name (registering it on first
/// use), or 0 when the library is not loaded (webrtcbin loads it; make one first). Reel
/// reaches webrtcbin's types this way rather than through their headers and link library,
/// which only come with a development package that pulls in OpenCV.
static inline GType reel_webrtc_type(const char *get_type_symbol) {
    void *library = dlopen("libgstwebrtc-1.0.so.0", RTLD_NOW | RTLD_NOLOAD);
    if (library == NULL) return 0;
    GType (*get_type)(void) = (GType (*)(void))dlsym(library, get_type_symbol);
    GType type = get_type ? get_type() : 0;
    dlclose(library);
    return type;
}

/// The value of libgstwebrtc's enum whose `_get_type` function is `get_type_symbol` and
/// whose nick is `nick`, or -1 when either is unknown.
static inline gint reel_webrtc_enum_value(const char *get_type_symbol, const char *nick) {
    GType type = reel_webrtc_type(get_type_symbol);
    if (type == 0 || !G_TYPE_IS_ENUM(type)) return -1;
    GEnumClass *klass = (GEnumClass *)g_type_class_ref(type);
    GEnumValue *value = g_enum_get_value_by_nick(klass, nick);
    gint result = value ? value->value : -1;
    g_type_class_unref(klass);
    return result;
}

// webrtcbin, through its signals and properties. GstWebRTCSessionDescription is a boxed
// type of libgstwebrtc whose layout is fixed since GStreamer 1.14: its SDP type and message.
typedef struct { gint type; GstSDPMessage *sdp; } reel_webrtc_session_description;

/// The error a promise was answered with (g_free it), or NULL when it holds none.
static inline gchar *reel_gst_promise_error(GstPromise *promise, GstPromiseResult result) {
    if (result != GST_PROMISE_RESULT_REPLIED) return g_strdup(result == GST_PROMISE_RESULT_EXPIRED ? "expired" : "interrupted");
    const GstStructure *reply = gst_promise_get_reply(promise);
    if (reply == NULL || !gst_structure_has_field(reply, "error")) return NULL;
    GError *error = NULL;
    gst_structure_get(reply, "error", G_TYPE_ERROR, &error, NULL);
    gchar *text = g_strdup(error && error->message ? error->message : "failed");
    if (error) g_error_free(error);
    return text;
}

/// Adds a transceiver for `caps` in `direction` (a GstWebRTCRTPTransceiverDirection),
/// asking for retransmissions of lost packets (NACK); false when webrtcbin made none.
static inline gboolean reel_webrtc_add_transceiver(GstElement *webrtc, gint direction, GstCaps *caps) {
    GObject *transceiver = NULL;
    g_signal_emit_by_name(webrtc, "add-transceiver", direction, caps, &transceiver);
    if (transceiver == NULL) return FALSE;
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(transceiver), "do-nack")) g_object_set(transceiver, "do-nack", TRUE, NULL);
    g_object_unref(transceiver);
    return TRUE;
}

/// Makes an offer and sets it as the local description. Returns its SDP text (g_free it),
/// or NULL with `*error` set (g_free it).
static inline gchar *reel_webrtc_create_offer(GstElement *webrtc, gchar **error) {
    GstPromise *promise = gst_promise_new();
    g_signal_emit_by_name(webrtc, "create-offer", NULL, promise);
    GstPromiseResult result = gst_promise_wait(promise);
    *error = reel_gst_promise_error(promise, result);
    const GValue *value = *error ? NULL : gst_structure_get_value(gst_promise_get_reply(promise), "offer");
    reel_webrtc_session_description *offer = value ? (reel_webrtc_session_description *)g_value_get_boxed(value) : NULL;
    if (offer == NULL || offer->sdp == NULL) {
        if (*error == NULL) *error = g_strdup("webrtcbin made no offer");
        gst_promise_unref(promise);
        return NULL;
    }
    GstPromise *setting = gst_promise_new();
    g_signal_emit_by_name(webrtc, "set-local-description", offer, setting);
    *error = reel_gst_promise_error(setting, gst_promise_wait(setting));
    gst_promise_unref(setting);
    gchar *text = *error ? NULL : gst_sdp_message_as_text(offer->sdp);
    gst_promise_unref(promise);
    return text;
}

/// Sets `text` as the remote description of `type_nick` (`answer`, `offer`). Returns NULL,
/// or the error (g_free it).
static inline gchar *reel_webrtc_set_remote_description(GstElement *webrtc, const char *type_nick, const char *text) {
    GType boxed = reel_webrtc_type("gst_webrtc_session_description_get_type");
    gint type = reel_webrtc_enum_value("gst_webrtc_sdp_type_get_type", type_nick);
    if (boxed == 0 || type < 0) return g_strdup("webrtcbin's types are not registered");
    GstSDPMessage *sdp = NULL;
    if (gst_sdp_message_new_from_text(text, &sdp) != GST_SDP_OK || sdp == NULL) return g_strdup("the answer is not SDP GStreamer can read");
    reel_webrtc_session_description local = { type, sdp };
    gpointer description = g_boxed_copy(boxed, &local);
    gst_sdp_message_free(sdp);
    GstPromise *promise = gst_promise_new();
    g_signal_emit_by_name(webrtc, "set-remote-description", description, promise);
    gchar *error = reel_gst_promise_error(promise, gst_promise_wait(promise));
    gst_promise_unref(promise);
    g_boxed_free(boxed, description);
    return error;
}

/// `on-ice-candidate` of webrtcbin: `callback(webrtc, media_index, candidate, data)` for
/// each local candidate gathered, on libnice's thread.
typedef void (*reel_webrtc_ice_candidate_callback)(GstElement *webrtc, guint media_index, gchar *candidate, gpointer data);
static inline gulong reel_webrtc_connect_ice_candidate(GstElement *webrtc, reel_webrtc_ice_candidate_callback callback, gpointer data) {
    return g_signal_connect_data(webrtc, "on-ice-candidate", G_CALLBACK(callback), data, NULL, (GConnectFlags)0);
}

/// `notify::NAME` of any object: `callback(object, pspec, data)` when the property changes.
typedef void (*reel_g_notify_callback)(GObject *object, GParamSpec *pspec, gpointer data);
static inline gulong reel_g_connect_notify(gpointer object, const char *property, reel_g_notify_callback callback, gpointer data) {
    gchar *signal = g_strconcat("notify::", property, NULL);
    gulong id = g_signal_connect_data(object, signal, G_CALLBACK(callback), data, NULL, (GConnectFlags)0);
    g_free(signal);
    return id;
}

/// Requests a sink pad of webrtcbin and links `upstream`'s source pad to it; the pad's
/// transceiver goes in `direction` with `preferences` as its codec (the offer is made
/// before any caps reach the pad) and asks for retransmissions of lost packets (NACK).
/// False when a step failed.
static inline gboolean reel_webrtc_link_sender(GstElement *webrtc, GstElement *upstream, gint direction, GstCaps *preferences) {
    GstPad *sink = gst_element_request_pad_simple(webrtc, "sink_%u");
    if (sink == NULL) return FALSE;
    GstPad *source = gst_element_get_static_pad(upstream, "src");
    gboolean linked = source != NULL && gst_pad_link(source, sink) == GST_PAD_LINK_OK;
    if (source) gst_object_unref(source);
    GObject *transceiver = NULL;
    g_object_get(sink, "transceiver", &transceiver, NULL);
    gst_object_unref(sink);
    if (transceiver == NULL) return FALSE;
    g_object_set(transceiver, "direction", direction, "codec-preferences", preferences, NULL);
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(transceiver), "do-nack")) g_object_set(transceiver, "do-nack", TRUE, NULL);
    g_object_unref(transceiver);
    return linked;
}

/// A keyframe request that reached a pad from downstream (GstForceKeyUnit: webrtcbin's
/// RTP session sends one up when the peer asks with PLI or FIR): `callback(data)`, on the
/// streaming thread that carries it.
typedef void (*reel_gst_keyframe_request_callback)(gpointer data);
typedef struct { reel_gst_keyframe_request_callback callback; gpointer data; } reel_gst_keyframe_probe;
static inline GstPadProbeReturn reel_gst_keyframe_probe_function(GstPad *pad, GstPadProbeInfo *info, gpointer user) {
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (event != NULL && gst_video_event_is_force_key_unit(event)) {
        reel_gst_keyframe_probe *probe = (reel_gst_keyframe_probe *)user;
        probe->callback(probe->data);
    }
    return GST_PAD_PROBE_OK;
}
static inline gulong reel_gst_probe_keyframe_requests(GstPad *pad, reel_gst_keyframe_request_callback callback, gpointer data) {
    reel_gst_keyframe_probe *probe = g_new(reel_gst_keyframe_probe, 1);
    probe->callback = callback;
    probe->data = data;
    return gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, reel_gst_keyframe_probe_function, probe, g_free);
}

#endif
