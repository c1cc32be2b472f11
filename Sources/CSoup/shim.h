// CSoup: the C API of pkg-config package libsoup-3.0, imported as is.
#include <libsoup/soup.h>
