import Foundation
import Testing

extension Tag {
    /// Suites and tests that take minutes rather than seconds: many runs of the binary, 200,000-name
    /// stores, killed processes, a browser. `make test-fast` skips them; `make test` runs them.
    @Tag public static var slow: Self
}

extension Trait where Self == ConditionTrait {
    /// Off under `make test-fast` (`INTENTS_TEST_FAST=1`); goes with `.tags(.slow)`. The toolchain's
    /// `swift test` cannot skip by tag yet (`--skip tag:slow` arrives with swift-testing's tag
    /// filters), so the Makefile asks through the environment.
    public static var skippedWhenFast: Self {
        .disabled(
            if: ProcessInfo.processInfo.environment["INTENTS_TEST_FAST"] != nil,
            "make test-fast skips the slow tests; make test runs them")
    }
}
