// CGstRtspServer: the C API of pkg-config package gstreamer-rtsp-server-1.0, imported as is.
#include <gst/rtsp-server/rtsp-server.h>
