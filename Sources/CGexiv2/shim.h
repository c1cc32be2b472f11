// CGexiv2: the C API of pkg-config package gexiv2 (exiv2's C wrapper), imported as is.
#include <gexiv2/gexiv2.h>
