// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CV4L2
import Glibc

/// Why a device cannot take the marked feed as a webcam, worded for the user.
public struct VideoLoopbackError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// A V4L2 output device, such as v4l2loopback makes, that `stream --to v4l2:` writes into: a
/// video-call app opens its other side as a camera.
public enum VideoLoopback {
    /// How to make one (docs/stream.md says more).
    public static let setUp =
        "sudo modprobe v4l2loopback exclusive_caps=1 card_label=camstamp (Debian: v4l2loopback-dkms)"

    /// Checks that `path` is a V4L2 device that takes video (an output), before the stream starts.
    public static func check(_ path: String) throws(VideoLoopbackError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw VideoLoopbackError(description: "no such device; make one with: \(setUp)")
        }
        guard status.st_mode & S_IFMT == S_IFCHR else {
            throw VideoLoopbackError(description: "is not a video device (a v4l2loopback device is /dev/videoN)")
        }
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw VideoLoopbackError(description: "cannot open it: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var capability = v4l2_capability()
        guard camstamp_v4l2_querycap(fd, &capability) == 0 else {
            throw VideoLoopbackError(description: "is not a V4L2 device")
        }
        let caps =
            capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0
            ? capability.device_caps : capability.capabilities
        guard caps & UInt32(V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_VIDEO_OUTPUT_MPLANE) != 0 else {
            throw VideoLoopbackError(
                description: "is a camera, not a video output; a v4l2loopback device takes video: \(setUp)")
        }
    }
}
