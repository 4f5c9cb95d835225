"""The conformance suite: Gherkin features, scenario tables and the steps that drive an engine."""
