#ifndef REEL_CLIBASS_SHIM_H
#define REEL_CLIBASS_SHIM_H

#include <stdarg.h>
#include <stdio.h>
#include <ass/ass.h>

/// Receives one formatted libass message; libass calls it on the thread that called it.
typedef void (*reel_ass_message_sink)(int level, const char *line);

static inline void reel_ass_format_message(int level, const char *format, va_list arguments, void *data) {
    char line[512];
    vsnprintf(line, sizeof line, format, arguments);
    ((reel_ass_message_sink)data)(level, line);
}

/// Routes libass's messages, formatted, to `sink` (Swift cannot take a va_list callback).
static inline void reel_ass_set_message_sink(ASS_Library *library, reel_ass_message_sink sink) {
    ass_set_message_cb(library, reel_ass_format_message, (void *)sink);
}

#endif
