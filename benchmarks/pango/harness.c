/* harness.c: the Pango 1.50 side of bench-layout (a benchmark reference only,
 * not a Lectern dependency). Lays out a UTF-8 text file with PangoFT2 at
 * 72 dpi (1 pt = 1 px), unrounded glyph positions, WRAP_WORD_CHAR, and prints
 * key=value timings plus the line table and per-grapheme hit-tests that
 * bench-layout compares with Lectern.
 *
 * usage: harness TEXT_FILE FAMILY SIZE WIDTH NEW_WIDTH HITS REPS SENTENCE_START SENTENCE_END
 * (sentence offsets are UTF-8 byte offsets)
 *
 * Output lines:
 *   key=value                 timings in microseconds (best of REPS runs; hit-tests:
 *                             best batch of 100, per call) and facts
 *   line START LENGTH          Pango's lines (byte offsets)
 *   g INDEX LINE XCENTRE HIT   each grapheme's centre x (pt) and Pango's hit-test there
 */
#include <pango/pangoft2.h>
#include <pango/pangofc-font.h>
#include <fontconfig/fontconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* The best of several runs: the least disturbed by other processes on a
 * shared machine (bench-layout measures Lectern the same way). */
static double best(const double *values, int count) {
    double result = values[0];
    for (int i = 1; i < count; i++)
        if (values[i] < result) result = values[i];
    return result;
}

static PangoLayout *layout_text(PangoContext *context, PangoFontDescription *font, const char *text,
                                int length, double width) {
    PangoLayout *layout = pango_layout_new(context);
    pango_layout_set_font_description(layout, font);
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_width(layout, (int)(width * PANGO_SCALE));
    pango_layout_set_text(layout, text, length);
    pango_layout_get_line_count(layout); /* forces the layout */
    return layout;
}

static char *read_file(const char *path, int *length) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *text = malloc(size + 1);
    if (!text || fread(text, 1, size, file) != (size_t)size) {
        fclose(file);
        free(text);
        return NULL;
    }
    fclose(file);
    text[size] = 0;
    *length = (int)size;
    return text;
}

int main(int argc, char **argv) {
    if (argc != 10) {
        fprintf(stderr, "usage: %s TEXT_FILE FAMILY SIZE WIDTH NEW_WIDTH HITS REPS SENTENCE_START SENTENCE_END\n", argv[0]);
        return 2;
    }
    int length = 0;
    char *text = read_file(argv[1], &length);
    if (!text) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    double size = atof(argv[3]), width = atof(argv[4]), new_width = atof(argv[5]);
    int hits = atoi(argv[6]), reps = atoi(argv[7]);
    int sentence_start = atoi(argv[8]), sentence_end = atoi(argv[9]);
    if (reps < 1) reps = 1;

    PangoFontMap *font_map = pango_ft2_font_map_new();
    pango_ft2_font_map_set_resolution(PANGO_FT2_FONT_MAP(font_map), 72, 72);
    PangoContext *context = pango_font_map_create_context(font_map);
    pango_context_set_round_glyph_positions(context, FALSE);
    PangoFontDescription *font = pango_font_description_new();
    pango_font_description_set_family(font, argv[2]);
    pango_font_description_set_absolute_size(font, size * PANGO_SCALE);

    PangoFont *primary = pango_context_load_font(context, font);
    if (primary && PANGO_IS_FC_FONT(primary)) {
        FcChar8 *file = NULL;
        if (FcPatternGetString(pango_fc_font_get_pattern(PANGO_FC_FONT(primary)), FC_FILE, 0, &file) == FcResultMatch)
            printf("font_file=%s\n", (const char *)file);
    }
    printf("pango_version=%s\n", pango_version_string());

    double *times = malloc(sizeof(double) * reps);
    g_object_unref(layout_text(context, font, text, length, width)); /* warm font caches */
    for (int r = 0; r < reps; r++) {
        double t0 = now_us();
        PangoLayout *layout = layout_text(context, font, text, length, width);
        times[r] = now_us() - t0;
        g_object_unref(layout);
    }
    printf("first_layout_us=%.3f\n", best(times, reps));

    PangoLayout *layout = layout_text(context, font, text, length, width);
    for (int r = 0; r < reps; r++) {
        double target = (r % 2 == 0) ? new_width : width;
        double t0 = now_us();
        pango_layout_set_width(layout, (int)(target * PANGO_SCALE));
        pango_layout_get_line_count(layout);
        times[r] = now_us() - t0;
    }
    printf("relayout_us=%.3f\n", best(times, reps));
    pango_layout_set_width(layout, (int)(width * PANGO_SCALE));
    printf("lines=%d\n", pango_layout_get_line_count(layout));

    PangoRectangle logical;
    pango_layout_get_extents(layout, NULL, &logical);
    unsigned seed = 12345;
    long checksum = 0;
    const int batch = 100;
    double best_batch = -1;
    for (int done = 0; done < hits; done += batch) {
        double t0 = now_us();
        for (int i = 0; i < batch; i++) {
            seed = seed * 1103515245u + 12345u;
            int x = (int)((seed >> 8) % (unsigned)(width * PANGO_SCALE));
            seed = seed * 1103515245u + 12345u;
            int y = (int)((seed >> 8) % (unsigned)(logical.height > 0 ? logical.height : 1));
            int index = 0, trailing = 0;
            pango_layout_xy_to_index(layout, x, y, &index, &trailing);
            checksum += index + trailing;
        }
        double elapsed = now_us() - t0;
        if (best_batch < 0 || elapsed < best_batch) best_batch = elapsed;
    }
    printf("hit_test_us=%.6f\n", best_batch / batch);
    printf("hit_checksum=%ld\n", checksum);

    int rect_count = 0;
    for (int r = 0; r < reps; r++) {
        double start = now_us();
        int first_line = 0, last_line = 0, x = 0;
        pango_layout_index_to_line_x(layout, sentence_start, FALSE, &first_line, &x);
        pango_layout_index_to_line_x(layout, sentence_end, FALSE, &last_line, &x);
        PangoLayoutIter *iter = pango_layout_get_iter(layout);
        for (int i = 0; i < first_line; i++) pango_layout_iter_next_line(iter);
        rect_count = 0;
        for (int i = first_line; i <= last_line; i++) {
            PangoLayoutLine *line = pango_layout_iter_get_line_readonly(iter);
            int y0 = 0, y1 = 0, *ranges = NULL, n = 0;
            pango_layout_iter_get_line_yrange(iter, &y0, &y1);
            pango_layout_line_get_x_ranges(line, sentence_start, sentence_end, &ranges, &n);
            rect_count += n;
            g_free(ranges);
            if (!pango_layout_iter_next_line(iter)) break;
        }
        pango_layout_iter_free(iter);
        times[r] = now_us() - start;
    }
    printf("sentence_rects_us=%.3f\n", best(times, reps));
    printf("sentence_rects=%d\n", rect_count);

    PangoLayoutIter *iter = pango_layout_get_iter(layout);
    do {
        PangoLayoutLine *line = pango_layout_iter_get_line_readonly(iter);
        printf("line %d %d\n", line->start_index, line->length);
    } while (pango_layout_iter_next_line(iter));
    pango_layout_iter_free(iter);

    int attr_count = 0;
    const PangoLogAttr *attrs = pango_layout_get_log_attrs_readonly(layout, &attr_count);
    const char *p = text;
    for (int i = 0; i < attr_count - 1 && p < text + length; i++, p = g_utf8_next_char(p)) {
        gunichar c = g_utf8_get_char(p);
        if (!attrs[i].is_cursor_position || g_unichar_isspace(c)) continue;
        int index = (int)(p - text);
        PangoRectangle pos;
        pango_layout_index_to_pos(layout, index, &pos);
        int line_number = 0, x = 0;
        pango_layout_index_to_line_x(layout, index, FALSE, &line_number, &x);
        int cx = pos.x + pos.width / 2, cy = pos.y + pos.height / 2;
        int hit = 0, trailing = 0;
        pango_layout_xy_to_index(layout, cx, cy, &hit, &trailing);
        printf("g %d %d %.4f %d\n", index, line_number, (double)cx / PANGO_SCALE, hit);
    }

    g_object_unref(layout);
    pango_font_description_free(font);
    if (primary) g_object_unref(primary);
    g_object_unref(context);
    g_object_unref(font_map);
    free(times);
    free(text);
    return 0;
}
