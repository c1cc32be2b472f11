// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// camstampx264enc: libx264 behind GstVideoEncoder, for marked clips (ClipPipeline).
//
// Why not x264enc: it keeps each input frame mapped, and the GstVideoCodecFrame keeps its input
// buffer, until libx264 lets out that frame's coded picture: ~50 frames (3 MB each at 1080p)
// behind the lookahead, the B-frames and the frame threads, although x264_encoder_encode has
// copied the picture into its own frame before it returns. Those frames all come from the
// decoder's pool, which grows to ~70 buffers (faulted in once each). Here the input buffer goes
// back to its pool when x264_encoder_encode returns, as in ffmpeg's libx264 wrapper.
//
// Settings are libx264's (x264_param_default_preset, CRF, keyframe distance, threads), so the
// x264 options string in the output's SEI is the one x264enc pass=qual writes, and ffmpeg's.
#include "CX264Encoder.h"
#include <gst/video/video.h>
#include <stdint.h>
#include <x264.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC(camstamp_x264enc_debug);
#define GST_CAT_DEFAULT camstamp_x264enc_debug

typedef struct {
    GstVideoEncoder parent;
    x264_t *x264;
    GstVideoCodecState *input_state;
    /* properties */
    gchar *speed_preset;
    gdouble crf;
    guint key_int_max;
    guint threads;
    /* What the coded pictures so far span: the first DTS, the earliest PTS and the latest end of
     * one (PTS + duration), for the last picture's duration (see `push_picture`). */
    GstClockTime first_dts, first_pts, end;
} CamstampX264Enc;

typedef struct {
    GstVideoEncoderClass parent_class;
} CamstampX264EncClass;

G_DEFINE_TYPE(CamstampX264Enc, camstamp_x264enc, GST_TYPE_VIDEO_ENCODER)

enum { PROP_0, PROP_SPEED_PRESET, PROP_CRF, PROP_KEY_INT_MAX, PROP_THREADS };

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS("video/x-raw, format=(string)I420, width=(int)[1, 16384], height=(int)[1, 16384], "
                    "framerate=(fraction)[0/1, MAX]"));

/* Annex B with the headers before every keyframe; h264parse turns it into what the muxer takes. */
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS("video/x-h264, stream-format=(string)byte-stream, alignment=(string)au, "
                    "profile=(string){ high, main, baseline, constrained-baseline }"));

static void x264_log(void *element, int level, const char *format, va_list args) {
    GstDebugLevel gst_level = level <= X264_LOG_ERROR ? GST_LEVEL_ERROR
        : level == X264_LOG_WARNING ? GST_LEVEL_WARNING : level == X264_LOG_INFO ? GST_LEVEL_INFO : GST_LEVEL_DEBUG;
    gst_debug_log_valist(camstamp_x264enc_debug, gst_level, __FILE__, __func__, __LINE__, G_OBJECT(element), format, args);
}

static void close_encoder(CamstampX264Enc *self) {
    if (self->x264) {
        x264_encoder_close(self->x264);
        self->x264 = NULL;
    }
    self->first_dts = self->first_pts = self->end = GST_CLOCK_TIME_NONE;
}

static GstFlowReturn drain(CamstampX264Enc *self);

static gboolean camstamp_x264enc_set_format(GstVideoEncoder *encoder, GstVideoCodecState *state) {
    CamstampX264Enc *self = (CamstampX264Enc *)encoder;
    GstVideoInfo *info = &state->info;
    x264_param_t param;

    /* New caps mid-stream: the pictures x264 still holds go out first, then a new encoder. */
    if (drain(self) != GST_FLOW_OK) return FALSE;
    close_encoder(self);
    if (self->input_state) gst_video_codec_state_unref(self->input_state);
    self->input_state = gst_video_codec_state_ref(state);

    if (x264_param_default_preset(&param, self->speed_preset, NULL) < 0) {
        GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS, ("unknown x264 speed preset '%s'", self->speed_preset), (NULL));
        return FALSE;
    }
    param.pf_log = x264_log;
    param.p_log_private = self;
    param.i_log_level = X264_LOG_WARNING;
    param.i_threads = self->threads;
    param.i_csp = X264_CSP_I420;
    param.i_width = GST_VIDEO_INFO_WIDTH(info);
    param.i_height = GST_VIDEO_INFO_HEIGHT(info);
    /* Timestamps in nanoseconds, as GStreamer's; the frame rate, when the caps have one, paces
     * the rate control (as in x264enc). */
    param.i_timebase_num = 1;
    param.i_timebase_den = 1000000000;
    if (GST_VIDEO_INFO_FPS_N(info) > 0 && GST_VIDEO_INFO_FPS_D(info) > 0) {
        param.b_vfr_input = 0;
        param.i_fps_num = GST_VIDEO_INFO_FPS_N(info);
        param.i_fps_den = GST_VIDEO_INFO_FPS_D(info);
    } else {
        param.b_vfr_input = 1;
    }
    /* Interlaced input is coded as fields (as x264enc does), so players know to deinterlace. */
    if (GST_VIDEO_INFO_IS_INTERLACED(info)) {
        param.b_interlaced = 1;
        param.b_tff = GST_VIDEO_INFO_FIELD_ORDER(info) != GST_VIDEO_FIELD_ORDER_BOTTOM_FIELD_FIRST;
    }
    param.i_keyint_max = self->key_int_max;
    param.rc.i_rc_method = X264_RC_CRF;
    param.rc.f_rf_constant = (float)self->crf;
    if (GST_VIDEO_INFO_PAR_N(info) > 0 && GST_VIDEO_INFO_PAR_D(info) > 0) {
        param.vui.i_sar_width = GST_VIDEO_INFO_PAR_N(info);
        param.vui.i_sar_height = GST_VIDEO_INFO_PAR_D(info);
    }
    param.vui.i_colorprim = gst_video_color_primaries_to_iso(info->colorimetry.primaries);
    param.vui.i_transfer = gst_video_transfer_function_to_iso(info->colorimetry.transfer);
    param.vui.i_colmatrix = gst_video_color_matrix_to_iso(info->colorimetry.matrix);
    param.vui.b_fullrange = info->colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255;
    param.b_annexb = 1;
    param.b_repeat_headers = 1;
    if (x264_param_apply_profile(&param, "high") < 0) {
        GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS, ("x264 cannot code this input in the High profile"), (NULL));
        return FALSE;
    }
    self->x264 = x264_encoder_open(&param);
    if (!self->x264) {
        GST_ELEMENT_ERROR(self, LIBRARY, INIT, ("x264 could not open an encoder for %dx%d", param.i_width, param.i_height), (NULL));
        return FALSE;
    }
    x264_encoder_parameters(self->x264, &param);

    /* The profile x264 writes in its SPS for these settings. */
    const char *profile = param.analyse.b_transform_8x8 || param.i_cqm_preset != X264_CQM_FLAT ? "high"
        : param.b_cabac || param.i_bframe > 0 || param.analyse.i_weighted_pred > 0 ? "main" : "constrained-baseline";
    GstCaps *caps = gst_caps_new_simple("video/x-h264", "stream-format", G_TYPE_STRING, "byte-stream",
                                        "alignment", G_TYPE_STRING, "au",
                                        "profile", G_TYPE_STRING, profile, NULL);
    GstVideoCodecState *output = gst_video_encoder_set_output_state(encoder, caps, state);
    gst_video_codec_state_unref(output);
    return gst_video_encoder_negotiate(encoder);
}

/* Pushes the coded picture x264 let out (if any) as the frame it belongs to. The `last` one
 * lasts until the end of the latest picture: an MP4 muxer sums its samples' decode durations
 * (DTS to DTS, the last one's own) for the track and its edit, and with B-frames the DTSs run the
 * reordering delay behind the PTSs. At a fixed rate the delay is the same at both ends and the
 * sum comes out right; a clip that slows down (30 fps, then 10) has a delay of 10 fps frames at
 * its end against 30 fps ones at its start, and the track came out 0.13 s short: players left
 * its last frame out. */
static GstFlowReturn push_picture(CamstampX264Enc *self, x264_nal_t *nal, int size, x264_picture_t *out, gboolean last) {
    if (size <= 0) return GST_FLOW_OK;
    GstVideoCodecFrame *frame = gst_video_encoder_get_frame(GST_VIDEO_ENCODER(self), GPOINTER_TO_INT(out->opaque));
    if (!frame) {
        GST_ELEMENT_ERROR(self, STREAM, ENCODE, ("x264 let out a picture of no pending frame"), (NULL));
        return GST_FLOW_ERROR;
    }
    /* x264 writes a picture's NAL units one after the other in one block. */
    frame->output_buffer = gst_buffer_new_memdup(nal[0].p_payload, (gsize)size);
    frame->pts = out->i_pts;
    frame->dts = out->i_dts;
    if (!GST_CLOCK_TIME_IS_VALID(self->first_dts)) self->first_dts = frame->dts;
    if (!GST_CLOCK_TIME_IS_VALID(self->first_pts) || frame->pts < self->first_pts) self->first_pts = frame->pts;
    if (GST_CLOCK_TIME_IS_VALID(frame->duration) && (!GST_CLOCK_TIME_IS_VALID(self->end) || frame->pts + frame->duration > self->end))
        self->end = frame->pts + frame->duration;
    if (last && GST_CLOCK_TIME_IS_VALID(self->end) && frame->dts >= self->first_dts) {
        GstClockTime decoded = frame->dts - self->first_dts, shown = self->end - self->first_pts;
        if (shown > decoded) frame->duration = shown - decoded;
    }
    if (out->b_keyframe) GST_VIDEO_CODEC_FRAME_SET_SYNC_POINT(frame);
    /* The input frame's timecode, kept on the frame (see `handle_frame`), for qtmux's tmcd track. */
    GstVideoTimeCode *timecode = gst_video_codec_frame_get_user_data(frame);
    if (timecode) gst_buffer_add_video_time_code_meta(frame->output_buffer, timecode);
    return gst_video_encoder_finish_frame(GST_VIDEO_ENCODER(self), frame);
}

static GstFlowReturn camstamp_x264enc_handle_frame(GstVideoEncoder *encoder, GstVideoCodecFrame *frame) {
    CamstampX264Enc *self = (CamstampX264Enc *)encoder;
    if (!self->x264) {
        gst_video_codec_frame_unref(frame);
        return GST_FLOW_NOT_NEGOTIATED;
    }
    GstVideoFrame video;
    if (!gst_video_frame_map(&video, &self->input_state->info, frame->input_buffer, GST_MAP_READ)) {
        gst_video_codec_frame_unref(frame);
        GST_ELEMENT_ERROR(self, STREAM, ENCODE, ("cannot read a frame's pixels"), (NULL));
        return GST_FLOW_ERROR;
    }
    x264_picture_t in, out;
    x264_picture_init(&in);
    in.img.i_csp = X264_CSP_I420;
    in.img.i_plane = 3;
    for (int plane = 0; plane < 3; plane++) {
        in.img.plane[plane] = GST_VIDEO_FRAME_COMP_DATA(&video, plane);
        in.img.i_stride[plane] = GST_VIDEO_FRAME_COMP_STRIDE(&video, plane);
    }
    in.i_type = GST_VIDEO_CODEC_FRAME_IS_FORCE_KEYFRAME(frame) ? X264_TYPE_IDR : X264_TYPE_AUTO;
    in.i_pts = (int64_t)frame->pts;
    in.opaque = GINT_TO_POINTER(frame->system_frame_number);

    x264_nal_t *nal = NULL;
    int nals = 0;
    int size = x264_encoder_encode(self->x264, &nal, &nals, &in, &out);
    /* x264 has copied the picture into a frame of its own: the buffer goes back to its pool now,
     * not when this frame's coded picture comes out ~50 frames later. Its timecode (the source's,
     * ClipWorker's) is the one meta a coded picture needs: a copy goes with the frame. */
    GstVideoTimeCodeMeta *timecode = gst_buffer_get_video_time_code_meta(frame->input_buffer);
    if (timecode)
        gst_video_codec_frame_set_user_data(frame, gst_video_time_code_copy(&timecode->tc), (GDestroyNotify)gst_video_time_code_free);
    gst_video_frame_unmap(&video);
    gst_buffer_replace(&frame->input_buffer, NULL);
    gst_video_codec_frame_unref(frame);
    if (size < 0) {
        GST_ELEMENT_ERROR(self, STREAM, ENCODE, ("x264 failed to code a frame (%d)", size), (NULL));
        return GST_FLOW_ERROR;
    }
    return push_picture(self, nal, size, &out, FALSE);
}

/* Drains the pictures x264 still holds (end of stream). */
static GstFlowReturn drain(CamstampX264Enc *self) {
    GstFlowReturn ret = GST_FLOW_OK;
    while (ret == GST_FLOW_OK && self->x264 && x264_encoder_delayed_frames(self->x264) > 0) {
        x264_picture_t out;
        x264_nal_t *nal = NULL;
        int nals = 0;
        int size = x264_encoder_encode(self->x264, &nal, &nals, NULL, &out);
        if (size < 0) {
            GST_ELEMENT_ERROR(self, STREAM, ENCODE, ("x264 failed to code a frame (%d)", size), (NULL));
            return GST_FLOW_ERROR;
        }
        ret = push_picture(self, nal, size, &out, x264_encoder_delayed_frames(self->x264) == 0);
    }
    return ret;
}

static GstFlowReturn camstamp_x264enc_finish(GstVideoEncoder *encoder) {
    return drain((CamstampX264Enc *)encoder);
}

static gboolean camstamp_x264enc_start(GstVideoEncoder *encoder) {
    /* B-frames make x264's first DTS earlier than the first PTS: room for it, as x264enc does. */
    gst_video_encoder_set_min_pts(encoder, GST_SECOND * 60 * 60 * 1000);
    return TRUE;
}

static gboolean camstamp_x264enc_stop(GstVideoEncoder *encoder) {
    CamstampX264Enc *self = (CamstampX264Enc *)encoder;
    close_encoder(self);
    if (self->input_state) {
        gst_video_codec_state_unref(self->input_state);
        self->input_state = NULL;
    }
    return TRUE;
}

static gboolean camstamp_x264enc_flush(GstVideoEncoder *encoder) {
    CamstampX264Enc *self = (CamstampX264Enc *)encoder;
    /* A flush drops what x264 holds: a new encoder from the same caps. */
    close_encoder(self);
    if (self->input_state) {
        GstVideoCodecState *state = gst_video_codec_state_ref(self->input_state);
        gboolean ok = camstamp_x264enc_set_format(encoder, state);
        gst_video_codec_state_unref(state);
        return ok;
    }
    return TRUE;
}

static void camstamp_x264enc_set_property(GObject *object, guint id, const GValue *value, GParamSpec *spec) {
    CamstampX264Enc *self = (CamstampX264Enc *)object;
    switch (id) {
    case PROP_SPEED_PRESET: g_free(self->speed_preset); self->speed_preset = g_value_dup_string(value); break;
    case PROP_CRF: self->crf = g_value_get_double(value); break;
    case PROP_KEY_INT_MAX: self->key_int_max = g_value_get_uint(value); break;
    case PROP_THREADS: self->threads = g_value_get_uint(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
    }
}

static void camstamp_x264enc_get_property(GObject *object, guint id, GValue *value, GParamSpec *spec) {
    CamstampX264Enc *self = (CamstampX264Enc *)object;
    switch (id) {
    case PROP_SPEED_PRESET: g_value_set_string(value, self->speed_preset); break;
    case PROP_CRF: g_value_set_double(value, self->crf); break;
    case PROP_KEY_INT_MAX: g_value_set_uint(value, self->key_int_max); break;
    case PROP_THREADS: g_value_set_uint(value, self->threads); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
    }
}

static void camstamp_x264enc_finalize(GObject *object) {
    CamstampX264Enc *self = (CamstampX264Enc *)object;
    close_encoder(self);
    if (self->input_state) gst_video_codec_state_unref(self->input_state);
    g_free(self->speed_preset);
    G_OBJECT_CLASS(camstamp_x264enc_parent_class)->finalize(object);
}

static void camstamp_x264enc_class_init(CamstampX264EncClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    GstVideoEncoderClass *encoder_class = GST_VIDEO_ENCODER_CLASS(klass);

    object_class->set_property = camstamp_x264enc_set_property;
    object_class->get_property = camstamp_x264enc_get_property;
    object_class->finalize = camstamp_x264enc_finalize;
    GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;
    g_object_class_install_property(object_class, PROP_SPEED_PRESET,
        g_param_spec_string("speed-preset", "Speed preset", "x264's speed preset (ultrafast ... placebo)", "medium", flags));
    g_object_class_install_property(object_class, PROP_CRF,
        g_param_spec_double("crf", "CRF", "x264's constant rate factor", 0, 51, 23, flags));
    g_object_class_install_property(object_class, PROP_KEY_INT_MAX,
        g_param_spec_uint("key-int-max", "Key frame distance", "Most frames between key frames", 1, G_MAXINT, 250, flags));
    g_object_class_install_property(object_class, PROP_THREADS,
        g_param_spec_uint("threads", "Threads", "x264's frame threads (0: x264's own count)", 0, 128, 0, flags));

    gst_element_class_add_static_pad_template(element_class, &sink_template);
    gst_element_class_add_static_pad_template(element_class, &src_template);
    gst_element_class_set_static_metadata(element_class, "camstamp x264 encoder", "Codec/Encoder/Video",
        "H.264 by libx264, each input frame released once x264 has copied it", "camstamp");

    encoder_class->start = camstamp_x264enc_start;
    encoder_class->stop = camstamp_x264enc_stop;
    encoder_class->set_format = camstamp_x264enc_set_format;
    encoder_class->handle_frame = camstamp_x264enc_handle_frame;
    encoder_class->finish = camstamp_x264enc_finish;
    encoder_class->flush = camstamp_x264enc_flush;
    /* The input buffer is gone by the time a picture comes out: no metas to carry over, but for
     * its timecode, which the frame keeps (`handle_frame`). */
    encoder_class->transform_meta = NULL;
}

static void camstamp_x264enc_init(CamstampX264Enc *self) {
    self->speed_preset = g_strdup("medium");
    self->crf = 23;
    self->key_int_max = 250;
    self->threads = 0;
    self->first_dts = self->first_pts = self->end = GST_CLOCK_TIME_NONE;
}

gboolean camstamp_x264enc_register(void) {
    static gsize registered = 0;
    static gboolean result = FALSE;
    if (g_once_init_enter(&registered)) {
        GST_DEBUG_CATEGORY_INIT(camstamp_x264enc_debug, "camstampx264enc", 0, "camstamp's libx264 encoder");
        result = gst_element_register(NULL, "camstampx264enc", GST_RANK_NONE, camstamp_x264enc_get_type());
        g_once_init_leave(&registered, 1);
    }
    return result;
}
