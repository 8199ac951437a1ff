// Macros and variadic functions of FFmpeg that Swift cannot import directly.
#ifndef REEL_CFFMPEG_SHIM_H
#define REEL_CFFMPEG_SHIM_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/hwcontext.h>
#include <libavutil/imgutils.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/md5.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libavutil/spherical.h>
#include <libavutil/stereo3d.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

static inline int reel_averror(int posix_errno) { return AVERROR(posix_errno); }
static inline int reel_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int reel_averror_eof(void) { return AVERROR_EOF; }
static inline int reel_averror_exit(void) { return AVERROR_EXIT; }
static inline int reel_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int reel_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int reel_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int reel_averror_protocol_not_found(void) { return AVERROR_PROTOCOL_NOT_FOUND; }
static inline int reel_averror_http_not_found(void) { return AVERROR_HTTP_NOT_FOUND; }
static inline int64_t reel_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int reel_av_time_base(void) { return AV_TIME_BASE; }

/// Receives one formatted FFmpeg log line. Called on whatever thread FFmpeg logs from.
typedef void (*reel_log_line_sink)(int level, const char *line);

static reel_log_line_sink reel_log_sink_function = NULL;

static inline void reel_log_trampoline(void *avcl, int level, const char *fmt, va_list vl) {
    reel_log_line_sink sink = reel_log_sink_function;
    if (sink == NULL || level > av_log_get_level()) return;
    char line[1024];
    int print_prefix = 1;
    av_log_format_line2(avcl, level, fmt, vl, line, sizeof line, &print_prefix);
    sink(level, line);
}

/// Routes FFmpeg's log through `sink` instead of stderr.
static inline void reel_install_log_sink(reel_log_line_sink sink) {
    reel_log_sink_function = sink;
    av_log_set_callback(reel_log_trampoline);
}

#endif
