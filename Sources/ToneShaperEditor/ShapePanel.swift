import CEditor
import CPluginSupport
import ToneShaperModel
import ToneShaperPlugin

/// The shape library in the window, as the browser editor has it: cards with a thumbnail of
/// each shape's curve (``ShapeThumbnail/outline(_:columns:)``, made once a listing) and its
/// name: the plugin's built-in shapes, the user's (``ShapeFolder/shapes``), then the old
/// folder's (``ShapeFolder/library``, read only). A click (or Enter on the chosen card) opens
/// one: the plugin plays that document whole and the host saves it with the project; Ctrl+Z
/// then reopens the document as it was (one undo step). Save as writes the document playing
/// as a new shape of the user's; Rename renames the chosen one of the user's.
struct ShapePanel {
    var open = false

    enum Origin: Equatable {
        case builtIn
        case user
        /// The old folder's: opened, never renamed.
        case old
    }

    struct Shape {
        let name: String
        let origin: Origin
        /// A built-in's bytes (the user's are read when opened, as they are then).
        let document: [UInt8]
        /// Its file, when it has one (the user's; an LV2 bundle's built-ins).
        let file: String?
        /// The thumbnail's line, in a unit square (empty: not a document).
        let outline: [(x: Double, y: Double)]
    }

    var shapes: [Shape] = []
    var folder: ShapeFolder?
    var oldFolder: ShapeFolder?
    /// The card last opened or moved to with the arrow keys.
    var chosen: Int?
    /// The first row of cards shown (the wheel scrolls them).
    var firstRow = 0
    /// The name typed for Save as, or for renaming card `renaming` (its name offered, `fresh`
    /// until a key is typed).
    var naming: (text: String, renaming: Int?, fresh: Bool)?
    /// What the last action did, or why it was refused.
    var message = ""
    /// A Save as waiting for the plugin's snapshot of its document (LV2: ``KeptDocument/file(_:)``,
    /// written by its worker a block or so later), and until when it waits.
    var pendingSave: (name: String, file: String, until: Double)?

    /// Every shape, read again each time the panel opens or a file is written.
    mutating func list(builtIns: [BuiltInShape]) {
        folder = ShapeFolder.shapes
        oldFolder = ShapeFolder.library
        shapes = builtIns.map {
            Shape(name: $0.name, origin: .builtIn, document: $0.document, file: $0.file, outline: ShapePanel.outline($0.document))
        }
        for (place, origin) in [(folder, Origin.user), (oldFolder, Origin.old)] {
            guard let place else { continue }
            for name in place.names() {
                let bytes = (try? DocumentFile.read(place.file(name))) ?? []
                shapes.append(Shape(name: name, origin: origin, document: [], file: place.file(name), outline: ShapePanel.outline(bytes)))
            }
        }
        if let index = chosen, !shapes.indices.contains(index) { chosen = nil }
    }

    static func outline(_ bytes: [UInt8]) -> [(x: Double, y: Double)] {
        guard let shape = try? ToneShapeDocument.decode(bytes, source: "shape") else { return [] }
        return ShapeThumbnail.outline(shape, columns: 40)
    }

    /// Shape `index`'s document as it is now (a user's read from its file).
    func document(_ index: Int) throws(DocumentFile.Refusal) -> [UInt8] {
        let shape = shapes[index]
        guard shape.origin != .builtIn else { return shape.document }
        return try DocumentFile.read(shape.file ?? "")
    }
}

extension EditorWindow {
    /// A press of the left button: true when the Shapes button or the open panel took it.
    func pressShapes(_ layout: Layout, _ x: Int, _ y: Int) -> Bool {
        if layout.shapesButton.contains(x, y) {
            shapePanel.open.toggle()
            shapePanel.naming = nil
            if shapePanel.open {
                tuningPanel.open = false
                shapePanel.list(builtIns: link.builtInShapes())
                if trace { toneshaper_ui_stderr("lists " + String(shapePanel.shapes.count) + " shapes") }
            }
            needsDraw = true
            return true
        }
        guard shapePanel.open, layout.plot.contains(x, y) else { return false }
        needsDraw = true
        if layout.shapeAction(0).contains(x, y) {
            shapePanel.naming = ("", nil, false)
        } else if layout.shapeAction(1).contains(x, y) {
            startRenaming()
        } else if let index = layout.shapeCard(atX: x, y: y, firstRow: shapePanel.firstRow), shapePanel.shapes.indices.contains(index) {
            openShape(index)
        }
        return true
    }

    func startRenaming() {
        guard let index = shapePanel.chosen, shapePanel.shapes[index].origin == .user else {
            shapePanel.message = "open one of your own shapes first (built-in shapes and the old folder's are not renamed)"
            return
        }
        shapePanel.naming = (shapePanel.shapes[index].name, index, true)
    }

    /// Opens shape `index` as one undo step: the plugin plays it whole; refused, nothing changes.
    func openShape(_ index: Int) {
        let name = shapePanel.shapes[index].name
        shapePanel.chosen = index
        let document: [UInt8]
        do throws(DocumentFile.Refusal) {
            document = try shapePanel.document(index)
        } catch {
            shapePanel.message = "not opened: " + name + " " + error.reason
            return
        }
        if pointsToSend {
            pointsToSend = false
            sendPoints()
        }
        let before = link.keepDocument()  // (LV2: the plugin writes it before it loads the shape)
        let file = shapePanel.shapes[index].file
        guard link.openDocument(document, what: "the shape " + name) || (file.map { link.openDocumentFile($0) } ?? false) else {
            shapePanel.message = "not opened: the plugin refused " + name + " (see its log)"
            return
        }
        if let before { editor.opened(over: before) }
        shapePanel.message = "opened " + name
        shapePanel.open = false
        status = "opened " + name
        if trace { toneshaper_ui_stderr("opens shape " + name) }
    }

    /// Undo or redo of an open: the plugin plays `document` again; the one it replaces comes
    /// back for the step the other way (nil: refused, the step stays).
    func reopen(_ kept: KeptDocument) -> KeptDocument? {
        guard let now = link.keepDocument() else { return nil }
        guard link.reopen(kept) else {
            status = "the document as it was could not be opened again"
            return nil
        }
        if trace {
            switch kept {
            case .bytes(let document): toneshaper_ui_stderr("reopens a document of " + String(document.count) + " bytes")
            case .file(let path): toneshaper_ui_stderr("reopens a document kept in " + path)
            }
        }
        return now
    }

    /// A key while the panel is open: the name typed, or the cards chosen with the arrows
    /// and opened with Enter; false when it is not the panel's.
    func shapesKey(_ event: toneshaper_ui_event) -> Bool {
        guard shapePanel.open else { return false }
        if var naming = shapePanel.naming {
            switch Int(event.keysym) {
            case Int(XK_Escape): shapePanel.naming = nil
            case Int(XK_Return), Int(XK_KP_Enter): commitName(naming.text, renaming: naming.renaming)
            default:
                guard TypedText.edit(&naming.text, fresh: &naming.fresh, event, limit: 100) else { return true }
                shapePanel.naming = naming
            }
            return true
        }
        let count = shapePanel.shapes.count
        let step: Int
        switch Int(event.keysym) {
        case Int(XK_Escape):
            shapePanel.open = false
            return true
        case Int(XK_Return), Int(XK_KP_Enter):
            if let index = shapePanel.chosen { openShape(index) }
            return true
        case Int(XK_Left): step = -1
        case Int(XK_Right): step = 1
        case Int(XK_Up): step = -Layout.shapeColumns
        case Int(XK_Down): step = Layout.shapeColumns
        default: return false
        }
        guard count > 0 else { return true }
        let index = min(max((shapePanel.chosen ?? -step) + step, 0), count - 1)
        shapePanel.chosen = index
        shapePanel.firstRow = min(max(shapePanel.firstRow, index / Layout.shapeColumns - Layout.shapeRows + 1), index / Layout.shapeColumns)
        return true
    }

    /// Save as (`renaming` nil) or a rename, refused with the reason shown when the name is a
    /// built-in's, taken, or cannot be a file's.
    func commitName(_ name: String, renaming: Int?) {
        guard let folder = shapePanel.folder else {
            shapePanel.message = "no shapes folder (set HOME or XDG_DATA_HOME)"
            return
        }
        if shapePanel.shapes.contains(where: { $0.origin == .builtIn && $0.name == name }) {
            shapePanel.message = "\"" + name + "\" is a built-in shape's name: choose another"
            return
        }
        let outcome: ShapeFolder.Outcome
        if let renaming {
            outcome = folder.rename(shapePanel.shapes[renaming].name, to: name)
        } else if let document = link.currentDocument() {
            outcome = folder.save(document, as: name)
        } else if case .file(let file)? = link.keepDocument() {
            // The plugin writes its document there on its worker: saved once it is (idle()).
            shapePanel.pendingSave = (name, file, toneshaper_plugin_monotonic_seconds() + 30)
            shapePanel.message = "saving " + name + "…"
            return
        } else {
            outcome = .refused("the plugin cannot give its document here")
        }
        show(outcome, name: name, renaming: renaming, in: folder)
    }

    /// A Save as that waits for the plugin's snapshot: saved once the file is there (the
    /// plugin writes it whole, then renames it into place), refused after 30 s without it.
    func finishPendingSave() {
        guard let pending = shapePanel.pendingSave, let folder = shapePanel.folder else { return }
        if let document = try? DocumentFile.read(pending.file) {
            shapePanel.pendingSave = nil
            show(folder.save(document, as: pending.name), name: pending.name, renaming: nil, in: folder)
        } else if toneshaper_plugin_monotonic_seconds() > pending.until {
            shapePanel.pendingSave = nil
            shapePanel.message = "not saved: the plugin did not give its document (is it running?)"
        }
    }

    /// What a Save as or a rename did, shown in the panel.
    private func show(_ outcome: ShapeFolder.Outcome, name: String, renaming: Int?, in folder: ShapeFolder) {
        switch outcome {
        case .done:
            shapePanel.message = (renaming == nil ? "saved " : "renamed to ") + name + " in " + folder.path
            shapePanel.naming = nil
            shapePanel.list(builtIns: link.builtInShapes())
            shapePanel.chosen = shapePanel.shapes.firstIndex { $0.origin == .user && $0.name == name }
            if trace { toneshaper_ui_stderr((renaming == nil ? "saves shape " : "renames shape to ") + name) }
        case .exists: shapePanel.message = "a shape named \"" + name + "\" exists: type another name (nothing was overwritten)"
        case .refused(let why): shapePanel.message = "not saved: " + why
        }
    }
}

extension Layout {
    static let shapeColumns = 5
    static let shapeRows = 4

    /// The button that opens and closes the panel, left of the tuning's.
    var shapesButton: Box { Box(x: plot.x + plot.w - 196 * scale, y: plot.y + 4 * scale, w: 92 * scale, h: 20 * scale) }

    /// The panel's Save as (0) and Rename (1) buttons.
    func shapeAction(_ index: Int) -> Box { Box(x: plot.x + (12 + 96 * Double(index)) * scale, y: plot.y + 30 * scale, w: 90 * scale, h: 20 * scale) }

    /// The card in column `column`, row `row` of those shown.
    func shapeCard(column: Int, row: Int) -> Box {
        let w = (plot.w - 24 * scale) / Double(Layout.shapeColumns)
        let h = min(62 * scale, (plot.h - 84 * scale) / Double(Layout.shapeRows))
        return Box(x: plot.x + 12 * scale + Double(column) * w, y: plot.y + 78 * scale + Double(row) * h, w: w - 6 * scale, h: h - 6 * scale)
    }

    /// The shape's index under (x, y), `firstRow` the first row shown.
    func shapeCard(atX x: Int, y: Int, firstRow: Int) -> Int? {
        for row in 0..<Layout.shapeRows {
            for column in 0..<Layout.shapeColumns where shapeCard(column: column, row: row).contains(x, y) {
                return (firstRow + row) * Layout.shapeColumns + column
            }
        }
        return nil
    }
}

extension Painter {
    func paintShapes() {
        let panel = w.shapePanel
        let button = layout.shapesButton
        let p = layout.plot
        if panel.open {
            color(0.09, 0.1, 0.12, 0.97)
            rectangle(p)
            cairo_fill(cr)
        }
        paintButton(button, panel.open ? "Close shapes" : "Shapes…", on: panel.open, baseline: 14)
        guard panel.open else { return }
        color(0.92, 0.92, 0.95)
        text("Shapes", p.x + 12 * s, p.y + 20 * s, size: 13, bold: true)
        for (index, label) in ["Save as…", "Rename…"].enumerated() {
            paintButton(layout.shapeAction(index), label, baseline: 14)
        }
        if let naming = panel.naming {
            let b = Box(x: p.x + 204 * s, y: p.y + 30 * s, w: min(300 * s, p.w - 216 * s), h: 20 * s)
            color(0.16, 0.17, 0.2)
            rectangle(b)
            cairo_fill(cr)
            color(0.95, 0.95, 0.97)
            text(naming.text + "_", b.x + 6 * s, b.y + 14 * s, size: 11)
        }
        color(0.85, 0.7, 0.35)
        let hint = panel.naming == nil ? "click a shape to open it (Ctrl+Z undoes)" : "type a name: Enter saves it, Esc leaves it"
        text(panel.message.isEmpty ? hint : panel.message, p.x + 12 * s, p.y + 68 * s, size: 10)
        for row in 0..<Layout.shapeRows {
            for column in 0..<Layout.shapeColumns {
                let index = (panel.firstRow + row) * Layout.shapeColumns + column
                guard panel.shapes.indices.contains(index) else { return }
                paintCard(panel.shapes[index], layout.shapeCard(column: column, row: row), chosen: index == panel.chosen)
            }
        }
    }

    /// A card: its thumbnail (the outline made at the listing) over its name.
    func paintCard(_ shape: ShapePanel.Shape, _ card: Box, chosen: Bool) {
        if chosen { color(0.22, 0.3, 0.45) } else { color(0.15, 0.16, 0.19) }
        rectangle(card)
        cairo_fill(cr)
        let thumb = Box(x: card.x + 5 * s, y: card.y + 4 * s, w: card.w - 10 * s, h: card.h - 22 * s)
        switch shape.origin {
        case .builtIn: color(0.45, 0.75, 0.95)
        case .user: color(0.95, 0.75, 0.4)
        case .old: color(0.7, 0.7, 0.72)
        }
        cairo_set_line_width(cr, 1.5 * s)
        for (i, point) in shape.outline.enumerated() {
            let x = thumb.x + point.x * thumb.w
            let y = thumb.y + (1 - point.y) * thumb.h
            if i == 0 { cairo_move_to(cr, x, y) } else { cairo_line_to(cr, x, y) }
        }
        cairo_stroke(cr)
        color(0.9, 0.9, 0.92)
        text(shape.origin == .old ? shape.name + " (old)" : shape.name, card.x + 5 * s, card.y + card.h - 6 * s, size: 10)
    }
}
