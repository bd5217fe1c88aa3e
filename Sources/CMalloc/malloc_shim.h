/* The C library's malloc.h as a module (malloc_usable_size), which the Glibc module leaves out. */
#include <malloc.h>
