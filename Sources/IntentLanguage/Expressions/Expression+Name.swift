import IntentModel

/// Foundation has an `Expression` too; ours is the definitions' expression language.
typealias Expression = IntentModel.Expression
