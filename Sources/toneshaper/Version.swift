/// The program's version, defined here only: `toneshaper --version` prints it,
/// `Scripts/install.sh` reads it from there for the man page's footer, `Scripts/build-clap.sh`
/// compiles it into the CLAP plugin's descriptors, and `Scripts/package.sh` names the
/// packages by it.
///
/// It is `0.MINOR.MICRO`, where MINOR is the parameter table's version (the LV2 plugin's
/// lv2:minorVersion, ``LV2PortLayout/minorVersion``: even for a release) and MICRO is its
/// lv2:microVersion (``LV2PortLayout/microVersion``). A release that adds a parameter raises
/// both; PackageVersionTests fails until they agree.
enum ToneShaperVersion {
    static let string = "0.6.0"
}
