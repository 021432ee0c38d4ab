/// The functions an expression may call. The checker types each and the evaluator runs each, both
/// by an exhaustive `switch` over this one list, so a function cannot be known to one and not the
/// other.
public enum BuiltinFunction: String, CaseIterable, Sendable, Hashable {
    /// `count(list)`, `count(Task where …)`: how many.
    case count
    /// `exists(list)`: whether there is at least one.
    case exists
    /// `first(list)`: the first item, or nil.
    case first
    /// `now()`: this moment, from the one clock.
    case now
    /// `today()`: the start of today, from the one clock.
    case today
    /// `pick(list, seed…)`: an item chosen by the seeds, the same for the same seeds in any order.
    case pick
    /// `percent(seed…)`: a number from 0 to 100 chosen by the seeds, the same in any order.
    case percent
    case lowercase
    case uppercase
    /// The first letter upper-cased, the rest as it is.
    case capitalized
    /// `join(list, separator)`: the items as text, `", "` between them by default.
    case join
    /// `minutes(n)`, `hours(n)`, `days(n)`: a duration.
    case minutes
    case hours
    case days
}
