import CCLAP
import ToneShaperPlugin

/// CLAP's clap_param_info for a row, from the core's ``HostParameter``: its id the row's
/// stable number, its flags, name, module (the row's group), range and default. Nothing here
/// decides what a host shows.
enum CLAPParameters {
    static func info(_ row: Int, into info: inout toneshaper_clap_param_info) {
        info.id = HostParameter.id(row)
        var flags = UInt32(TONESHAPER_CLAP_PARAM_IS_AUTOMATABLE)
        if HostParameter.stepped(row) { flags |= UInt32(TONESHAPER_CLAP_PARAM_IS_STEPPED) }
        if HostParameter.isChoice(row) { flags |= UInt32(TONESHAPER_CLAP_PARAM_IS_ENUM) }
        if HostParameter.modulatable(row) { flags |= UInt32(TONESHAPER_CLAP_PARAM_IS_MODULATABLE) }
        // A change that needs a new plan is built off the audio thread, which process() feeds.
        if HostParameter.needsPlan(row) { flags |= UInt32(TONESHAPER_CLAP_PARAM_REQUIRES_PROCESS) }
        info.flags = flags
        info.cookie = nil
        withUnsafeMutableBytes(of: &info.name) { HostParameter.copyText(HostParameter.name(row), into: $0) }
        withUnsafeMutableBytes(of: &info.module) { HostParameter.copyText(HostParameter.group(row), into: $0) }
        let range = HostParameter.range(row)
        info.min_value = range.lowerBound
        info.max_value = range.upperBound
        info.default_value = HostParameter.defaultValue(row)
    }
}
