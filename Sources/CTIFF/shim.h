// libtiff (Debian: libtiff-dev): TIFF read (any bit depth, colour model, page) and written.
#include <tiffio.h>
