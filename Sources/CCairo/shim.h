// Cairo, drawing onto the overlay's X pixmaps (its Xlib surface) and into image masks.
#include <cairo/cairo.h>
#include <cairo/cairo-xlib.h>
