// CGstVideo: the C API of pkg-config package gstreamer-video-1.0, imported as is.
#include <gst/video/video.h>
