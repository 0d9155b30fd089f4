#ifndef TONESHAPER_NUMBER_TEXT_H
#define TONESHAPER_NUMBER_TEXT_H

// Decimal text of doubles for the JSON module, in C because Embedded Swift can neither
// import the C library (Glibc) nor call variadic functions such as snprintf. Both
// directions use the "C" locale's '.', whatever locale the host program has set: JSON's
// numbers are not localised, and a plugin host in a German session must not write "0,5".

/// The double that `text` (NUL-terminated, already checked against JSON's number grammar)
/// denotes, rounded correctly (strtod). ±HUGE_VAL when it is beyond the double range.
double toneshaper_read_number(const char *text);

/// The fewest significant digits (15, 16 or at most 17; fewer for subnormals) that read
/// back as exactly `value`, which must be finite and positive. Writes the digits as ASCII,
/// without trailing zeros, into `digits` (room for 17) and returns how many; `*exponent` is
/// the decimal exponent of the first digit (value = d.ddd × 10^exponent).
int toneshaper_shortest_digits(double value, unsigned char *digits, int *exponent);

/// Reads all of `text` as a number in the "C" locale, as strtod does (decimal or hexadecimal,
/// "inf", "nan"); returns 0 when `text` is empty, starts with white space or has anything
/// after the number, else 1 with the value in *value.
int toneshaper_read_whole_number(const char *text, double *value);

#endif
