// The render kernel's plain data and formulas (plans, voice state, phase, waves, scalings)
// live in ToneShaperDSP, below the kernel's per-level modules; every host of the audio side
// sees them with it.
@_exported import ToneShaperDSP
