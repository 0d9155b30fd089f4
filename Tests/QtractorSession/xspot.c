// xspot: finds a color in a window of an X display, for tests that look at another
// program's window (Qtractor's) to know where to click, and at the editor's window to know
// that something was drawn in a given color. A window gone meanwhile is said plainly (exit
// status 3).
//
//   xspot WINDOW-ID RRGGBB TOLERANCE [X Y WIDTH HEIGHT]
//
// Prints "COUNT X Y": how many pixels of the window (or of the rectangle) are within
// TOLERANCE of the color on each channel, and the lowest of them (the largest y, then the
// smallest x), or "0 -1 -1" when none is.
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdio.h>
#include <stdlib.h>

/// An X error (the window gone between the test's finding it and this reading it): said
/// plainly, exit status 3, instead of Xlib's default handler's message and exit.
static int x_error(Display *display, XErrorEvent *error) {
    char text[128] = "";
    XGetErrorText(display, error->error_code, text, sizeof text);
    if (error->error_code == BadWindow || error->error_code == BadDrawable || error->error_code == BadMatch)
        fprintf(stderr, "xspot: the window is gone (%s)\n", text);
    else
        fprintf(stderr, "xspot: X error %s (request %d)\n", text, error->request_code);
    exit(3);
}

static int near(unsigned long a, unsigned long b, long tolerance) {
    return labs((long)a - (long)b) <= tolerance;
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 8) {
        fprintf(stderr, "usage: xspot WINDOW-ID RRGGBB TOLERANCE [X Y WIDTH HEIGHT]\n");
        return 2;
    }
    XSetErrorHandler(x_error);
    Display *display = XOpenDisplay(NULL);
    if (!display) {
        fprintf(stderr, "xspot: cannot open the display\n");
        return 1;
    }
    Window window = (Window)strtoul(argv[1], NULL, 0);
    unsigned long color = strtoul(argv[2], NULL, 16);
    long tolerance = strtol(argv[3], NULL, 0);
    XWindowAttributes attributes;
    if (!XGetWindowAttributes(display, window, &attributes)) {
        fprintf(stderr, "xspot: no such window\n");
        return 1;
    }
    int x0 = 0, y0 = 0, width = attributes.width, height = attributes.height;
    if (argc == 8) {
        x0 = atoi(argv[4]);
        y0 = atoi(argv[5]);
        width = atoi(argv[6]);
        height = atoi(argv[7]);
    }
    if (x0 < 0 || y0 < 0 || width < 1 || height < 1 || x0 + width > attributes.width || y0 + height > attributes.height) {
        fprintf(stderr, "xspot: the rectangle is not inside the window (%dx%d)\n", attributes.width, attributes.height);
        return 1;
    }
    XImage *image = XGetImage(display, window, x0, y0, (unsigned)width, (unsigned)height, AllPlanes, ZPixmap);
    if (!image) {
        fprintf(stderr, "xspot: the window's pixels could not be read\n");
        return 1;
    }
    long count = 0;
    int foundX = -1, foundY = -1;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            unsigned long pixel = XGetPixel(image, x, y);
            unsigned long r = (pixel & image->red_mask) >> 16, g = (pixel & image->green_mask) >> 8, b = pixel & image->blue_mask;
            if (near(r, color >> 16 & 0xff, tolerance) && near(g, color >> 8 & 0xff, tolerance) && near(b, color & 0xff, tolerance)) {
                count++;
                if (y > foundY) {
                    foundY = y;
                    foundX = x;
                }
            }
        }
    }
    printf("%ld %d %d\n", count, foundX < 0 ? -1 : x0 + foundX, foundY < 0 ? -1 : y0 + foundY);
    XDestroyImage(image);
    XCloseDisplay(display);
    return 0;
}
