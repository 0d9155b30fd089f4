#!/usr/bin/env python3
"""The VST3 plugin in pedalboard (Spotify's Python host over JUCE's VST3 hosting).

    python3 pedalboard_check.py BUNDLE [--plugin-name NAME] [--set NAME=VALUE]...
                                [--note KEY] [--velocity V] [--seconds 1.0] [--duration 1.5]
                                [--rate 48000] [--channels N] [--out FILE.wav]

Loads the bundle (naming the class when it has several), lists its parameters by their
Python names, sets each --set parameter by name (in the parameter's own units, as
pedalboard takes them), reads each back, renders one note (note on at 0, off after
--seconds) and prints one JSON report on standard output: the parameters, the values read
back, the estimated pitch of the note (FFT peak, refined, over the steady middle of the
note; and zero crossings), the peak level. Exit status 0 when it rendered, 1 when
pedalboard could not load or play the plugin (the report says why).
"""

import argparse
import json
import sys
import traceback


def estimate_pitch(samples, rate):
    """The note's fundamental: the FFT's strongest peak in the steady middle of the note,
    refined by parabolic interpolation on the log magnitude; and zero crossings there."""
    import numpy as np

    x = np.asarray(samples, dtype=np.float64)
    n = len(x)
    if n < 4096:
        return None, None
    start, stop = n // 5, n - n // 5
    segment = x[start:stop]
    size = 1 << int(np.floor(np.log2(len(segment))))
    segment = segment[:size] * np.hanning(size)
    spectrum = np.abs(np.fft.rfft(segment))
    spectrum[: int(20 * size / rate) + 1] = 0
    k = int(np.argmax(spectrum))
    if k <= 0 or k >= len(spectrum) - 1 or spectrum[k] == 0:
        return None, None
    a, b, c = np.log(spectrum[k - 1 : k + 2] + 1e-30)
    offset = 0.5 * (a - c) / (a - 2 * b + c) if (a - 2 * b + c) != 0 else 0
    fft_hz = (k + offset) * rate / size
    steady = x[start:stop]
    signs = np.signbit(steady)
    rising = np.nonzero(signs[:-1] & ~signs[1:])[0]
    crossing_hz = None
    if len(rising) >= 3:
        # Linear interpolation of each rising crossing, then the mean period.
        exact = rising + steady[rising] / (steady[rising] - steady[rising + 1])
        crossing_hz = (len(exact) - 1) * rate / (exact[-1] - exact[0])
    return fft_hz, crossing_hz


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle")
    parser.add_argument("--plugin-name")
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--note", type=int, default=69)
    parser.add_argument("--velocity", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=1.5)
    parser.add_argument("--rate", type=float, default=48000)
    parser.add_argument("--channels", type=int, default=0)
    parser.add_argument("--out")
    options = parser.parse_args()
    report = {"loaded": False}
    try:
        import mido
        import numpy as np
        import pedalboard

        report["pedalboard"] = pedalboard.__version__
        try:
            plugin = pedalboard.load_plugin(options.bundle, plugin_name=options.plugin_name)
        except Exception as error:  # the names, when the bundle has several classes
            report["load_error"] = str(error)
            if options.plugin_name is None:
                raise
            report["plugin_names"] = pedalboard.VST3Plugin.get_plugin_names_for_file(options.bundle)
            raise
        report["loaded"] = True
        report["name"] = plugin.name
        report["is_instrument"] = bool(plugin.is_instrument)
        report["plugin_names"] = pedalboard.VST3Plugin.get_plugin_names_for_file(options.bundle)
        parameters = {}
        for name, parameter in plugin.parameters.items():
            entry = {"value": str(getattr(plugin, name)), "label": parameter.label or ""}
            try:
                entry["range"] = [parameter.range[0], parameter.range[1], parameter.range[2]]
            except Exception:
                pass
            parameters[name] = entry
        report["parameters"] = parameters
        report["parameter_names"] = list(parameters)
        read_back = {}
        for assignment in options.set:
            name, _, text = assignment.partition("=")
            value = text
            try:
                value = float(text)
            except ValueError:
                if text.lower() in ("true", "false"):
                    value = text.lower() == "true"
            try:
                setattr(plugin, name, value)
                back = getattr(plugin, name)
                try:
                    read_back[name] = float(back)
                except (TypeError, ValueError):
                    read_back[name] = str(back)
            except Exception as error:
                read_back[name] = "error: %s" % error
        report["read_back"] = read_back
        messages = [
            mido.Message("note_on", note=options.note, velocity=options.velocity, time=0),
            mido.Message("note_off", note=options.note, time=options.seconds),
        ]
        channels = options.channels or (2 if "stereo" in (plugin.name or "").lower() else 1)
        audio = plugin(messages, duration=options.duration, sample_rate=options.rate, num_channels=channels)
        audio = np.asarray(audio)
        report["shape"] = list(audio.shape)
        mono = audio[0]
        held = mono[: int(options.seconds * options.rate)]
        report["peak"] = float(np.max(np.abs(audio))) if audio.size else 0.0
        report["finite"] = bool(np.all(np.isfinite(audio)))
        report["rms_after_release"] = float(np.sqrt(np.mean(mono[int((options.seconds + 0.2) * options.rate) :] ** 2)))
        fft_hz, crossing_hz = estimate_pitch(held, options.rate)
        report["pitch_hz"] = fft_hz
        report["zero_crossing_hz"] = crossing_hz
        if options.out:
            with pedalboard.io.AudioFile(options.out, "w", options.rate, audio.shape[0]) as file:
                file.write(audio)
        print(json.dumps(report))
        return 0
    except Exception as error:
        report["error"] = "%s: %s" % (type(error).__name__, error)
        report["traceback"] = traceback.format_exc()
        print(json.dumps(report))
        return 1


if __name__ == "__main__":
    sys.exit(main())
