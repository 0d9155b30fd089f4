// Everything is in the header (declarations and static inline helpers); SwiftPM wants a
// source file in a C target.
#include "cvst3.h"
