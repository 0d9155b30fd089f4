// xshot: writes a window of an X display (the root window unless given) as a PNG, through
// cairo, for the editor window's tests (the test image has no ImageMagick or xwd).
//
//   xshot OUT.png [WINDOW-ID [X Y WIDTH HEIGHT]]
//
// With a rectangle, only that part of the window is written (a control, without the
// playhead that moves beside it).
// Prints the share of pixels that differ from the first pixel's color: a blank window
// prints 0. A window that goes away while it is read is said so plainly (status 3), with
// the X error, instead of ending in Xlib's default handler; no share is printed then.
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <cairo/cairo.h>
#include <cairo/cairo-xlib.h>
#include <stdio.h>
#include <stdlib.h>

// The first X error seen (Xlib's default handler would end the process on it).
static int x_error_code, x_error_request;
static int note_x_error(Display *display, XErrorEvent *event) {
    (void)display;
    if (!x_error_code) x_error_code = event->error_code, x_error_request = event->request_code;
    return 0;
}

static int window_gone(const char *when) {
    fprintf(stderr, "xshot: the window went away %s (X error %d on request %d); no picture\n", when, x_error_code, x_error_request);
    return 3;
}

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
    XSetErrorHandler(note_x_error);
    Window window = argc > 2 ? (Window)strtoul(argv[2], NULL, 0) : DefaultRootWindow(display);
    XWindowAttributes attributes;
    if (!XGetWindowAttributes(display, window, &attributes)) return window_gone("before it was read");
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
    XSync(display, False);
    if (x_error_code) return window_gone("while it was read");
    unsigned char *data = cairo_image_surface_get_data(image);
    int stride = cairo_image_surface_get_stride(image);
    unsigned first = *(unsigned *)data & 0xFFFFFF;
    long differing = 0;
    for (int y = 0; y < attributes.height; y++)
        for (int x = 0; x < attributes.width; x++)
            if ((*(unsigned *)(data + y * stride + 4 * x) & 0xFFFFFF) != first) differing++;
    // The picture first, then the share: a share is printed only for a picture written.
    cairo_status_t written = cairo_surface_write_to_png(image, argv[1]);
    if (written != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "xshot: could not write %s: %s (does its directory exist?)\n", argv[1], cairo_status_to_string(written));
        return 1;
    }
    printf("%.4f\n", (double)differing / ((double)attributes.width * attributes.height));
    int status = 0;
    cairo_surface_destroy(image);
    cairo_surface_destroy(source);
    XCloseDisplay(display);
    return status;
}
