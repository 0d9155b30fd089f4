// The render kernel's plain data and formulas (plans, voices, phase, waves, scalings, the
// wave and scale types) live in ToneShaperDSP, below the kernel's per-level modules; every
// user of ToneShaperCore sees them as before.
@_exported import ToneShaperDSP
// JSONValue and its reader and writer live in ToneShaperJSON, which the LV2 plugin shares.
@_exported import ToneShaperJSON
