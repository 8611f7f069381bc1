// cicu_uchar.h: character properties from ICU's uchar/uscript, behind
// version-independent names. Code points are UTF-32 scalars.
#ifndef CICU_UCHAR_H
#define CICU_UCHAR_H

#include <stdint.h>

/// ICU's UScriptCode (0 common, 1 inherited, 17 Han, 18 Hangul, ...), or -1.
int32_t lc_script(uint32_t c);
/// ISO 15924 four-letter code of a UScriptCode ("Latn", "Hang"), or NULL.
const char *lc_script_code(int32_t script);
/// UAX #29 Sentence_Break property value (ICU's USentenceBreak).
int32_t lc_sentence_break(uint32_t c);
/// UAX #14 Line_Break property value (ICU's ULineBreak).
int32_t lc_line_break(uint32_t c);
/// General category (ICU's UCharCategory).
int32_t lc_char_type(uint32_t c);
/// East_Asian_Width (ICU's UEastAsianWidth).
int32_t lc_east_asian_width(uint32_t c);
int lc_is_uppercase(uint32_t c);
int lc_is_lowercase(uint32_t c);
int lc_is_alphabetic(uint32_t c);
int lc_is_white_space(uint32_t c);
int lc_is_extended_pictographic(uint32_t c);
int lc_is_emoji_presentation(uint32_t c);
/// Bidi_Class (ICU's UCharDirection).
int32_t lc_bidi_class(uint32_t c);

#endif
