// xclose: asks a top-level window of an X display to close, as a window manager does when
// its close button is pressed (a WM_DELETE_WINDOW message), for tests on a display with no
// window manager (Xvfb). A window gone meanwhile is said plainly (exit status 3).
//
//   xclose WINDOW-ID
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// An X error (the window gone between the test's finding it and this reading it): said
/// plainly, exit status 3, instead of Xlib's default handler's message and exit.
static int x_error(Display *display, XErrorEvent *error) {
    char text[128] = "";
    XGetErrorText(display, error->error_code, text, sizeof text);
    if (error->error_code == BadWindow || error->error_code == BadDrawable || error->error_code == BadMatch)
        fprintf(stderr, "xclose: the window is gone (%s)\n", text);
    else
        fprintf(stderr, "xclose: X error %s (request %d)\n", text, error->request_code);
    exit(3);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: xclose WINDOW-ID\n");
        return 2;
    }
    XSetErrorHandler(x_error);
    Display *display = XOpenDisplay(NULL);
    if (!display) {
        fprintf(stderr, "xclose: cannot open the display\n");
        return 1;
    }
    Window window = (Window)strtoul(argv[1], NULL, 0);
    XEvent event;
    memset(&event, 0, sizeof event);
    event.xclient.type = ClientMessage;
    event.xclient.window = window;
    event.xclient.message_type = XInternAtom(display, "WM_PROTOCOLS", False);
    event.xclient.format = 32;
    event.xclient.data.l[0] = (long)XInternAtom(display, "WM_DELETE_WINDOW", False);
    event.xclient.data.l[1] = CurrentTime;
    if (!XSendEvent(display, window, False, NoEventMask, &event)) {
        fprintf(stderr, "xclose: the message could not be sent\n");
        return 1;
    }
    XSync(display, False);
    XCloseDisplay(display);
    return 0;
}
