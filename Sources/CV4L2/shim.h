// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// CV4L2: the V4L2 ioctls camstamp uses to list a camera's controls (linux/videodev2.h, from
// linux-libc-dev). Only what Swift cannot import is wrapped here:
// - ioctl(2) is variadic, and the VIDIOC_* request numbers are _IOWR() macros over sizeof,
//   so each request gets one typed inline function.
#include <linux/videodev2.h>
#include <sys/ioctl.h>

static inline int camstamp_v4l2_querycap(int fd, struct v4l2_capability *capability) {
    return ioctl(fd, VIDIOC_QUERYCAP, capability);
}
static inline int camstamp_v4l2_query_ext_ctrl(int fd, struct v4l2_query_ext_ctrl *control) {
    return ioctl(fd, VIDIOC_QUERY_EXT_CTRL, control);
}
static inline int camstamp_v4l2_queryctrl(int fd, struct v4l2_queryctrl *control) {
    return ioctl(fd, VIDIOC_QUERYCTRL, control);
}
static inline int camstamp_v4l2_querymenu(int fd, struct v4l2_querymenu *item) {
    return ioctl(fd, VIDIOC_QUERYMENU, item);
}
static inline int camstamp_v4l2_g_ext_ctrls(int fd, struct v4l2_ext_controls *controls) {
    return ioctl(fd, VIDIOC_G_EXT_CTRLS, controls);
}
