#include "jpeg_coefficients.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf *escape;
    char *message;
} error_state;

// Fatal errors jump back to cs_rewrite_coefficients: the one thing Swift cannot do.
static void fail(j_common_ptr info) {
    error_state *state = (error_state *)info->err;
    (*info->err->format_message)(info, state->message);
    longjmp(*state->escape, 1);
}

// A warning means damaged data: treated as fatal, so such a photo takes the re-encoding path.
static void warn(j_common_ptr info, int level) {
    if (level < 0) fail(info);
}

int cs_rewrite_coefficients(const unsigned char *input, size_t input_length, cs_prepare prepare,
                            cs_filter filter, void *context, unsigned char **output,
                            size_t *output_length, char message[CS_MESSAGE_LENGTH]) {
    struct jpeg_decompress_struct source;
    struct jpeg_compress_struct target;
    error_state source_error, target_error;
    // volatile: read after longjmp.
    unsigned char *volatile buffer = NULL;
    unsigned long buffer_length = 0;
    volatile int status = 0;
    char text[JMSG_LENGTH_MAX] = "";
    // One escape for both structs: setjmp may only stand alone in a condition.
    jmp_buf escape;

    *output = NULL;
    *output_length = 0;
    message[0] = 0;
    source.err = jpeg_std_error(&source_error.manager);
    source_error.manager.error_exit = fail;
    source_error.manager.emit_message = warn;
    source_error.message = text;
    source_error.escape = &escape;
    target.err = jpeg_std_error(&target_error.manager);
    target_error.manager.error_exit = fail;
    target_error.manager.emit_message = warn;
    target_error.message = text;
    target_error.escape = &escape;
    jpeg_create_decompress(&source);
    jpeg_create_compress(&target);
    if (setjmp(escape)) {
        snprintf(message, CS_MESSAGE_LENGTH, "%s", text);
        jpeg_destroy_compress(&target);
        jpeg_destroy_decompress(&source);
        free(buffer);
        return status ? status : 1;
    }
    jpeg_mem_src(&source, input, (unsigned long)input_length);
    jpeg_read_header(&source, TRUE);
    jvirt_barray_ptr *coefficients = jpeg_read_coefficients(&source);

    cs_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.width = (int)source.image_width;
    frame.height = (int)source.image_height;
    frame.components = source.num_components;
    frame.colour_space = source.jpeg_color_space;
    frame.max_h = source.max_h_samp_factor;
    frame.max_v = source.max_v_samp_factor;
    frame.progressive = source.progressive_mode;
    frame.arithmetic = source.arith_code;
    frame.precision = source.data_precision;
    frame.restart_interval = (int)source.restart_interval;
    for (int c = 0; c < source.num_components && c < CS_MAX_COMPONENTS; c++) {
        jpeg_component_info *component = &source.comp_info[c];
        frame.h[c] = component->h_samp_factor;
        frame.v[c] = component->v_samp_factor;
        frame.width_in_blocks[c] = (int)component->width_in_blocks;
        frame.height_in_blocks[c] = (int)component->height_in_blocks;
        if (component->quant_table)
            for (int k = 0; k < 64; k++) frame.quant[c][k] = component->quant_table->quantval[k];
    }
    if (source.num_components > CS_MAX_COMPONENTS || prepare(context, &frame) != 0) {
        status = 2;
        snprintf(text, sizeof text, "stopped before writing");
        longjmp(escape, 1);
    }

    jpeg_copy_critical_parameters(&source, &target);
    target.restart_interval = source.restart_interval;
    if (source.progressive_mode)
        jpeg_simple_progression(&target);
    else
        target.optimize_coding = TRUE;
    jpeg_mem_dest(&target, (unsigned char **)&buffer, &buffer_length);
    jpeg_write_coefficients(&target, coefficients);

    // After jpeg_write_coefficients, as jpegtran's filters do: the arrays are written at finish.
    for (int c = 0; c < source.num_components; c++) {
        jpeg_component_info *component = &source.comp_info[c];
        for (JDIMENSION row = 0; row < component->height_in_blocks; row++) {
            JBLOCKARRAY rows = (*source.mem->access_virt_barray)((j_common_ptr)&source, coefficients[c], row, 1, TRUE);
            if (filter(context, c, (int)row, (short *)rows[0], (int)component->width_in_blocks) != 0) {
                status = 2;
                snprintf(text, sizeof text, "stopped while changing the coefficients");
                longjmp(escape, 1);
            }
        }
    }
    jpeg_finish_compress(&target);
    jpeg_finish_decompress(&source);
    jpeg_destroy_compress(&target);
    jpeg_destroy_decompress(&source);
    *output = buffer;
    *output_length = buffer_length;
    return 0;
}
