/// The release of the Zinc libraries and the `zinc` command. Defined once here so
/// that `zinc version`, `zinc --version`, the manual page and programs embedding Zinc
/// all report the same number.
public enum ZincVersion {
    public static let release = "1.0.0"
}
