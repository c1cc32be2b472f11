// glibc's malloc tuning (mallopt), which the Glibc module does not carry: part of every C toolchain.
#include <malloc.h>
