#ifndef TONESHAPER_CLV2UI_H
#define TONESHAPER_CLV2UI_H

// What the LV2 shell of the editor window needs of C: the LV2 UI, atom, URID, patch and
// options headers (the window itself, Xlib and cairo, is module CEditor's). The C target CLV2UI
// (Package.swift); Scripts/build-lv2.sh maps it as SwiftPM does.

#include <lv2/core/lv2.h>
#include <lv2/ui/ui.h>
#include <lv2/atom/atom.h>
#include <lv2/urid/urid.h>
#include <lv2/patch/patch.h>
#include <lv2/options/options.h>

#endif
