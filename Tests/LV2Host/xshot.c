// xshot: writes a window of an X display (the root window unless given) as a PNG, through
// cairo, for the editor window's tests (the test image has no ImageMagick or xwd).
//
//   xshot OUT.png [WINDOW-ID [X Y WIDTH HEIGHT]]
//
// With a rectangle, only that part of the window is written (a control, without the
// playhead that moves beside it).
// Prints the share of pixels that differ from the first pixel's color: a blank window
// prints 0.
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <cairo/cairo.h>
#include <cairo/cairo-xlib.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: xshot OUT.png [WINDOW-ID [X Y WIDTH HEIGHT]]\n");
        return 2;
    }
    Display *display = XOpenDisplay(NULL);
    if (!display) {
        fprintf(stderr, "xshot: cannot open the display\n");
        return 1;
    }
    Window window = argc > 2 ? (Window)strtoul(argv[2], NULL, 0) : DefaultRootWindow(display);
    XWindowAttributes attributes;
    if (!XGetWindowAttributes(display, window, &attributes)) {
        fprintf(stderr, "xshot: no such window\n");
        return 1;
    }
    cairo_surface_t *source = cairo_xlib_surface_create(display, window, attributes.visual, attributes.width, attributes.height);
    int left = 0, top = 0;
    if (argc > 6) {
        left = atoi(argv[3]);
        top = atoi(argv[4]);
        attributes.width = atoi(argv[5]);
        attributes.height = atoi(argv[6]);
        if (attributes.width <= 0 || attributes.height <= 0) {
            fprintf(stderr, "xshot: an empty rectangle\n");
            return 2;
        }
    }
    cairo_surface_t *image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, attributes.width, attributes.height);
    cairo_t *cr = cairo_create(image);
    cairo_set_source_surface(cr, source, -left, -top);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_flush(image);
    unsigned char *data = cairo_image_surface_get_data(image);
    int stride = cairo_image_surface_get_stride(image);
    unsigned first = *(unsigned *)data & 0xFFFFFF;
    long differing = 0;
    for (int y = 0; y < attributes.height; y++)
        for (int x = 0; x < attributes.width; x++)
            if ((*(unsigned *)(data + y * stride + 4 * x) & 0xFFFFFF) != first) differing++;
    printf("%.4f\n", (double)differing / ((double)attributes.width * attributes.height));
    int status = cairo_surface_write_to_png(image, argv[1]) == CAIRO_STATUS_SUCCESS ? 0 : 1;
    cairo_surface_destroy(image);
    cairo_surface_destroy(source);
    XCloseDisplay(display);
    return status;
}
