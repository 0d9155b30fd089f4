// A client of MTS-ESP (ODDSound's tuning middleware): when the machine has the master's
// library (libMTS.so in /usr/local/lib or /usr/lib), it is loaded at run time (dlopen, never
// a build dependency) and its functions resolved by name, from the interface ODDSound
// publishes: MTS_RegisterClient(void), MTS_DeregisterClient(void), MTS_HasMaster(void),
// MTS_ShouldFilterNote(char note, char channel), MTS_GetTuningTable(void) (128 frequencies
// in Hz, key 0 first, in memory the master writes). Without the library every call here is
// a no-op: no master, nothing filtered.
//
// TONESHAPER_MTS_LIBRARY names the library to load instead of the two places (tests load a
// stand-in master so); set to an empty string, it turns the client off.
//
// Threads: register and deregister off the audio thread (an instance's start and end; a
// mutex orders them); the rest on the audio thread, lock-free: they read function pointers
// published once, and the master's own calls are plain reads of its memory. The library is
// never unloaded (a client of another instance may still read it).
#ifndef TONESHAPER_MTS_ESP_CLIENT_H
#define TONESHAPER_MTS_ESP_CLIENT_H

#include <stdbool.h>

/// Registers one client (an instance) with the master's library, loading it the first
/// time: true when the library was found (a master may connect later).
bool toneshaper_mts_register(void);

/// Deregisters a client `toneshaper_mts_register` registered (true it returned).
void toneshaper_mts_deregister(void);

/// The master's 128 frequencies (Hz, key 0 first) when the library is loaded and a master
/// is connected, else NULL. Audio thread: no lock, no allocation.
const double *toneshaper_mts_tuning_table(void);

/// Whether the master asks that `note` on `channel` (0...15) play nothing (an unmapped
/// key). False without a master. Audio thread.
bool toneshaper_mts_should_filter_note(unsigned char note, unsigned char channel);

#endif
