// Everything is in the header (static inline); SwiftPM wants a source file in a C target.
#include "plugin_support.h"
