import CGStreamer
import CGstApp
import CGstVideo
func probe() { gst_init(nil, nil); let s = gst_video_overlay_composition_new(nil); _ = s; let e: UnsafeMutablePointer<GstElement>? = nil; _ = e }
