/// The program's version, defined here only: `toneshaper --version` prints it, and
/// `Scripts/install.sh` reads it from there for the man page's footer.
enum ToneShaperVersion {
    static let string = "0.1.0"
}
