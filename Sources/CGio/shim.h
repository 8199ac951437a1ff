// GLib's D-Bus (GDBus, in GIO) for the MPRIS service: its C API imports as it is; the
// GVariant type strings that are macros are spelt out in Swift.
#ifndef REEL_CGIO_SHIM_H
#define REEL_CGIO_SHIM_H
#include <gio/gio.h>
#endif
