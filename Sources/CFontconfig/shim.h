// CFontconfig: the C API of pkg-config package fontconfig, imported as is.
#include <fontconfig/fontconfig.h>
