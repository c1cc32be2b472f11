// CCairo: the C API of pkg-config package cairo, imported as is.
#include <cairo.h>
