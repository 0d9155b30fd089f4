#ifndef TONESHAPER_CEDITOR_H
#define TONESHAPER_CEDITOR_H

// What the editor window (Embedded Swift, whichever plugin format shows it) needs of C:
// Xlib and cairo, and small helpers for what Swift cannot import or call: Xlib's
// function-like macros, its event union read into one plain struct, and printf-style
// number text (variadic). The C target CEditor (Package.swift).

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/keysym.h>
#include <cairo/cairo.h>
#include <cairo/cairo-xlib.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/// The kinds of event the editor reads (toneshaper_ui_next_event).
enum {
    TONESHAPER_UI_NONE = 0,
    TONESHAPER_UI_EXPOSE = 1,
    TONESHAPER_UI_PRESS = 2,
    TONESHAPER_UI_RELEASE = 3,
    TONESHAPER_UI_MOTION = 4,
    TONESHAPER_UI_KEY = 5,
    TONESHAPER_UI_SIZE = 6,
    TONESHAPER_UI_OTHER = 7,
    /// Another client asks for the text of the CLIPBOARD the window owns
    /// (toneshaper_ui_answer_selection answers it).
    TONESHAPER_UI_SELECTION_REQUEST = 8,
    /// The CLIPBOARD's text the window asked for (toneshaper_ui_request_paste) has come
    /// (toneshaper_ui_read_paste reads it).
    TONESHAPER_UI_PASTE = 9,
};

/// Modifier bits of toneshaper_ui_event.modifiers.
enum {
    TONESHAPER_UI_SHIFT = 1,
    TONESHAPER_UI_CONTROL = 2,
    TONESHAPER_UI_ALT = 4,
};

/// One X event, flattened: positions in window pixels, the button (1 left, 3 right, 4/5
/// the wheel), the key's keysym (lower case), the time in ms, the new size.
typedef struct {
    int kind;
    int x, y;
    int button;
    int modifiers;
    unsigned long keysym;
    unsigned long time;
    int width, height;
    /// A key's: its keycode and raw state (to pass it on to the host's window).
    unsigned keycode, state;
    /// The text the key types (Latin-1 as XLookupString gives it; empty for none).
    char text[8];
    /// A selection request's: who asks, for what, into which property.
    unsigned long requestor, selection, target, property;
} toneshaper_ui_event;

static inline int toneshaper_ui_modifiers(unsigned state) {
    return ((state & ShiftMask) ? TONESHAPER_UI_SHIFT : 0) | ((state & ControlMask) ? TONESHAPER_UI_CONTROL : 0)
        | ((state & Mod1Mask) ? TONESHAPER_UI_ALT : 0);
}

/// A child window of `parent` (0: a top-level window) of w x h pixels, taking the events the
/// editor reads, mapped at once when `mapped` (else when shown). Returns 0 when it cannot.
static inline Window toneshaper_ui_create_window(Display *display, Window parent, int w, int h, int mapped) {
    int screen = DefaultScreen(display);
    if (!parent) parent = RootWindow(display, screen);
    XSetWindowAttributes attributes;
    memset(&attributes, 0, sizeof attributes);
    attributes.background_pixel = BlackPixel(display, screen);
    attributes.event_mask = ExposureMask | ButtonPressMask | ButtonReleaseMask | PointerMotionMask | KeyPressMask
        | StructureNotifyMask | EnterWindowMask;
    Window window = XCreateWindow(display, parent, 0, 0, (unsigned)w, (unsigned)h, 0, CopyFromParent, InputOutput, CopyFromParent,
                                  CWBackPixel | CWEventMask, &attributes);
    if (!window) return 0;
    XStoreName(display, window, "ToneShaper editor");
    if (mapped) XMapRaised(display, window);
    XFlush(display);
    return window;
}

/// Keys go to `window` from now on (a click in it asks for them, as a text field does: the
/// host's window keeps the keyboard otherwise).
static inline void toneshaper_ui_take_focus(Display *display, Window window) {
    XSetInputFocus(display, window, RevertToParent, CurrentTime);
}

/// Shows (maps) or hides (unmaps) the window.
static inline void toneshaper_ui_show(Display *display, Window window, int shown) {
    if (shown) XMapRaised(display, window);
    else XUnmapWindow(display, window);
    XFlush(display);
}

/// The display connection's file descriptor (a host can watch it for the window's events).
static inline int toneshaper_ui_connection(Display *display) { return ConnectionNumber(display); }

static inline Visual *toneshaper_ui_visual(Display *display) { return DefaultVisual(display, DefaultScreen(display)); }

/// Reads the next pending event into *event: 0 when none is pending.
static inline int toneshaper_ui_next_event(Display *display, toneshaper_ui_event *event) {
    memset(event, 0, sizeof *event);
    if (!XPending(display)) return 0;
    XEvent x;
    XNextEvent(display, &x);
    switch (x.type) {
    case Expose:
        event->kind = x.xexpose.count == 0 ? TONESHAPER_UI_EXPOSE : TONESHAPER_UI_OTHER;
        break;
    case ButtonPress:
    case ButtonRelease:
        event->kind = x.type == ButtonPress ? TONESHAPER_UI_PRESS : TONESHAPER_UI_RELEASE;
        event->x = x.xbutton.x;
        event->y = x.xbutton.y;
        event->button = (int)x.xbutton.button;
        event->time = x.xbutton.time;
        event->modifiers = toneshaper_ui_modifiers(x.xbutton.state);
        break;
    case MotionNotify:
        event->kind = TONESHAPER_UI_MOTION;
        event->x = x.xmotion.x;
        event->y = x.xmotion.y;
        event->time = x.xmotion.time;
        event->modifiers = toneshaper_ui_modifiers(x.xmotion.state);
        // The buttons held (1, 2, 3 as bits 1, 2, 4).
        event->button = ((x.xmotion.state & Button1Mask) ? 1 : 0) | ((x.xmotion.state & Button2Mask) ? 2 : 0)
            | ((x.xmotion.state & Button3Mask) ? 4 : 0);
        break;
    case KeyPress: {
        event->kind = TONESHAPER_UI_KEY;
        KeySym sym = XLookupKeysym(&x.xkey, 0);
        event->keysym = (unsigned long)sym;
        event->time = x.xkey.time;
        event->modifiers = toneshaper_ui_modifiers(x.xkey.state);
        event->keycode = x.xkey.keycode;
        XLookupString(&x.xkey, event->text, (int)sizeof event->text - 1, NULL, NULL);
        event->state = x.xkey.state;
        break;
    }
    case SelectionRequest:
        event->kind = TONESHAPER_UI_SELECTION_REQUEST;
        event->requestor = x.xselectionrequest.requestor;
        event->selection = x.xselectionrequest.selection;
        event->target = x.xselectionrequest.target;
        event->property = x.xselectionrequest.property;
        event->time = x.xselectionrequest.time;
        break;
    case SelectionNotify:
        event->kind = x.xselection.property != None ? TONESHAPER_UI_PASTE : TONESHAPER_UI_OTHER;
        break;
    case ConfigureNotify:
        event->kind = TONESHAPER_UI_SIZE;
        event->width = x.xconfigure.width;
        event->height = x.xconfigure.height;
        break;
    case EnterNotify:
        // Keys go to the window under the pointer (a host that embeds the window forwards them).
        event->kind = TONESHAPER_UI_OTHER;
        break;
    default:
        event->kind = TONESHAPER_UI_OTHER;
        break;
    }
    return 1;
}

/// Passes a key the window does not use on to its parent (the host's window), as if it had
/// been typed there: an embedded window that has the focus must not swallow the host's
/// shortcuts (space to play, its own keys). Nothing when the window is top level.
static inline void toneshaper_ui_forward_key(Display *display, Window window, unsigned keycode, unsigned state, unsigned long time) {
    Window root = 0, parent = 0, *children = NULL;
    unsigned count = 0;
    if (!XQueryTree(display, window, &root, &parent, &children, &count)) return;
    if (children) XFree(children);
    if (!parent || parent == root) return;
    for (int press = 1; press >= 0; press--) {
        XEvent e;
        memset(&e, 0, sizeof e);
        e.xkey.type = press ? KeyPress : KeyRelease;
        e.xkey.display = display;
        e.xkey.window = parent;
        e.xkey.root = root;
        e.xkey.subwindow = window;
        e.xkey.time = time;
        e.xkey.state = state;
        e.xkey.keycode = keycode;
        e.xkey.same_screen = True;
        XSendEvent(display, parent, True, press ? KeyPressMask : KeyReleaseMask, &e);
    }
    XFlush(display);
}

/// The window owns the CLIPBOARD from now on (its text is answered on request).
static inline void toneshaper_ui_own_clipboard(Display *display, Window window) {
    XSetSelectionOwner(display, XInternAtom(display, "CLIPBOARD", False), window, CurrentTime);
    XFlush(display);
}

/// Answers a selection request with `text` (UTF8_STRING, STRING or TEXT), or the targets
/// it offers; refuses other targets.
static inline void toneshaper_ui_answer_selection(Display *display, const toneshaper_ui_event *request, const char *text) {
    Atom utf8 = XInternAtom(display, "UTF8_STRING", False);
    Atom targets = XInternAtom(display, "TARGETS", False);
    Atom textAtom = XInternAtom(display, "TEXT", False);
    Atom property = request->property != None ? request->property : request->target;
    XEvent reply;
    memset(&reply, 0, sizeof reply);
    reply.xselection.type = SelectionNotify;
    reply.xselection.requestor = request->requestor;
    reply.xselection.selection = request->selection;
    reply.xselection.target = request->target;
    reply.xselection.time = request->time;
    reply.xselection.property = property;
    if (request->target == targets) {
        Atom offered[4] = {targets, utf8, XA_STRING, textAtom};
        XChangeProperty(display, request->requestor, property, XA_ATOM, 32, PropModeReplace, (unsigned char *)offered, 4);
    } else if (request->target == utf8 || request->target == XA_STRING || request->target == textAtom) {
        XChangeProperty(display, request->requestor, property, request->target == textAtom ? utf8 : request->target, 8, PropModeReplace,
                        (const unsigned char *)text, (int)strlen(text));
    } else {
        reply.xselection.property = None;
    }
    XSendEvent(display, request->requestor, False, 0, &reply);
    XFlush(display);
}

/// Asks the CLIPBOARD's owner for its text (UTF8_STRING), into a property of `window`; a
/// TONESHAPER_UI_PASTE event says it came.
static inline void toneshaper_ui_request_paste(Display *display, Window window) {
    XConvertSelection(display, XInternAtom(display, "CLIPBOARD", False), XInternAtom(display, "UTF8_STRING", False),
                      XInternAtom(display, "TONESHAPER_PASTE", False), window, CurrentTime);
    XFlush(display);
}

/// The pasted text (at most capacity - 1 bytes, NUL-terminated); returns its length.
static inline int toneshaper_ui_read_paste(Display *display, Window window, char *buffer, int capacity) {
    Atom type = None;
    int format = 0;
    unsigned long count = 0, after = 0;
    unsigned char *data = NULL;
    buffer[0] = 0;
    if (XGetWindowProperty(display, window, XInternAtom(display, "TONESHAPER_PASTE", False), 0, (capacity - 1) / 4, True,
                           AnyPropertyType, &type, &format, &count, &after, &data) != Success)
        return 0;
    int length = 0;
    if (data && format == 8) {
        length = (int)(count < (unsigned long)(capacity - 1) ? count : (unsigned long)(capacity - 1));
        memcpy(buffer, data, (size_t)length);
        buffer[length] = 0;
    }
    if (data) XFree(data);
    return length;
}

/// `value` as text with `decimals` digits after the point, then `unit` (may be empty).
static inline void toneshaper_ui_format(char *text, size_t capacity, double value, int decimals, const char *unit) {
    snprintf(text, capacity, "%.*f%s%s", decimals, value, unit && unit[0] ? " " : "", unit ? unit : "");
}

/// Seconds on the monotonic clock (double-clicks, the redraw's timing).
static inline double toneshaper_ui_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/// Whether the environment variable `name` is set to something other than "" or "0".
static inline int toneshaper_ui_env_flag(const char *name) {
    const char *value = getenv(name);
    return value && value[0] && strcmp(value, "0") != 0;
}

static inline void toneshaper_ui_stderr(const char *message) { fprintf(stderr, "toneshaper UI: %s\n", message); }

/// The folder of the user's tunings the window lists: $XDG_DATA_HOME/toneshaper/tunings,
/// else ~/.local/share/toneshaper/tunings, into `folder`; 0 when there is none or it does
/// not fit.
static inline int toneshaper_ui_tunings_folder(char *folder, size_t capacity) {
    const char *data = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    int n;
    if (data && data[0] == '/') n = snprintf(folder, capacity, "%s/toneshaper/tunings", data);
    else if (home && home[0]) n = snprintf(folder, capacity, "%s/.local/share/toneshaper/tunings", home);
    else return 0;
    return n > 0 && (size_t)n < capacity;
}

/// The names of the Scala files (.scl, .kbm, any case) in `folder`, each ended by a line
/// break, into `names` (NUL-terminated; as many as fit); their count, 0 without the folder.
static inline int toneshaper_ui_tuning_files(const char *folder, char *names, size_t capacity) {
    if (capacity == 0) return 0;
    names[0] = 0;
    DIR *dir = opendir(folder);
    if (!dir) return 0;
    size_t used = 0;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        size_t length = strlen(entry->d_name);
        if (length < 5 || entry->d_name[0] == '.') continue;
        const char *extension = entry->d_name + length - 4;
        if (strcasecmp(extension, ".scl") != 0 && strcasecmp(extension, ".kbm") != 0) continue;
        if (used + length + 2 > capacity) break;
        memcpy(names + used, entry->d_name, length);
        used += length;
        names[used++] = '\n';
        names[used] = 0;
        count++;
    }
    closedir(dir);
    return count;
}

#endif
