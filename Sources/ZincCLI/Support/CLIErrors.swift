import ArgumentParser
import Zinc

/// Runs library work and turns a `ZincError` into a clean message and exit status 1,
/// instead of ArgumentParser's generic rendering.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ZincError {
        throw ValidationFailure(message: error.description)
    }
}

struct ValidationFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
