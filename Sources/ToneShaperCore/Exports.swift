// The render kernel's plain data and formulas (plans, voices, phase, waves, scalings, the
// wave and scale types) live in ToneShaperDSP, below the kernel's per-level modules; every
// user of ToneShaperCore sees them as before.
@_exported import ToneShaperDSP
