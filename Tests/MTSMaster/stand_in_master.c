// A stand-in for an MTS-ESP master's library (libMTS.so), for the tests: the functions a
// client resolves by name, with the signatures ODDSound publishes, over a table this file
// keeps. Not ODDSound's code: a few lines that behave as a master does, as seen by a client.
//
//   cc -std=gnu11 -shared -fPIC -o libMTS.so Tests/MTSMaster/stand_in_master.c
//
// Loaded by a plugin or the node through TONESHAPER_MTS_LIBRARY. What it plays, from the
// environment (read when the first client registers):
//   STAND_IN_MTS_RETUNE_KEY=K STAND_IN_MTS_RETUNE_HZ=F STAND_IN_MTS_RETUNE_AFTER=N
//       every key plays 12-TET (A4 = 440 Hz) until the table has been read N times (a
//       client reads it once a block), then key K plays F Hz: a master retuning a held note,
//       on the client's own timeline, so a run is repeatable to the block;
//   STAND_IN_MTS_FILTER=K   key K is to play nothing (MTS_ShouldFilterNote);
//   STAND_IN_MTS_NO_MASTER=1   the library is there but no master is connected.
// It writes "stand-in master: registered N" and "stand-in master: deregistered, N left"
// to standard error, so a test sees that a client registers and deregisters.
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static double table[128];
static int clients;
static long reads;
static int retune_key = -1, filter_key = -1, no_master;
static double retune_hz;
static long retune_after;

static void start(void) {
    for (int key = 0; key < 128; key++) {
        double f = 440;
        for (int k = key; k < 69; k++) f /= 1.0594630943592953;
        for (int k = 69; k < key; k++) f *= 1.0594630943592953;
        table[key] = f;
    }
    const char *value;
    if ((value = getenv("STAND_IN_MTS_RETUNE_KEY"))) retune_key = atoi(value);
    if ((value = getenv("STAND_IN_MTS_RETUNE_HZ"))) retune_hz = atof(value);
    if ((value = getenv("STAND_IN_MTS_RETUNE_AFTER"))) retune_after = atol(value);
    if ((value = getenv("STAND_IN_MTS_FILTER"))) filter_key = atoi(value);
    no_master = getenv("STAND_IN_MTS_NO_MASTER") != NULL;
}

void MTS_RegisterClient(void) {
    if (clients++ == 0 && reads == 0) start();
    fprintf(stderr, "stand-in master: registered %d\n", clients);
}

void MTS_DeregisterClient(void) {
    clients--;
    fprintf(stderr, "stand-in master: deregistered, %d left\n", clients);
}

bool MTS_HasMaster(void) { return !no_master; }

bool MTS_ShouldFilterNote(char note, char channel) {
    (void)channel;
    return note == filter_key;
}

const double *MTS_GetTuningTable(void) {
    if (++reads == retune_after && retune_key >= 0 && retune_key < 128) table[retune_key] = retune_hz;
    return table;
}
