#!/usr/bin/python3
"""`camstamp camera --window` under Xvfb, driven by xdotool.

Usage: window_test.py CAMSTAMP PHOTO_DIR [q|close]
Starts `Xvfb -displayfd 3 -noreset` (it picks a free display and writes its number to fd 3),
runs the camera in a window on the test camera, finds the window, presses Space and waits for a
photo in PHOTO_DIR, then presses Q (or closes the window as a window manager would: a
WM_DELETE_WINDOW message) and expects exit 0. Stops Xvfb. Exit 0 when all passed.
"""
import ctypes
import os
import signal
import subprocess
import sys
import time

# The test runner may start this with signals blocked, and a blocked mask is inherited: Xvfb,
# Chromium and camstamp must be stoppable by the signals sent to them.
signal.pthread_sigmask(signal.SIG_SETMASK, [])

camstamp, photo_dir = sys.argv[1:3]
ending = sys.argv[3] if len(sys.argv) > 3 else "q"


def close_window(display_name, window):
    """What a window manager sends when the user clicks the close button (xdotool's windowclose
    destroys the window instead, which no application survives)."""
    x11 = ctypes.CDLL("libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]

    class ClientMessage(ctypes.Structure):
        _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                    ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                    ("format", ctypes.c_int), ("data", ctypes.c_long * 5), ("pad", ctypes.c_long * 12)]

    display = x11.XOpenDisplay(display_name.encode())
    event = ClientMessage(type=33, send_event=1, display=display, window=int(window),
                          message_type=x11.XInternAtom(display, b"WM_PROTOCOLS", 0), format=32)
    event.data[0] = x11.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
    x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
    x11.XSendEvent(display, int(window), 0, 0, ctypes.byref(event))
    x11.XFlush.argtypes = [ctypes.c_void_p]
    x11.XFlush(display)
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    x11.XCloseDisplay(display)


def fail(message):
    print("window test: " + message, file=sys.stderr)
    sys.exit(1)


read_end, write_end = os.pipe()
xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-noreset", "-nolisten", "tcp", "-screen", "0", "1024x768x24"],
                        pass_fds=[write_end], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(write_end)
camera = None
try:
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(read_end, 16)
        if not chunk:
            fail("Xvfb did not report a display")
        number += chunk
    environment = dict(os.environ, DISPLAY=":" + number.decode().strip(), GST_GL_WINDOW="x11")
    camera = subprocess.Popen([camstamp, "camera", "--source", "test", "--size", "640x480", "--text", "window test",
                               "--window", "-o", photo_dir],
                              env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def xdotool(*arguments):
        return subprocess.run(["xdotool", *arguments], env=environment, capture_output=True, text=True, timeout=20)

    # The sink's window, titled after the program (the root window is visible too: not that one).
    window = None
    deadline = time.time() + 20
    while time.time() < deadline and window is None:
        if camera.poll() is not None:
            fail("camstamp exited %d before its window appeared: %s" % (camera.returncode, camera.stderr.read()))
        found = xdotool("search", "--onlyvisible", "--name", "^camstamp$").stdout.split()
        window = found[-1] if found else None
        if window is None:
            time.sleep(0.2)
    if window is None:
        fail("no window appeared within 20 s")
    xdotool("windowfocus", "--sync", window)
    time.sleep(0.5)

    def photos():
        return sorted(name for name in os.listdir(photo_dir) if name.endswith(".jpg"))

    xdotool("key", "--window", window, "space")
    deadline = time.time() + 15
    while time.time() < deadline and not photos():
        time.sleep(0.1)
    if not photos():
        fail("Space wrote no photo within 15 s")
    with open(os.path.join(photo_dir, photos()[0]), "rb") as photo:
        if photo.read(2) != b"\xff\xd8":
            fail("the photo is not a JPEG")

    if ending == "close":
        close_window(environment["DISPLAY"], window)
    else:
        xdotool("key", "--window", window, "q")
    try:
        camera.wait(timeout=15)
    except subprocess.TimeoutExpired:
        fail("%s did not end camstamp within 15 s" % ending)
    if camera.returncode != 0:
        fail("camstamp exited %d after %s, expected 0: %s" % (camera.returncode, ending, camera.stderr.read()))
    printed = camera.stdout.read().split()
    if os.path.join(os.path.realpath(photo_dir), photos()[0]) not in printed:
        fail("the photo's path was not printed: %r" % printed)
    print("window test: photo %s, exit 0 after %s" % (photos()[0], ending))
finally:
    if camera is not None and camera.poll() is None:
        camera.kill()
        camera.wait()
    xvfb.terminate()
    try:
        xvfb.wait(timeout=10)
    except subprocess.TimeoutExpired:
        xvfb.kill()
        xvfb.wait()
