// CPangoCairo: the C API of pkg-config package pangocairo, imported as is.
#include <pango/pangocairo.h>
