// CGStreamer: the C API of pkg-config package gstreamer-1.0, imported as is.
#include <gst/gst.h>
